#pragma once
// The warnings `simulate` gives, once at the start, for mesh obstacles that do not bound a solid the way contact
// takes them (collision/solid_check.h): open meshes, and closed ones whose faces point inwards.
#include <string>
#include <vector>

#include "collision/obstacle.h"

namespace adacloth {

// One line per such obstacle (without "warning: "), from its pose at time 0; grounds are half-spaces and skipped.
std::vector<std::string> obstacleSolidWarnings(const std::vector<Obstacle>& obstacles);

}  // namespace adacloth
