#pragma once
// Edge split (docs/design.md §3): a new node at the material-space midpoint of an edge, its world position and velocity
// interpolated there (the midpoint of the ends, since the map from material to world is linear on each face).
#include "remesh/remesh_state.h"

namespace adacloth {

// Splits `edge` (both of its faces must be unlocked in the current batch; they get locked). A seam edge gets one new
// node with one new vert per side, so the seam stays a seam. Returns the new node.
int splitEdge(RemeshState& state, int edge);

// One batch: splits every edge with s^2 > 1, largest first, skipping edges whose faces an earlier split of the batch
// touched. Ends the batch (finishBatch) when anything was split. Returns the number of splits.
int splitPass(RemeshState& state);

}  // namespace adacloth
