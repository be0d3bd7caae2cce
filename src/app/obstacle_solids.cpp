#include "app/obstacle_solids.h"

#include "collision/solid_check.h"

namespace adacloth {

std::vector<std::string> obstacleSolidWarnings(const std::vector<Obstacle>& obstacles) {
  std::vector<std::string> warnings;
  for (const Obstacle& obstacle : obstacles) {
    if (obstacle.isGround()) continue;
    const SolidCheck check = checkSolid(obstacle.positionsAt(0), obstacle.faces());
    const std::string name = "obstacle \"" + obstacle.name() + "\": ";
    if (check.openEdges > 0)
      warnings.push_back(name + "its mesh is not closed (" + std::to_string(check.openEdges) +
                         " edges not shared by two faces); contact takes an obstacle for a solid, so cloth behind its "
                         "faces counts as inside it and is pushed to their front: close the mesh, or model a thin "
                         "plate as a thin box");
    else if (check.volume < 0)
      warnings.push_back(name + "its faces point inwards (the volume they bound is negative); contact takes the side "
                         "they face for the outside, so cloth outside it counts as inside: make the faces "
                         "counter-clockwise seen from outside");
  }
  return warnings;
}

}  // namespace adacloth
