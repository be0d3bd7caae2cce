#pragma once
// Splitting a shot into cloth groups that can be simulated on different machines and give the same frames as the
// whole shot (docs/farm.md, "Grouping"). Cloths act on each other only through contact (obstacles are kinematic), so
// two cloths go to one group when their reach boxes (app/cloth_reach.h) come within the interaction distance at any
// step of the shot; a group also takes the obstacles its cloths are bound to, every ground plane and every obstacle
// whose box comes within that distance of one of its cloths.
#include <string>
#include <vector>

#include "app/cloth_reach.h"
#include "app/scene.h"
#include "config/shot.h"

namespace adacloth {

// Added to the physical interaction distance for what the samples and the reach model may miss (m).
constexpr double kSafetyMargin = 0.05;

// Distance (m) within which a cloth may feel another cloth or an obstacle: the sizing field's obstacle range,
// 10 x the collision thickness (docs/design.md §2; contact itself acts within one thickness), plus kSafetyMargin.
double interactionDistance(const CollisionParams& collision);

struct ClothGroup {
  std::vector<int> cloths;     // indices into shot.cloths, ascending
  std::vector<int> obstacles;  // indices into shot.obstacles, ascending
};

struct Grouping {
  std::vector<ClothGroup> groups;  // ordered by their first cloth; one group of everything when the shot is not split
  std::string notSplit;            // why the shot stays whole (empty when it is split or has one cloth)
  double interactionDistance = 0;  // m
  double closestGap = -1;          // smallest distance (m) between reach boxes of different groups; -1: one group
};

// Groups the cloths of `scene` (built from `shot` by buildScene, not yet stepped) over `frames` frames, sampling the
// held nodes' targets and the obstacles at every step. A shot with a cloth that no handle holds, or with occlusion in
// a cloth's `view` (the depth maps see every cloth), is not split. An obstacle no group needs goes to the first group,
// so that the groups' outputs together hold every obstacle.
Grouping groupCloths(const Shot& shot, const Scene& scene, int frames, ReachModel model);

}  // namespace adacloth
