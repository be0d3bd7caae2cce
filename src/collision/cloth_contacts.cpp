#include "collision/cloth_contacts.h"

#include <cmath>

#include "collision/geometry.h"

namespace adacloth {

ClothEndSurfaces::ClothEndSurfaces(const std::vector<const Mesh*>& cloths, double h) : cloths_(cloths) {
  start_.resize(cloths.size());
  velocity_.resize(cloths.size());
  end_.resize(cloths.size());
  for (size_t c = 0; c < cloths.size(); ++c) {
    const Mesh& mesh = *cloths[c];
    for (const Node& node : mesh.nodes) {
      start_[c].push_back(node.x);
      velocity_[c].push_back(node.v);
      end_[c].push_back(node.x + h * node.v);
    }
    for (int f = 0; f < int(mesh.faces.size()); ++f) {
      Aabb box;
      for (int k = 0; k < 3; ++k) box.add(end_[c][mesh.nodeOf(f, k)]);
      faces_.push_back({int(c), f});
      boxes_.push_back(box);
    }
  }
  // One cloth alone has nothing to touch.
  if (cloths.size() > 1) tree_.build(boxes_);
}

std::vector<ObstacleContact> ClothEndSurfaces::contactsOf(int cloth, const ClothContactSettings& settings) const {
  std::vector<ObstacleContact> contacts;
  if (tree_.empty() || cloth < 0 || size_t(cloth) >= cloths_.size()) return contacts;
  const Mesh& mesh = *cloths_[cloth];
  const double thickness = settings.thickness;
  for (int i = 0; i < int(mesh.nodes.size()); ++i) {
    if (!(mesh.nodes[i].mass > 0)) continue;
    const Vec3& p = end_[cloth][i];
    Aabb box;
    box.add(p);
    ObstacleContact best;
    double bestDistance = thickness;
    tree_.query(
        box,
        [&](int k) {
          const FaceRef ref = faces_[k];
          if (ref.cloth == cloth) return;
          const Mesh& other = *cloths_[ref.cloth];
          const std::vector<Vec3>& otherEnd = end_[ref.cloth];
          const std::vector<Vec3>& otherStart = start_[ref.cloth];
          const std::vector<Vec3>& otherVelocity = velocity_[ref.cloth];
          const Tri nodes = other.faceNodes(ref.face);
          const Vec3 &a = otherEnd[nodes[0]], &b = otherEnd[nodes[1]], &c = otherEnd[nodes[2]];
          const TriangleClosest near = closestOnTriangle(p, a, b, c);
          if (near.distance >= thickness) return;
          // Which side of the face the node is on: where it was at the start of the step.
          const Vec3 &a0 = otherStart[nodes[0]], &b0 = otherStart[nodes[1]], &c0 = otherStart[nodes[2]];
          const Vec3 q0 = near.bary[0] * a0 + near.bary[1] * b0 + near.bary[2] * c0;
          const double side = (b0 - a0).cross(c0 - a0).dot(start_[cloth][i] - q0);
          Vec3 faceNormal = (b - a).cross(c - a);
          if (side == 0 || faceNormal.squaredNorm() == 0) return;
          faceNormal.normalize();
          if (side < 0) faceNormal = -faceNormal;
          // Signed distance: negative when the node ends through the face. Beside an edge or a corner of the face the
          // spring acts along the line to the nearest point, inside along the face's normal.
          const Vec3 offset = p - near.point;
          const bool through = faceNormal.dot(offset) < 0;
          const double distance = through ? -near.distance : near.distance;
          if (distance >= bestDistance) return;
          const Vec3 normal =
              (near.feature == TriFeature::Face || through || near.distance == 0) ? faceNormal : Vec3(offset / near.distance);
          bestDistance = distance;
          best.node = i;
          best.normal = normal;
          best.depth = settings.depthShare * (thickness - distance);
          best.surfaceVelocity = near.bary[0] * otherVelocity[nodes[0]] + near.bary[1] * otherVelocity[nodes[1]] +
                                 near.bary[2] * otherVelocity[nodes[2]];
          best.friction = settings.friction;
        },
        thickness);
    if (best.node >= 0) contacts.push_back(best);
  }
  return contacts;
}

}  // namespace adacloth
