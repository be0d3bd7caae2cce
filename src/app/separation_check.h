#pragma once
// The safety net of a split shot (`adacloth merge`, docs/farm.md): the plan predicted that its cloth groups never
// come within the interaction distance of each other; this checks it on the frames they wrote. At every frame, the
// box each cloth swept since the previous frame must stay farther than `distance` from every cloth of another group
// and from every obstacle its own group did not simulate (taken from the group that did).
#include <optional>
#include <string>
#include <vector>

#include "app/group_folder.h"

namespace adacloth {

// The first frame where the groups came too close, as a message naming the frame, the cloths or obstacle, and their
// groups; nothing when they stayed apart. `distance` in m.
std::optional<std::string> findCloseApproach(const std::vector<GroupFolder>& groups, double distance);

}  // namespace adacloth
