#include "collision/cloth_contacts.h"

#include <cmath>

#include "collision/collision_mesh.h"
#include "collision/geometry.h"
#include "collision/material_distance.h"

namespace adacloth {
namespace {

// Per node, the material position (m) and chart of its vert in the lowest-numbered face holding it (as the contact
// pass takes a node's place in material space: collision_mesh.h, nodeOwner); chart -1 for a node in no face.
void nodeCharts(const Mesh& mesh, const std::vector<int>& faceChart, std::vector<int>& chart,
                std::vector<Vec2>& material) {
  chart.assign(mesh.nodes.size(), -1);
  material.assign(mesh.nodes.size(), Vec2::Zero());
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    for (int v : mesh.faces[f].verts) {
      const int node = mesh.verts[v].node;
      if (chart[node] >= 0) continue;
      chart[node] = faceChart[f];
      material[node] = mesh.verts[v].u;
    }
}

// Whether `offset` (m), from a face's nearest point on its boundary to a node, points out of the face's plane
// rather than along it: within about 37 degrees of the face's normal abc.
bool overFace(const Vec3& offset, const Vec3& a, const Vec3& b, const Vec3& c) {
  constexpr double kCosine = 0.8;
  const Vec3 normal = (b - a).cross(c - a);
  const double length = offset.norm() * normal.norm();
  return length > 0 && std::abs(normal.dot(offset)) >= kCosine * length;
}

}  // namespace

ClothEndSurfaces::ClothEndSurfaces(const std::vector<const Mesh*>& cloths, double h, bool ownLayers)
    : ClothEndSurfaces(cloths, h, ownLayers, ownTree_) {}

ClothEndSurfaces::ClothEndSurfaces(const std::vector<const Mesh*>& cloths, double h, bool ownLayers,
                                   WideBvh& keptTree)
    : cloths_(cloths), ownLayers_(ownLayers), tree_(&keptTree) {
  const size_t count = cloths.size();
  start_.resize(count), velocity_.resize(count), end_.resize(count);
  faceChart_.resize(count), nodeChart_.resize(count), nodeMaterial_.resize(count);
  std::vector<Aabb> boxes;
  for (size_t c = 0; c < count; ++c) {
    const Mesh& mesh = *cloths[c];
    for (const Node& node : mesh.nodes) {
      start_[c].push_back(node.x);
      velocity_[c].push_back(node.v);
      end_[c].push_back(node.x + h * node.v);
    }
    for (int f = 0; f < int(mesh.faces.size()); ++f) {
      Aabb box;
      for (int k = 0; k < 3; ++k) box.add(end_[c][mesh.nodeOf(f, k)]);
      faces_.push_back({int(c), f, mesh.faceNodes(f)});
      boxes.push_back(box);
    }
    if (ownLayers) {
      faceChart_[c] = faceCharts(mesh);
      nodeCharts(mesh, faceChart_[c], nodeChart_[c], nodeMaterial_[c]);
    }
  }
  // One cloth alone has nothing to touch unless its own layers count.
  if (!boxes.empty() && (count > 1 || ownLayers)) {
    keptTree.update(boxes.data(), boxes.size());
    searched_ = true;
  }
}

bool ClothEndSurfaces::isLayerOf(int cloth, int node, int face, double thickness) const {
  const int chart = nodeChart_[cloth][node];
  if (chart < 0 || chart != faceChart_[cloth][face]) return true;  // across a seam: material space says nothing
  const Mesh& mesh = *cloths_[cloth];
  std::array<Vec2, 3> corners;
  for (int k = 0; k < 3; ++k) corners[k] = mesh.verts[mesh.faces[face].verts[k]].u;
  return kFoldChord * materialDistance(nodeMaterial_[cloth][node], corners) >= thickness;
}

std::vector<ObstacleContact> ClothEndSurfaces::contactsOf(int cloth, const ClothContactSettings& settings) const {
  std::vector<ObstacleContact> contacts;
  if (!searched_ || cloth < 0 || size_t(cloth) >= cloths_.size()) return contacts;
  const Mesh& mesh = *cloths_[cloth];
  const double thickness = settings.thickness;
  for (int i = 0; i < int(mesh.nodes.size()); ++i) {
    if (!(mesh.nodes[i].mass > 0)) continue;
    const Vec3& p = end_[cloth][i];
    // Faces within the thickness of p have their boxes within it too (the tree's own test only ever adds faces).
    Aabb box;
    box.add(p);
    box.inflate(thickness);
    ObstacleContact best;
    double bestDistance = thickness;
    int bestFace = -1;  // index into faces_
    tree_->query(
        box,
        [&](int k) {
          const FaceRef& ref = faces_[k];
          const Tri& nodes = ref.nodes;
          const bool own = ref.cloth == cloth;
          if (own && (!ownLayers_ || nodes[0] == i || nodes[1] == i || nodes[2] == i)) return;
          const std::vector<Vec3>& otherEnd = end_[ref.cloth];
          const std::vector<Vec3>& otherStart = start_[ref.cloth];
          const std::vector<Vec3>& otherVelocity = velocity_[ref.cloth];
          const Vec3 &a = otherEnd[nodes[0]], &b = otherEnd[nodes[1]], &c = otherEnd[nodes[2]];
          const TriangleClosest near = closestOnTriangle(p, a, b, c);
          if (near.distance >= thickness) return;
          // A layer of its own cloth lies over or under the node. Beside a face, which side of it the node started
          // on says little (the node may be on the next face of a crease), and springs there pushed the folds of a
          // fine skirt into each other (its faces 5x, its elastic energy 10-70x). Over an edge or a corner counts.
          if (own && near.feature != TriFeature::Face && !overFace(p - near.point, a, b, c)) return;
          // Material space last: it is needed only for the few faces within the thickness.
          if (own && !isLayerOf(cloth, i, ref.face, thickness)) return;
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
          // The tree's order of visits must not decide between two faces as near (a node over their shared edge).
          if (!(distance < bestDistance || (bestFace >= 0 && distance == bestDistance && k < bestFace))) return;
          const bool alongNormal = near.feature == TriFeature::Face || through || near.distance == 0;
          bestDistance = distance;
          bestFace = k;
          best.node = i;
          best.normal = alongNormal ? faceNormal : Vec3(offset / near.distance);
          best.depth = settings.depthShare * (thickness - distance);
          best.surfaceVelocity = near.bary[0] * otherVelocity[nodes[0]] + near.bary[1] * otherVelocity[nodes[1]] +
                                 near.bary[2] * otherVelocity[nodes[2]];
          best.friction = settings.friction;
          best.withCloth = true;
        },
        0.0);
    if (best.node >= 0) contacts.push_back(best);
  }
  return contacts;
}

}  // namespace adacloth
