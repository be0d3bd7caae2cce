#pragma once
// The sizing field of a cloth (NOTES §2), computed in separate steps so that view-dependent refinement (NOTES §4) can
// slot in between them:
//   rawFaceSizing -> [view scaling F^2, screen-space clamp] -> clampFaceSizing -> vertexSizing -> remesh.
#include <vector>

#include "mesh/mesh.h"
#include "sizing/proximity.h"

namespace adacloth {

// Thresholds of the sizing field; the per-cloth `remeshing` key of a shot (see docs/shot-format.md).
struct SizingParams {
  double refineAngle = 0.3;         // rad: largest normal change across an edge
  double refineCompression = 0.01;  // strain (per metre of reference length) tolerated across an edge
  double refineVelocity = 1.0;      // m/s: largest velocity change across an edge
  double sizeMin = 0.02;            // m: shortest edge the field may ask for
  double sizeMax = 0.2;             // m: longest edge the field allows
  double aspectMin = 0.2;           // smallest ratio of the shortest to the longest allowed edge at a point
};

// Raw per-face tensors (1/m^2): the tensor max of the curvature, velocity, compression and obstacle terms, before any
// clamp. Requires up-to-date geometry (updateGeometry). Parallel over faces, each writing its own slot.
std::vector<Mat2> rawFaceSizing(const Mesh& mesh, const SizingParams& params, const ProximityQuery& obstacles);

// Clamps every face tensor to the size limits and aspect ratio of `params`.
void clampFaceSizing(std::vector<Mat2>& faceSizing, const SizingParams& params);

// Per-vert tensors: the material-area-weighted average of the tensors of the vert's faces (requires adjacency).
std::vector<Mat2> vertexSizing(const Mesh& mesh, const std::vector<Mat2>& faceSizing);

// All steps in order, for callers without view-dependent refinement.
std::vector<Mat2> computeVertexSizing(const Mesh& mesh, const SizingParams& params, const ProximityQuery& obstacles);

}  // namespace adacloth
