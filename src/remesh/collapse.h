#pragma once
// Edge collapse (docs/design.md §3): removes one end of an edge by merging it into the other, in material space.
#include "remesh/remesh.h"
#include "remesh/remesh_state.h"

namespace adacloth {

// Whether node `removed` of `edge` may be merged into the edge's other node. It may when: it is not protected; when it
// lies on a boundary or seam the edge runs along that boundary or seam and the panel outline stays the same (the
// material area of each of its fans is unchanged: the node is on a straight piece of outline); the two nodes share
// exactly the neighbours opposite the edge (the link condition: the mesh stays a manifold); and every face that
// changes keeps positive material area, a metric aspect ratio of at least params.aspectMin, new edges with
// s^2 <= params.collapseMaxSizeSq, the orientation of its world normal and, unless a face around `removed` is
// thinner in material space than params.aspectMin, a larger principal stretch within params.maxChangedStretch or
// within the face's own before the collapse.
bool canCollapse(const RemeshState& state, int edge, int removed, const RemeshParams& params);

// The tetrahedra the collapse of `removed` into the other node of `edge` sweeps (see SweepCheck in remesh.h).
std::vector<std::array<Vec3, 4>> collapseSweep(const Mesh& mesh, int edge, int removed);

// Merges `removed` into the other node of `edge`: its faces use the other node's verts, the faces of the edge die.
void collapseEdge(RemeshState& state, int edge, int removed);

// One batch: tries the edges with s^2 <= params.collapseMaxSizeSq, shortest first, each end in turn, over disjoint
// neighbourhoods. Ends the batch when anything collapsed. Returns the number of collapses.
int collapsePass(RemeshState& state, const RemeshParams& params);

}  // namespace adacloth
