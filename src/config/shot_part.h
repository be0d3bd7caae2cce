#pragma once
// Part of a shot: some of its cloths with some of its obstacles, simulated on their own (`simulate --cloths`): one
// cloth group of a farm run (docs/farm.md). Cloths touch each other only through contact, so a group that never
// comes near the others' cloths and obstacles gives the same frames alone as in the whole shot.
#include <optional>
#include <string>
#include <vector>

#include "config/schema.h"
#include "config/shot.h"

namespace adacloth {

struct ShotPart {
  std::vector<std::string> cloths;                     // names, at least one
  std::optional<std::vector<std::string>> obstacles;   // names; unset: every obstacle of the shot
};

// Splits "a,b,c" into names; an empty name is an InputError naming `option`.
std::vector<std::string> splitNames(const std::string& list, const std::string& option);

// The shot restricted to `part`: its cloths and obstacles in shot order, and `resolved` filtered alike (every kept
// obstacle with its name written out), so OUT/shot.resolved.json is a shot that simulates the part alone. A name the
// shot does not have, a name given twice, or a cloth bound (`bind_to`) to an obstacle left out is an InputError of
// one line naming the option, the shot and what was expected.
Shot selectShotPart(const Shot& shot, const ShotPart& part);

// OUT/group.json of a part's run: {"cloths": [...], "obstacles": [...], "shot": the whole shot resolved}. `merge`
// checks that its group folders come from one shot and together hold each cloth once, and writes "shot" back as the
// merged OUT/shot.resolved.json.
config::Json groupRecord(const Shot& whole, const Shot& part);

}  // namespace adacloth
