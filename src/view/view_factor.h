#pragma once
// The view factor F of a face (NOTES §4): how much the camera cares about it, 1 for faces in view, down to f_out
// for faces it cannot see. Face sizing is later scaled by F^2.
//
// This is only step 1 of NOTES §4 ("basic visibility"): F = 1 for a face whose centroid is inside the frustum and
// that is front-facing, f_out otherwise. The view-dependent refinement issue replaces it with the full field
// (spatial smoothing with a margin, temporal anticipation, per-cloth back-face switch, occlusion); until then
// `adacloth render --color view` shows this basic factor.
#include <vector>

#include "mesh/mesh.h"
#include "view/camera.h"

namespace adacloth {

struct ViewFactorOptions {
  double fOut = 0.1;              // factor of faces out of view, in (0, 1]
  bool backFacesHidden = true;    // back-facing counts as out of view (garments); off for flags and curtains
};

// Basic view factor of one face given its centroid (m) and unit outward normal.
double basicViewFactor(const Camera& camera, const Vec3& centroid, const Vec3& normal,
                       const ViewFactorOptions& options = {});

// Basic view factor of every face of a mesh (world positions and face normals must be up to date).
std::vector<double> basicViewFactors(const Mesh& mesh, const Camera& camera, const ViewFactorOptions& options = {});

}  // namespace adacloth
