#pragma once
// Edge split (docs/design.md §3): a new node at the material-space midpoint of an edge, its world position and velocity
// interpolated there (the midpoint of the ends, since the map from material to world is linear on each face).
#include "remesh/remesh_state.h"

namespace adacloth {

// Splits `edge` (both of its faces must be unlocked in the current batch; they get locked). A seam edge gets one new
// node with one new vert per side, so the seam stays a seam. Returns the new node.
int splitEdge(RemeshState& state, int edge);

// The edge to split so that `edge` (too long for the sizing) gets shorter without a sliver: `edge` itself, unless
// splitting it would make a face thinner in the metric than params.aspectMin and splitting the longest edge (in the
// metric) of one of its faces would make thicker ones; then that longest edge (Rivara's longest-edge bisection,
// asked for only where it matters). `edge` stays too long for the next batch. Without it, a face whose long edge was
// valid had its short invalid edge split batch after batch (the sizing grows fast along it), its quality halving
// each time: on skirt_walk all in silk, a face 1 mm thick and 10 cm long, which the contacts then sheared 9x.
int edgeToSplit(const RemeshState& state, int edge, const RemeshParams& params);

// One batch: splits every edge with s^2 > 1 (or the edge edgeToSplit gives for it), largest first, skipping edges
// whose faces an earlier split of the batch touched. Ends the batch (finishBatch) when anything was split. Returns
// the number of splits.
int splitPass(RemeshState& state, const RemeshParams& params);

}  // namespace adacloth
