#pragma once
// Signed distance to the obstacles at one instant, from face trees of their meshes (and the ground planes
// analytically). Used for the sizing field's obstacle term (ObstacleProximity, a ProximityQuery) and to measure how
// deep cloth nodes are inside obstacles. The sign of a mesh's distance comes from the angle-weighted pseudo-normal
// of the nearest feature (face, edge or corner), which is exact for closed, consistently oriented meshes.
#include <optional>
#include <vector>

#include "collision/bvh.h"
#include "collision/obstacle.h"
#include "sizing/proximity.h"

namespace adacloth {

class ObstacleField {
 public:
  explicit ObstacleField(const std::vector<ObstaclePose>& poses);
  // The nearest obstacle surface point to x within maxDistance (m): signed distance (negative inside) and the
  // distance's gradient (the outward normal). Nothing when no obstacle is that close (a node deeper inside than
  // maxDistance is not found either: pass a large maxDistance to measure penetration).
  std::optional<ProximitySample> nearest(const Vec3& x, double maxDistance) const;
  bool empty() const { return meshes_.empty() && planes_.empty(); }

 private:
  struct MeshData {
    std::vector<Vec3> x;
    std::vector<Tri> faces;
    std::vector<Vec3> faceNormal, vertexNormal;  // vertex: angle-weighted (unnormalized)
    std::vector<std::array<int, 2>> edges;       // sorted
    std::vector<Vec3> edgeNormal;                // sum of the adjacent face normals
    Bvh tree;
  };
  std::vector<MeshData> meshes_;
  std::vector<std::pair<Vec3, Vec3>> planes_;  // point, unit normal
};

// The sizing field's view of the obstacles: "near" means within `range` (m), about ten cloth thicknesses
// (docs/design.md §2).
class ObstacleProximity : public ProximityQuery {
 public:
  ObstacleProximity(const std::vector<ObstaclePose>& poses, double range) : field_(poses), range_(range) {}
  std::optional<ProximitySample> query(const Vec3& x) const override { return field_.nearest(x, range_); }

 private:
  ObstacleField field_;
  double range_;
};

}  // namespace adacloth
