#pragma once
// The sizing field of a cloth (docs/design.md §2), computed in separate steps so that view-dependent refinement
// (docs/design.md §4) can slot in between them:
//   rawFaceSizing -> [view scaling F^2, screen-space clamp] -> clampFaceSizing -> vertexSizing -> remesh.
#include <vector>

#include "mesh/mesh.h"
#include "sizing/params.h"
#include "sizing/proximity.h"

namespace adacloth {

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
