#include "app/cloth_reach.h"

#include <functional>
#include <limits>
#include <queue>

namespace adacloth {
namespace {

// Material distance (m) of every node from the nearest held node, along the mesh's face edges (Dijkstra; a path
// along edges is never shorter than the distance inside the panels, so this bounds it from above). Nodes reached
// from no held node stay at infinity.
std::vector<double> distanceFromHeld(const Mesh& mesh, const std::vector<char>& held) {
  std::vector<std::vector<std::pair<int, double>>> links(mesh.nodes.size());
  for (const Face& f : mesh.faces)
    for (int c = 0; c < 3; ++c) {
      const Vert& a = mesh.verts[f.verts[c]];
      const Vert& b = mesh.verts[f.verts[(c + 1) % 3]];
      const double length = (a.u - b.u).norm();
      links[a.node].push_back({b.node, length});
      links[b.node].push_back({a.node, length});
    }
  std::vector<double> distance(mesh.nodes.size(), std::numeric_limits<double>::infinity());
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i]) distance[i] = 0, open.push({0.0, int(i)});
  while (!open.empty()) {
    const auto [d, node] = open.top();
    open.pop();
    if (d > distance[node]) continue;
    for (const auto& [next, length] : links[node])
      if (d + length < distance[next]) open.push({distance[next] = d + length, next});
  }
  return distance;
}

double longestMaterialEdge(const Mesh& mesh) {
  double longest = 0;
  for (const Face& f : mesh.faces)
    for (int c = 0; c < 3; ++c)
      longest = std::max(longest, (mesh.verts[f.verts[c]].u - mesh.verts[f.verts[(c + 1) % 3]].u).norm());
  return longest;
}

}  // namespace

ClothReach clothReach(const Cloth& cloth) {
  ClothReach reach;
  const std::vector<char> held = pinnedMask(cloth);
  for (char h : held) reach.held = reach.held || h;
  if (!reach.held) return reach;
  for (double d : distanceFromHeld(cloth.mesh, held)) reach.maxDistance = std::max(reach.maxDistance, d);
  reach.maxDistance += longestMaterialEdge(cloth.mesh);
  if (cloth.spec.strainLimit.enabled) reach.stretch = cloth.spec.strainLimit.max;
  Aabb rest;
  for (const Node& n : cloth.mesh.nodes) rest.add(n.x);
  const Aabb heldNow = heldBox(cloth, 0.0);
  reach.restBelow = (heldNow.lo - rest.lo).cwiseMax(0.0);
  reach.restAbove = (rest.hi - heldNow.hi).cwiseMax(0.0);
  return reach;
}

Aabb heldBox(const Cloth& cloth, double t) {
  Aabb box;
  for (const HandleState& handle : cloth.dynamics.handles)
    for (const Vec3& target : handleTargets(handle, t)) box.add(target);
  return box;
}

Aabb reachBox(const ClothReach& reach, const Aabb& held, const Aabb& trail, ReachModel model) {
  if (model == ReachModel::Conservative) {
    Aabb box = held;
    box.inflate(reach.stretch * reach.maxDistance);
    return box;
  }
  Aabb box = trail;
  box.add(held);
  box.lo -= reach.restBelow;
  box.hi += reach.restAbove;
  box.inflate(kSwingFraction * reach.maxDistance);
  return box;
}

double boxDistance(const Aabb& a, const Aabb& b) {
  return (a.lo - b.hi).cwiseMax(b.lo - a.hi).cwiseMax(0.0).norm();
}

}  // namespace adacloth
