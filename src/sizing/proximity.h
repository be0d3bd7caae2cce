#pragma once
// What the sizing field needs to know about obstacles: for a world point, the signed distance (m) to the nearest
// obstacle and the distance's gradient (unit vector pointing away from the obstacle), when an obstacle is near enough
// to matter. The collision subsystem implements this; until then NoObstacles answers "nothing near" everywhere.
#include <optional>

#include "mesh/types.h"

namespace adacloth {

struct ProximitySample {
  double distance = 0.0;         // signed distance to the nearest obstacle surface (m), negative inside
  Vec3 gradient = Vec3::UnitZ();  // unit gradient of the distance (the obstacle's outward normal there)
  Vec3 velocity = Vec3::Zero();   // the surface's velocity at the nearest point (m/s), where the query knows it
};

class ProximityQuery {
 public:
  virtual ~ProximityQuery() = default;
  // The nearest obstacle's distance at world point x, or nothing when no obstacle lies within the range that the
  // implementation considers "near" (about ten cloth thicknesses, docs/design.md §2).
  virtual std::optional<ProximitySample> query(const Vec3& x) const = 0;
};

class NoObstacles : public ProximityQuery {
 public:
  std::optional<ProximitySample> query(const Vec3&) const override { return std::nullopt; }
};

}  // namespace adacloth
