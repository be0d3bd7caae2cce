#pragma once
// Where a held cloth can be at a time, as a box around the targets of its held nodes, for splitting a shot into
// cloth groups that can be simulated apart (docs/farm.md, "Grouping"). Two models:
//  - conservative: the held targets' box inflated by stretch x D, D the largest material distance of any point of
//    the cloth from a held node (along its edges), stretch the strain limit's max (kUnlimitedStretch without one).
//    Sure, but it lets a 0.9 m cape swing 1 m sideways, so neighbouring characters never split.
//  - predicted (default): the held targets' box over the last kTrailTime seconds (cloth trails its hold: a cape
//    streams behind a walker), extended by how far the cloth reached beyond its held nodes at frame 0 and by
//    kSwingFraction x D in every direction. A prediction, not a bound: `merge` checks the actual frames.
#include <vector>

#include "app/scene.h"
#include "collision/bvh.h"

namespace adacloth {

// Stretch assumed for a cloth without a strain limit (conservative model): edges this much longer than at rest.
constexpr double kUnlimitedStretch = 2.0;
// Predicted model: how far past its rest extent a cloth may swing, as a fraction of D (crowd measured 0.23 D for
// the skirts' hems, 0.04 D sideways for the capes).
constexpr double kSwingFraction = 0.35;
// Predicted model: how long the cloth trails its held nodes' path (s); crowd's silk capes streamed 0.51 m behind
// walkers moving 0.65 m in this time.
constexpr double kTrailTime = 0.5;

enum class ReachModel { Predicted, Conservative };

// What the reach of one cloth needs from its initial state.
struct ClothReach {
  bool held = false;                 // false: no handle holds it, it may fall anywhere
  double maxDistance = 0;            // D (m): largest material distance of a node from a held node, plus the longest
                                     // material edge (points inside faces)
  double stretch = kUnlimitedStretch;  // the strain limit's max, or kUnlimitedStretch
  Vec3 restBelow = Vec3::Zero();     // m: how far the cloth's box at frame 0 reaches below its held box, per axis
  Vec3 restAbove = Vec3::Zero();     // m: the same above
};

// The reach data of a cloth as built by buildScene (before any step).
ClothReach clothReach(const Cloth& cloth);

// The box of the targets of every node the cloth's handles hold at time t (s); empty (lo > hi) without handles.
Aabb heldBox(const Cloth& cloth, double t);

// The cloth's reach box given the held box now and the union of the held boxes over the trail window (predicted) or
// the held box alone (conservative).
Aabb reachBox(const ClothReach& reach, const Aabb& held, const Aabb& trail, ReachModel model);

// Distance (m) between two boxes; 0 when they overlap.
double boxDistance(const Aabb& a, const Aabb& b);

}  // namespace adacloth
