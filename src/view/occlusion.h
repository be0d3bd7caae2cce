#pragma once
// Occlusion for view-dependent refinement (beyond the paper, docs/design.md §4 "occlusion"): a low-resolution depth
// pre-pass of everything that can hide cloth (obstacles and every cloth, the refined one included) from a camera, and
// the distance by which a point lies behind what the camera sees there.
//
// The depth map has kDepthMapHeight rows and the camera's aspect ratio. Each pixel keeps the nearest depth (m along the
// view direction) of the triangles covering its centre, interpolated perspective-correctly; triangles reaching in front
// of the near plane are skipped (they could only hide more, so skipping them errs on the side of "visible").
//
// occludedDistance(x) = depth(x) - bias - (farthest depth in the 3x3 pixels around x's pixel): > 0 when x is hidden
// behind a surface; the 3x3 max and the bias (kOcclusionBias + kOcclusionBiasPerMetre x depth) keep a surface from
// hiding itself or its own silhouette at this low resolution.
#include <vector>

#include "mesh/mesh.h"
#include "view/camera.h"

namespace adacloth {

constexpr int kDepthMapHeight = 128;        // pixels
constexpr double kOcclusionBias = 0.01;     // m
constexpr double kOcclusionBiasPerMetre = 0.01;  // m of bias per m of depth

// Triangles that can hide cloth, in world space (m).
struct Occluders {
  std::vector<Vec3> x;
  std::vector<Tri> triangles;
  void add(const std::vector<Vec3>& positions, const std::vector<Tri>& tris);
  void add(const Mesh& mesh);  // node positions, faces by node
};

struct DepthMap {
  Camera camera;          // the camera it was rendered for (its image size is the full one)
  int width = 0, height = 0;
  std::vector<double> depth;  // row-major, +infinity where nothing is seen

  // Signed distance (m) by which world point x lies behind the surface seen at its pixel (see above); -infinity when
  // x is outside the image, in front of the near plane, or nothing is drawn around its pixel.
  double occludedDistance(const Vec3& x) const;
};

DepthMap renderDepthMap(const Camera& camera, const Occluders& occluders);

}  // namespace adacloth
