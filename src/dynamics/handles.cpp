#include "dynamics/handles.h"

#include <algorithm>
#include <limits>

#include "io/error.h"

namespace adacloth {
namespace {

bool inRegion(const HandleSpec& spec, const Vec2& u) {
  return (u.array() >= spec.regionMin.array()).all() && (u.array() <= spec.regionMax.array()).all();
}

// Nodes with at least one vert inside the handle's material rectangle, in index order.
std::vector<int> nodesInRegion(const HandleSpec& spec, const Mesh& mesh) {
  std::vector<int> nodes;
  for (size_t i = 0; i < mesh.nodes.size(); ++i)
    for (int v : mesh.nodes[i].verts)
      if (inRegion(spec, mesh.verts[v].u)) {
        nodes.push_back(int(i));
        break;
      }
  return nodes;
}

// Lowest index wins ties, so the choice does not depend on anything but the mesh.
int nearestNodeInWorld(const Mesh& mesh, const Vec3& p) {
  int best = -1;
  double bestD = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    double d = (mesh.nodes[i].x - p).squaredNorm();
    if (d < bestD) bestD = d, best = int(i);
  }
  return best;
}

int nearestNodeInMaterial(const Mesh& mesh, const Vec2& u) {
  int best = -1;
  double bestD = std::numeric_limits<double>::infinity();
  for (size_t v = 0; v < mesh.verts.size(); ++v) {
    double d = (mesh.verts[v].u - u).squaredNorm();
    if (d < bestD) bestD = d, best = mesh.verts[v].node;
  }
  return best;
}

Vec2 materialPointOf(const Mesh& mesh, int node) {
  return mesh.nodes[node].verts.empty() ? Vec2::Zero() : Vec2(mesh.verts[mesh.nodes[node].verts[0]].u);
}

void sortUnique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file) {
  std::vector<HandleState> handles;
  const int n = int(mesh.nodes.size());
  for (const HandleSpec& spec : specs) {
    HandleState h;
    h.spec = spec;
    if (spec.select == HandleSpec::Select::Nodes) {
      for (size_t k = 0; k < spec.nodes.size(); ++k)
        if (spec.nodes[k] >= n)
          throw InputError(file + ": " + spec.place + "/nodes/" + std::to_string(k) + ": node " +
                           std::to_string(spec.nodes[k]) + " does not exist (the mesh has " + std::to_string(n) +
                           " nodes)");
      h.nodes = spec.nodes;
    } else if (spec.select == HandleSpec::Select::Region) {
      h.nodes = nodesInRegion(spec, mesh);
      if (h.nodes.empty())
        throw InputError(file + ": " + spec.place + "/region: no node of the mesh lies in this rectangle");
    } else {
      for (const Vec3& p : spec.points) h.nodes.push_back(nearestNodeInWorld(mesh, p));
    }
    sortUnique(h.nodes);
    for (int i : h.nodes) {
      h.anchors.push_back(mesh.nodes[i].x - handleOffset(spec, 0.0));
      h.materialPoints.push_back(materialPointOf(mesh, i));
    }
    handles.push_back(std::move(h));
  }
  return handles;
}

Vec3 handleOffset(const HandleSpec& spec, double t) {
  const auto& keys = spec.motion;
  if (keys.empty()) return Vec3::Zero();
  if (t <= keys.front().time) return keys.front().translate;
  if (t >= keys.back().time) return keys.back().translate;
  size_t k = 1;
  while (keys[k].time < t) ++k;
  double s = (t - keys[k - 1].time) / (keys[k].time - keys[k - 1].time);
  return (1 - s) * keys[k - 1].translate + s * keys[k].translate;
}

Vec3 handleTarget(const HandleState& handle, size_t k, double t) {
  return handle.anchors[k] + handleOffset(handle.spec, t);
}

std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount) {
  std::vector<char> mask(nodeCount, 0);
  for (const HandleState& h : handles)
    for (int i : h.nodes)
      if (i >= 0 && size_t(i) < nodeCount) mask[i] = 1;
  return mask;
}

void remapHandles(std::vector<HandleState>& handles, const Mesh& mesh, const std::vector<int>& nodeMap, double time) {
  for (HandleState& h : handles) {
    // Old anchors, keyed by the new index of their node, so nodes that survive keep theirs exactly.
    std::vector<std::pair<int, Vec3>> kept;
    for (size_t k = 0; k < h.nodes.size(); ++k) {
      int old = h.nodes[k];
      if (old >= 0 && size_t(old) < nodeMap.size() && nodeMap[old] >= 0) kept.push_back({nodeMap[old], h.anchors[k]});
    }
    std::vector<int> nodes;
    if (h.spec.select == HandleSpec::Select::Nodes) {
      for (const auto& kv : kept) nodes.push_back(kv.first);
    } else if (h.spec.select == HandleSpec::Select::Region) {
      nodes = nodesInRegion(h.spec, mesh);
    } else {
      for (const Vec2& u : h.materialPoints) nodes.push_back(nearestNodeInMaterial(mesh, u));
    }
    sortUnique(nodes);
    HandleState next;
    next.spec = h.spec;
    next.nodes = nodes;
    for (int i : nodes) {
      auto it = std::find_if(kept.begin(), kept.end(), [i](const auto& kv) { return kv.first == i; });
      next.anchors.push_back(it != kept.end() ? it->second : Vec3(mesh.nodes[i].x - handleOffset(h.spec, time)));
      next.materialPoints.push_back(materialPointOf(mesh, i));
    }
    if (h.spec.select == HandleSpec::Select::Points) next.materialPoints = h.materialPoints;
    h = std::move(next);
  }
}

}  // namespace adacloth
