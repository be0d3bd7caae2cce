#pragma once
// A perspective camera at one instant: where it is, where it looks, its lens and its image. This is what a camera
// path (camera_path.h) evaluates to, and it carries the math that rendering and view-dependent refinement
// (docs/design.md §4) need: view / projection matrices, world -> pixel projection with depth, the Jacobian of that
// projection, the frustum planes and the front-facing test.
//
// Conventions: right-handed world, the camera looks along `forward` with `up` on screen pointing up. Pixel
// coordinates have their origin at the top-left corner of the image, x to the right and y downwards, and pixel
// (i, j) covers [i, i+1) x [j, j+1), so its centre is (i + 0.5, j + 0.5). Depth is the distance along `forward`
// (m), positive in front of the camera.
#include <array>

#include <Eigen/Dense>

#include "mesh/types.h"

namespace adacloth {

using Mat4 = Eigen::Matrix4d;
using Mat23 = Eigen::Matrix<double, 2, 3>;

// A plane n.x + d = 0 with unit normal n pointing out of the frustum: signedDistance > 0 outside (m).
struct Plane {
  Vec3 normal = Vec3::UnitZ();
  double offset = 0.0;
  double signedDistance(const Vec3& x) const { return normal.dot(x) + offset; }
};

enum FrustumSide { kNearPlane = 0, kFarPlane, kLeftPlane, kRightPlane, kBottomPlane, kTopPlane };

struct Camera {
  Vec3 eye = Vec3::Zero();        // position (m)
  Vec3 forward = -Vec3::UnitZ();  // unit view direction
  Vec3 up = Vec3::UnitY();        // unit, orthogonal to forward
  Vec3 right = Vec3::UnitX();     // unit, forward x up
  double fovYDeg = 40.0;          // vertical field of view (degrees)
  double near = 0.05, far = 100;  // clip distances along forward (m)
  int width = 960, height = 540;  // image size (pixels)

  double aspect() const { return double(width) / height; }
  // Focal length in pixels: a unit of lateral offset at depth 1 m spans this many pixels.
  double focalPixels() const;

  // World -> camera coordinates (OpenGL convention: the camera looks down -z).
  Mat4 viewMatrix() const;
  // Camera -> clip coordinates (OpenGL convention: NDC z in [-1, 1] from near to far).
  Mat4 projectionMatrix() const;

  // Depth of a world point along forward (m).
  double depth(const Vec3& x) const { return forward.dot(x - eye); }
  // World point -> (pixel x, pixel y, depth in m). Only meaningful for depth > 0.
  Vec3 project(const Vec3& x) const;
  // 2x3 Jacobian of the pixel coordinates of project() with respect to the world point (pixels per m).
  Mat23 pixelJacobian(const Vec3& x) const;
  // The same in screen units where the image height is 1 (docs/design.md §4: S = P dx/du): pixelJacobian / height.
  Mat23 screenJacobian(const Vec3& x) const { return pixelJacobian(x) / height; }

  // The six planes of the view frustum (indexed by FrustumSide), normals pointing outwards.
  std::array<Plane, 6> frustumPlanes() const;
  // Largest signed distance to the six planes (m): <= 0 inside the frustum, and outside a fine approximation of
  // the distance to it (docs/design.md §4.2).
  double frustumDistance(const Vec3& x) const;
  bool inFrustum(const Vec3& x) const { return frustumDistance(x) <= 0.0; }

  // Whether the side of a surface with outward normal `normal` at `point` faces the camera.
  bool isFrontFacing(const Vec3& point, const Vec3& normal) const { return normal.dot(eye - point) > 0.0; }
  // The same for the triangle a, b, c (counter-clockwise seen from its front side).
  bool isFrontFacing(const Vec3& a, const Vec3& b, const Vec3& c) const {
    return isFrontFacing(a, (b - a).cross(c - a));
  }
};

// A camera from look-at parameters. `up` need not be orthogonal to the view direction (it is re-orthogonalised)
// but must not be parallel to it, and eye != target; throws std::invalid_argument otherwise.
Camera makeCamera(const Vec3& eye, const Vec3& target, const Vec3& up, double fovYDeg, double near, double far,
                  int width, int height);

}  // namespace adacloth
