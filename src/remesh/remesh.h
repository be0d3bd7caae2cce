#pragma once
// Adaptive anisotropic remeshing in material space (Narain et al. 2012; docs/design.md §3): split edges that are too
// long for the sizing field, flip to the anisotropic Delaunay triangulation, collapse edges whose removal leaves every
// new edge valid. Runs once per frame, after the physics steps.
#include <array>
#include <functional>
#include <vector>

#include "mesh/mesh.h"

namespace adacloth {

struct RemeshParams {
  double aspectMin = 0.2;          // new faces of a collapse must keep at least this aspect ratio in the metric
  double collapseMaxSizeSq = 0.81; // hysteresis: edges created by a collapse must have s^2 <= this (s <= 0.9)
  // A collapse or a flip may not leave a face stretched (its larger principal stretch, world over material) past this
  // and past what the faces it replaces were, unless one of those is thinner in material space than aspectMin: a
  // corner moved across a fold, or a diagonal turned across one, shears the new faces, and the next step's strain
  // limiter yanks them back; a thin face is worse to keep, since the contacts shear it further. <= 0: no limit.
  double maxChangedStretch = 1.3;
  double flipThreshold = 0.01;     // tau of the anisotropic Delaunay test (flip only clearly non-Delaunay edges)
  double flipMaxDihedral = 0.75;   // rad: never flip an edge whose faces meet at a larger world angle (a crease)
  int maxPasses = 64;              // bound on split and collapse batches (each batch is an independent set)
  int maxFlipPasses = 8;           // bound on flip batches after each split or collapse batch
};

// Asked before each flip and collapse, so that the caller can keep the surface free of intersections (the simulator
// uses collision/sweep_guard.h). A flip or a collapse keeps every node where it is but changes the surface between
// them; `allow` gets the tetrahedra that change sweeps and the faces it makes (world positions: a flip of edge ab
// with opposite nodes c, d sweeps abcd and makes cda, cdb; a collapse of u into v sweeps u v w w' and makes v w w' for
// every triangle u w w' of u's fan that survives) and refuses by returning false. `beginBatch` comes first in every
// batch with the mesh as it then is, the count of batches finished so far (the mesh changed when that count did) and
// the face map of the last one finished (its faces when it began -> their index now, -1 when removed; faces outside
// its image are new; empty before the first). A split keeps the surface exactly (the new node is the edge's
// midpoint), so it is never asked about.
struct SweepCheck {
  std::function<void(const Mesh& mesh, int batchesFinished, const std::vector<int>& faceMap)> beginBatch;
  std::function<bool(const std::vector<std::array<Vec3, 4>>& sweep, const std::vector<std::array<Vec3, 3>>& made)>
      allow;
};

struct RemeshResult {
  std::vector<int> nodeMap;  // old node index -> new index, -1 when the node was removed (never for protected nodes)
  int splits = 0, flips = 0, collapses = 0;
  int batches = 0;           // independent-set batches applied (each ends with one adjacency rebuild)
  int refused = 0;           // flips and collapses the SweepCheck refused
};

// Remeshes `mesh` to the per-vert sizing tensors `vertexSizing` (1/m^2, one per vert, see sizing/sizing_field.h).
// `protectedNodes` (one per node, may be empty) marks nodes that must survive (handles); they are also never moved.
// On return the mesh is compact, adjacency and geometry are rebuilt, and validate() is clean if it was before.
// Node masses are NOT recomputed (the caller knows the density): call computeMasses.
// New nodes get the world position and velocity interpolated at their material position.
// `sweepCheck` (null: none) is asked before every flip and collapse.
RemeshResult remesh(Mesh& mesh, const std::vector<Mat2>& vertexSizing, const RemeshParams& params,
                    const std::vector<char>& protectedNodes, const SweepCheck* sweepCheck = nullptr);

}  // namespace adacloth
