#include "view/camera.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace adacloth {
namespace {

double tanHalfFovY(const Camera& c) { return std::tan(0.5 * c.fovYDeg * M_PI / 180.0); }

// An outward plane through the eye with (unnormalised) normal n.
Plane planeThroughEye(const Vec3& eye, const Vec3& n) {
  Vec3 unit = n.normalized();
  return {unit, -unit.dot(eye)};
}

}  // namespace

double Camera::focalPixels() const { return 0.5 * height / tanHalfFovY(*this); }

Mat4 Camera::viewMatrix() const {
  Mat4 m = Mat4::Identity();
  m.block<1, 3>(0, 0) = right.transpose();
  m.block<1, 3>(1, 0) = up.transpose();
  m.block<1, 3>(2, 0) = -forward.transpose();
  m.block<3, 1>(0, 3) = -m.block<3, 3>(0, 0) * eye;
  return m;
}

Mat4 Camera::projectionMatrix() const {
  const double f = 1.0 / tanHalfFovY(*this);
  Mat4 p = Mat4::Zero();
  p(0, 0) = f / aspect();
  p(1, 1) = f;
  p(2, 2) = (far + near) / (near - far);
  p(2, 3) = 2.0 * far * near / (near - far);
  p(3, 2) = -1.0;
  return p;
}

Vec3 Camera::project(const Vec3& x) const {
  const Vec3 d = x - eye;
  const double z = forward.dot(d), f = focalPixels();
  return {0.5 * width + f * right.dot(d) / z, 0.5 * height - f * up.dot(d) / z, z};
}

Mat23 Camera::pixelJacobian(const Vec3& x) const {
  const Vec3 d = x - eye;
  const double z = forward.dot(d), f = focalPixels();
  Mat23 j;
  // px = w/2 + f (right.d) / z, py = h/2 - f (up.d) / z; differentiate the quotients.
  j.row(0) = f * (right / z - right.dot(d) / (z * z) * forward).transpose();
  j.row(1) = -f * (up / z - up.dot(d) / (z * z) * forward).transpose();
  return j;
}

std::array<Plane, 6> Camera::frustumPlanes() const {
  const double ty = tanHalfFovY(*this), tx = ty * aspect();
  std::array<Plane, 6> planes;
  planes[kNearPlane] = {-forward, forward.dot(eye) + near};
  planes[kFarPlane] = {forward, -forward.dot(eye) - far};
  // A point is left of the view when (right.d) / z < -tx, i.e. (-right - tx forward).d > 0; likewise the others.
  planes[kLeftPlane] = planeThroughEye(eye, -right - tx * forward);
  planes[kRightPlane] = planeThroughEye(eye, right - tx * forward);
  planes[kBottomPlane] = planeThroughEye(eye, -up - ty * forward);
  planes[kTopPlane] = planeThroughEye(eye, up - ty * forward);
  return planes;
}

double Camera::frustumDistance(const Vec3& x) const {
  double d = -std::numeric_limits<double>::infinity();
  for (const Plane& p : frustumPlanes()) d = std::max(d, p.signedDistance(x));
  return d;
}

Camera makeCamera(const Vec3& eye, const Vec3& target, const Vec3& up, double fovYDeg, double near, double far,
                  int width, int height) {
  const Vec3 view = target - eye;
  if (!(view.norm() > 0)) throw std::invalid_argument("eye and target coincide");
  Camera c;
  c.eye = eye;
  c.forward = view.normalized();
  const Vec3 side = c.forward.cross(up);
  // Parallel within ~0.06 degrees counts as parallel: the roll would be numerically meaningless.
  if (!(side.norm() > 1e-3 * up.norm())) throw std::invalid_argument("up is parallel to the view direction");
  c.right = side.normalized();
  c.up = c.right.cross(c.forward);
  c.fovYDeg = fovYDeg;
  c.near = near;
  c.far = far;
  c.width = width;
  c.height = height;
  return c;
}

}  // namespace adacloth
