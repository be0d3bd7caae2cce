#pragma once
// A stats.jsonl line of the whole shot from the lines its cloth groups wrote for the same frame (`adacloth merge`).
#include <string>
#include <vector>

#include "config/schema.h"

namespace adacloth {

// `frame` and `time` (the same in every line; InputError otherwise), `wall_ms` with each key summed over the groups
// (the CPU time the frame cost on all machines, not a wall time), `cloths` in `clothOrder` (the shot's), and
// `collision` with each counter summed, but `impact_zones` (the most in one step) and `steps` (the same in every
// group) taken as the largest.
config::Json mergeStatsLines(const std::vector<const config::Json*>& lines, const std::vector<std::string>& clothOrder);

}  // namespace adacloth
