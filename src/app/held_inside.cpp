#include "app/held_inside.h"

#include <cstdio>

namespace adacloth {

std::vector<HeldInside> heldNodesInside(const std::vector<Cloth>& cloths, const ObstacleField& field,
                                        double thickness) {
  // Deeper than this is not looked for (the field answers within a distance of the surface); a held node that deep
  // is found on its way in.
  constexpr double kSearch = 1.0;  // m
  std::vector<HeldInside> found;
  for (size_t c = 0; c < cloths.size(); ++c) {
    const std::vector<HandleState>& handles = cloths[c].dynamics.handles;
    for (size_t h = 0; h < handles.size(); ++h) {
      if (!handles[h].spec.bindTo.empty()) continue;  // bound nodes ride their obstacle (their clearance is the user's)
      HeldInside inside{c, h, 0, 0.0, ""};
      for (int node : handles[h].nodes) {
        const Obstacle* obstacle = nullptr;
        const std::optional<ProximitySample> near = field.nearest(cloths[c].mesh.nodes[node].x, kSearch, &obstacle);
        if (!near || near->distance >= -thickness) continue;
        ++inside.nodes;
        if (-near->distance > inside.depth) inside.depth = -near->distance, inside.obstacle = obstacle->name();
      }
      if (inside.nodes > 0) found.push_back(inside);
    }
  }
  return found;
}

std::string heldInsideWarning(const HeldInside& found, const std::vector<Cloth>& cloths, int frame) {
  const Cloth& cloth = cloths[found.cloth];
  char text[512];
  std::snprintf(text, sizeof text,
                "frame %d: cloth \"%s\": %d nodes held by the handle at %s lie inside obstacle \"%s\" (up to %.1f cm "
                "deep); contact does not move held nodes, so the cloth between them and the obstacle is crushed: keep "
                "the handle's keys clear of the obstacle, or bind the handle to it (`bind_to`)",
                frame, cloth.spec.name.c_str(), found.nodes, cloth.dynamics.handles[found.handle].spec.place.c_str(),
                found.obstacle.c_str(), 100 * found.depth);
  return text;
}

}  // namespace adacloth
