#include "dynamics/handles.h"

#include <algorithm>
#include <cstdio>
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

// The frame of face f at node positions x, as the columns of a rotation: edge-0 direction, normal x edge 0, unit
// normal. A degenerate triangle has none; world axes stand in (the offset is then kept in world coordinates).
Mat3 faceFrame(const BindSurface& surface, const std::vector<Vec3>& x, int f) {
  const Tri& t = surface.faces[f];
  const Vec3 e0 = x[t[1]] - x[t[0]], n = e0.cross(x[t[2]] - x[t[0]]);
  if (!(n.squaredNorm() > 0) || !(e0.squaredNorm() > 0)) return Mat3::Identity();
  Mat3 frame;
  frame.col(0) = e0.normalized();
  frame.col(2) = n.normalized();
  frame.col(1) = frame.col(2).cross(frame.col(0));
  return frame;
}

Vec3 pointOnFace(const BindSurface& surface, const std::vector<Vec3>& x, const SurfacePoint& at) {
  const Tri& t = surface.faces[at.face];
  return at.bary[0] * x[t[0]] + at.bary[1] * x[t[1]] + at.bary[2] * x[t[2]];
}

const BindSurface& surfaceOf(const HandleSpec& spec, const BindSurfaces& surfaces, const std::string& file) {
  auto found = surfaces.find(spec.bindTo);
  if (found == surfaces.end() || !found->second)
    throw InputError(file + ": " + spec.place + "/bind_to: no obstacle named \"" + spec.bindTo + "\" to bind to");
  return *found->second;
}

std::vector<Vec3> positionsOf(const Mesh& mesh, const std::vector<int>& nodes) {
  std::vector<Vec3> x;
  for (int i : nodes) x.push_back(mesh.nodes[i].x);
  return x;
}

// Binds a handle's nodes at frame 0; a node farther than max_distance from the surface is an InputError.
void bindHandle(HandleState& h, const Mesh& mesh, const BindSurface& surface, const std::string& file) {
  if (surface.faces.empty())
    throw InputError(file + ": " + h.spec.place + "/bind_to: obstacle \"" + surface.name + "\" has no triangles");
  h.bindings = bindToSurface(surface, surface.positionsAt(0.0), positionsOf(mesh, h.nodes));
  for (size_t k = 0; k < h.nodes.size(); ++k) {
    const double d = h.bindings[k].offset.norm();
    if (d <= h.spec.maxDistance) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, "node %d is %.4g m from the surface of obstacle \"%s\" at frame 0, farther than "
                  "max_distance %.4g m", h.nodes[k], d, surface.name.c_str(), h.spec.maxDistance);
    throw InputError(file + ": " + h.spec.place + "/bind_to: " + buf + " (is the cloth placed on the obstacle?)");
  }
}

}  // namespace

std::vector<SurfaceBinding> bindToSurface(const BindSurface& surface, const std::vector<Vec3>& x,
                                          const std::vector<Vec3>& points) {
  std::vector<SurfacePoint> nearest = surface.nearest(x, points);
  std::vector<SurfaceBinding> bindings(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    bindings[k].at = nearest[k];
    bindings[k].offset =
        faceFrame(surface, x, nearest[k].face).transpose() * (points[k] - pointOnFace(surface, x, nearest[k]));
  }
  return bindings;
}

Vec3 boundPosition(const BindSurface& surface, const std::vector<Vec3>& x, const SurfaceBinding& binding) {
  return pointOnFace(surface, x, binding.at) + faceFrame(surface, x, binding.at.face) * binding.offset;
}

std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file, const BindSurfaces& surfaces) {
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
    for (int i : h.nodes) h.materialPoints.push_back(materialPointOf(mesh, i));
    if (spec.bindTo.empty()) {
      for (int i : h.nodes) h.anchors.push_back(mesh.nodes[i].x - handleOffset(spec, 0.0));
    } else {
      const BindSurface& surface = surfaceOf(spec, surfaces, file);
      h.surface = surfaces.at(spec.bindTo);
      bindHandle(h, mesh, surface, file);
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

std::vector<Vec3> handleTargets(const HandleState& handle, double t) {
  std::vector<Vec3> targets(handle.nodes.size());
  if (handle.surface) {
    const std::vector<Vec3> x = handle.surface->positionsAt(t);
    for (size_t k = 0; k < targets.size(); ++k) targets[k] = boundPosition(*handle.surface, x, handle.bindings[k]);
  } else {
    const Vec3 offset = handleOffset(handle.spec, t);
    for (size_t k = 0; k < targets.size(); ++k) targets[k] = handle.anchors[k] + offset;
  }
  return targets;
}

std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount) {
  std::vector<char> mask(nodeCount, 0);
  for (const HandleState& h : handles)
    for (int i : h.nodes)
      if (i >= 0 && size_t(i) < nodeCount) mask[i] = 1;
  return mask;
}

namespace {

// A node a handle held before a remesh that survives it: its new index and what held it (anchor or binding).
struct KeptNode {
  int node = -1;
  Vec3 anchor = Vec3::Zero();
  SurfaceBinding binding;
};

std::vector<KeptNode> keptNodes(const HandleState& h, const std::vector<int>& nodeMap) {
  std::vector<KeptNode> kept;
  for (size_t k = 0; k < h.nodes.size(); ++k) {
    int old = h.nodes[k];
    if (old < 0 || size_t(old) >= nodeMap.size() || nodeMap[old] < 0) continue;
    KeptNode n;
    n.node = nodeMap[old];
    if (h.surface) n.binding = h.bindings[k];
    else n.anchor = h.anchors[k];
    kept.push_back(n);
  }
  return kept;
}

// The nodes a handle holds on the new mesh: by index through the map, region and points from material coordinates.
std::vector<int> reselectNodes(const HandleState& h, const Mesh& mesh, const std::vector<KeptNode>& kept) {
  std::vector<int> nodes;
  if (h.spec.select == HandleSpec::Select::Nodes) {
    for (const KeptNode& n : kept) nodes.push_back(n.node);
  } else if (h.spec.select == HandleSpec::Select::Region) {
    nodes = nodesInRegion(h.spec, mesh);
  } else {
    for (const Vec2& u : h.materialPoints) nodes.push_back(nearestNodeInMaterial(mesh, u));
  }
  sortUnique(nodes);
  return nodes;
}

// Newly held nodes of a bound handle are bound where they are, to the surface as it is at `time`. Why not
// interpolate the bindings of the nodes they were split from: those may lie on different obstacle triangles (a
// coarse cloth over a fine body), where barycentric coordinates do not mix, and a new node's position is already the
// interpolation of its neighbours, which sit on their targets; binding it in place gives it a target equal to its
// position, so it does not jump (no velocity spike). Surviving nodes keep their binding exactly and never drift.
void bindNewNodes(HandleState& next, const Mesh& mesh, const std::vector<size_t>& fresh, double time) {
  if (fresh.empty()) return;
  std::vector<Vec3> points;
  for (size_t k : fresh) points.push_back(mesh.nodes[next.nodes[k]].x);
  std::vector<SurfaceBinding> b = bindToSurface(*next.surface, next.surface->positionsAt(time), points);
  for (size_t m = 0; m < fresh.size(); ++m) next.bindings[fresh[m]] = b[m];
}

}  // namespace

void remapHandles(std::vector<HandleState>& handles, const Mesh& mesh, const std::vector<int>& nodeMap, double time) {
  for (HandleState& h : handles) {
    const std::vector<KeptNode> kept = keptNodes(h, nodeMap);
    HandleState next;
    next.spec = h.spec;
    next.surface = h.surface;
    next.nodes = reselectNodes(h, mesh, kept);
    std::vector<size_t> fresh;  // positions in next.nodes of bound nodes that need a new binding
    for (size_t k = 0; k < next.nodes.size(); ++k) {
      const int i = next.nodes[k];
      auto it = std::find_if(kept.begin(), kept.end(), [i](const KeptNode& n) { return n.node == i; });
      if (next.surface) {
        next.bindings.push_back(it != kept.end() ? it->binding : SurfaceBinding());
        if (it == kept.end()) fresh.push_back(k);
      } else {
        next.anchors.push_back(it != kept.end() ? it->anchor : Vec3(mesh.nodes[i].x - handleOffset(h.spec, time)));
      }
      next.materialPoints.push_back(materialPointOf(mesh, i));
    }
    bindNewNodes(next, mesh, fresh, time);
    if (h.spec.select == HandleSpec::Select::Points) next.materialPoints = h.materialPoints;
    h = std::move(next);
  }
}

}  // namespace adacloth
