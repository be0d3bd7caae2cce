#pragma once
// Handles that drive held cloth into an obstacle. Contact moves no held node (handles have infinite mass,
// docs/collisions.md), so cloth whose handle's keys carry it into an obstacle stays there, and the free cloth around
// it is crushed between the held nodes and the obstacle's surface: edges stretched tens of times, thousands of pairs
// the contact passes cannot resolve. The run then only says that pairs were left unresolved; this names the handle.
#include <string>
#include <vector>

#include "app/scene.h"
#include "collision/obstacle_field.h"

namespace adacloth {

// A handle (not bound to an obstacle) some of whose held nodes lie deeper inside an obstacle than the contact
// thickness.
struct HeldInside {
  size_t cloth = 0, handle = 0;  // indices in the scene's cloths and in the cloth's handles
  int nodes = 0;                 // held nodes that deep
  double depth = 0;              // m, the deepest of them
  std::string obstacle;          // name of the obstacle the deepest one is in
};

// Every such handle of `cloths` against the obstacles of `field` (their pose at the cloths' time).
std::vector<HeldInside> heldNodesInside(const std::vector<Cloth>& cloths, const ObstacleField& field,
                                        double thickness);

// The warning for one, at `frame` (one line, without "warning: ").
std::string heldInsideWarning(const HeldInside& found, const std::vector<Cloth>& cloths, int frame);

}  // namespace adacloth
