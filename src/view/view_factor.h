#pragma once
// The view factor F of a face (docs/design.md §4): how much the camera cares about it, 1 for faces in view, down to
// f_out for faces it cannot see. Face sizing is later scaled by F^2.
//
// This is only step 1 of docs/design.md §4 ("basic visibility"): F = 1 for a face whose centroid is inside the frustum
// and, when the cloth hides back faces, front-facing; f_back for a hidden back face in the frustum; f_out outside it.
// `adacloth render --color view` draws this basic factor with each cloth's own `view` settings.
//
// The simulation uses the full field instead (view_factor_field.h, docs/view-dependent.md), which differs in three
// ways: (1) a face counts as inside when any of its nodes is (not its centroid); (2) outside the frustum the factor
// falls linearly from 1 to f_out over the cloth's `margin` instead of jumping; (3) it is the weighted max over the
// cameras of the anticipation window, so cloth about to be seen (or just left) is already at 1. Where the basic factor
// is 1 the full one is 1 too (up to the centroid / node difference at the frustum border); where it is f_out the full
// one can be anything up to 1. The per-frame mean of the full factor is in stats.jsonl (`mean_view_factor`).
#include <vector>

#include "mesh/mesh.h"
#include "view/camera.h"
#include "view/params.h"

namespace adacloth {

// The defaults are those of a cloth's `view` (params.h).
struct ViewFactorOptions {
  double fOut = ViewParams{}.fOut;                // factor of faces out of the frustum, in (0, 1]
  bool backFacesHidden = ViewParams{}.backface;   // back faces are hidden (garments); off for flags and curtains
  double fBack = ViewParams{}.fBack;              // factor of hidden back faces in the frustum, in (0, 1]
  double backRamp = ViewParams{}.backRamp;        // cosine past the silhouette over which it falls to fBack
};

// Fb of a back face whose normal makes cosine `cosineToEye` (< 0) with the direction to the eye: 1 at the silhouette,
// falling linearly to fBack at -backRamp (fBack at once when backRamp is 0). Shared by the simulation's field and the
// basic factor.
double backFaceFactor(double cosineToEye, double fBack, double backRamp);

// Basic view factor of one face given its centroid (m) and unit outward normal.
double basicViewFactor(const Camera& camera, const Vec3& centroid, const Vec3& normal,
                       const ViewFactorOptions& options = {});

// Basic view factor of every face of a mesh (world positions and face normals must be up to date).
std::vector<double> basicViewFactors(const Mesh& mesh, const Camera& camera, const ViewFactorOptions& options = {});

}  // namespace adacloth
