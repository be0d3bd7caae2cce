#include "dynamics/handles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

#include "io/error.h"
#include "mesh/rigid_motion.h"

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
// normal; none (zero) for a degenerate triangle.
Mat3 faceFrame(const BindSurface& surface, const std::vector<Vec3>& x, int f) {
  const Tri& t = surface.faces[f];
  const Vec3 e0 = x[t[1]] - x[t[0]], n = e0.cross(x[t[2]] - x[t[0]]);
  if (!(n.squaredNorm() > 0) || !(e0.squaredNorm() > 0)) return Mat3::Zero();
  Mat3 frame;
  frame.col(0) = e0.normalized();
  frame.col(2) = n.normalized();
  frame.col(1) = frame.col(2).cross(frame.col(0));
  return frame;
}

// World axes stand in for a degenerate triangle's frame.
Mat3 frameOrAxes(const Mat3& frame) { return frame.isZero() ? Mat3(Mat3::Identity()) : frame; }

Vec3 pointOnFace(const BindSurface& surface, const std::vector<Vec3>& x, int f, const Vec3& bary) {
  const Tri& t = surface.faces[f];
  return bary[0] * x[t[0]] + bary[1] * x[t[1]] + bary[2] * x[t[2]];
}

// The weight of a triangle at distance d from a node whose captures reach to `radius`: 1 at the node, falling
// smoothly (zero value and slope) to 0 at the radius.
double captureWeight(double d, double radius) {
  const double s = d / radius;
  return s < 1 ? (1 - s * s) * (1 - s * s) : 0.0;
}

// The captures of a point: the triangles of `near` (within the radius) weighted by distance. Degenerate triangles
// (no frame) are left out. A point whose every weight vanishes (the radius is 0, or the nearest triangle sits on it)
// keeps the nearest triangle alone; a degenerate one then carries the offset in world axes.
std::vector<BindCapture> capturesOf(const BindSurface& surface, const std::vector<Vec3>& x, const Vec3& point,
                                    const SurfacePoint& nearest, const std::vector<SurfacePoint>& near,
                                    double radius) {
  std::vector<BindCapture> captures;
  double total = 0;
  for (const SurfacePoint& p : near) {
    const double w = radius > 0 ? captureWeight(p.distance, radius) : 0.0;
    if (w <= 0 || faceFrame(surface, x, p.face).isZero()) continue;
    captures.push_back({p.face, w, p.bary, Vec3::Zero()});
    total += w;
  }
  if (captures.empty()) captures.push_back({nearest.face, 1.0, nearest.bary, Vec3::Zero()}), total = 1.0;
  for (BindCapture& c : captures) {
    c.weight /= total;
    const Mat3 frame = frameOrAxes(faceFrame(surface, x, c.face));
    c.offset = frame.transpose() * (point - pointOnFace(surface, x, c.face, c.bary));
  }
  return captures;
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

// The rigid motion that carries the rest places with use[k] set closest to their surface targets. A band of held
// nodes in a line (one row along a collar) still turns with the surface: only a spin about the line is undetermined,
// and it does not move them.
RigidMotion fitRestToTargets(const std::vector<Vec3>& rest, const std::vector<Vec3>& targets,
                             const std::vector<char>& use) {
  std::vector<Vec3> from, to;
  for (size_t k = 0; k < rest.size(); ++k)
    if (use[k]) from.push_back(rest[k]), to.push_back(targets[k]);
  return from.empty() ? RigidMotion() : fitRigidMotion(from, to, true);
}

// Moves surface targets toward the rigid motion of the handle's rest shape that best fits them (handleTargets, every
// step: the fit takes the rest places and targets as they are, without a mask or copies).
void blendTowardRigid(std::vector<Vec3>& targets, const std::vector<Vec3>& rest, double rigidity) {
  const RigidMotion motion = fitRigidMotion(rest, targets, true);
  for (size_t k = 0; k < targets.size(); ++k) targets[k] += rigidity * (motion(rest[k]) - targets[k]);
}

// Binds a handle's nodes at the start time; a node farther than max_distance from the surface is an InputError.
void bindHandle(HandleState& h, const Mesh& mesh, const BindSurface& surface, const std::string& file,
                double startTime) {
  if (surface.faces.empty())
    throw InputError(file + ": " + h.spec.place + "/bind_to: obstacle \"" + surface.name + "\" has no triangles");
  h.bindings =
      bindToSurface(surface, surface.positionsAt(startTime), positionsOf(mesh, h.nodes), h.spec.bindSmoothing);
  for (size_t k = 0; k < h.nodes.size(); ++k) {
    const double d = h.bindings[k].at.distance;
    if (d <= h.spec.maxDistance) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, "node %d is %.4g m from the surface of obstacle \"%s\" at %s, farther than "
                  "max_distance %.4g m", h.nodes[k], d, surface.name.c_str(),
                  startTime < 0 ? "the start of the pre-roll" : "frame 0", h.spec.maxDistance);
    throw InputError(file + ": " + h.spec.place + "/bind_to: " + buf + " (is the cloth placed on the obstacle?)");
  }
}

}  // namespace

std::vector<SurfaceBinding> bindToSurface(const BindSurface& surface, const std::vector<Vec3>& x,
                                          const std::vector<Vec3>& points, double smoothingRadius) {
  const std::vector<SurfacePoint> nearest = surface.nearest(x, points);
  std::vector<double> radius(points.size());
  for (size_t k = 0; k < points.size(); ++k)
    radius[k] = smoothingRadius > 0 ? nearest[k].distance + smoothingRadius : 0.0;
  const std::vector<std::vector<SurfacePoint>> near =
      smoothingRadius > 0 ? surface.within(x, points, radius) : std::vector<std::vector<SurfacePoint>>(points.size());
  std::vector<SurfaceBinding> bindings(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    bindings[k].at = nearest[k];
    bindings[k].captures = capturesOf(surface, x, points[k], nearest[k], near[k], radius[k]);
  }
  return bindings;
}

std::vector<Vec3> boundPositions(const BindSurface& surface, const std::vector<Vec3>& x,
                                 const std::vector<SurfaceBinding>& bindings) {
  // Frames of the triangles some capture uses, each computed once.
  std::vector<char> used(surface.faces.size(), 0);
  for (const SurfaceBinding& b : bindings)
    for (const BindCapture& c : b.captures) used[c.face] = 1;
  std::vector<Mat3> frames(surface.faces.size());
  for (size_t f = 0; f < used.size(); ++f)
    if (used[f]) frames[f] = frameOrAxes(faceFrame(surface, x, int(f)));
  std::vector<Vec3> positions(bindings.size(), Vec3::Zero());
  for (size_t k = 0; k < bindings.size(); ++k)
    for (const BindCapture& c : bindings[k].captures)
      positions[k] += c.weight * (pointOnFace(surface, x, c.face, c.bary) + frames[c.face] * c.offset);
  return positions;
}

std::vector<HandleState> resolveHandles(const std::vector<HandleSpec>& specs, const Mesh& mesh,
                                        const std::string& file, const BindSurfaces& surfaces, double startTime) {
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
      for (int i : h.nodes) h.anchors.push_back(mesh.nodes[i].x - handleOffset(spec, startTime));
    } else {
      const BindSurface& surface = surfaceOf(spec, surfaces, file);
      h.surface = surfaces.at(spec.bindTo);
      bindHandle(h, mesh, surface, file, startTime);
      // The handle's frame is the world's at the start: the rest shape is where the surface puts the nodes then.
      if (spec.bindRigidity > 0) h.rigidRest = boundPositions(surface, surface.positionsAt(startTime), h.bindings);
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
    targets = boundPositions(*handle.surface, handle.surface->positionsAt(t), handle.bindings);
    if (!handle.rigidRest.empty()) blendTowardRigid(targets, handle.rigidRest, handle.spec.bindRigidity);
  } else {
    const Vec3 offset = handleOffset(handle.spec, t);
    for (size_t k = 0; k < targets.size(); ++k) targets[k] = handle.anchors[k] + offset;
  }
  return targets;
}

namespace {

// The nodes held by the handles `counts` accepts.
template <typename Counts>
std::vector<char> heldMask(const std::vector<HandleState>& handles, size_t nodeCount, Counts counts) {
  std::vector<char> mask(nodeCount, 0);
  for (const HandleState& h : handles)
    if (counts(h))
      for (int i : h.nodes)
        if (i >= 0 && size_t(i) < nodeCount) mask[i] = 1;
  return mask;
}

}  // namespace

std::vector<char> pinnedMask(const std::vector<HandleState>& handles, size_t nodeCount) {
  return heldMask(handles, nodeCount, [](const HandleState&) { return true; });
}

std::vector<char> boundMask(const std::vector<HandleState>& handles, size_t nodeCount) {
  return heldMask(handles, nodeCount, [](const HandleState& h) { return bool(h.surface); });
}

namespace {

// A node a handle held before a remesh that survives it: its new index and what held it (anchor or binding).
struct KeptNode {
  int node = -1;
  Vec3 anchor = Vec3::Zero();
  SurfaceBinding binding;
  Vec3 rigidRest = Vec3::Zero();  // with HandleState::rigidRest
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
    if (!h.rigidRest.empty()) n.rigidRest = h.rigidRest[k];
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

// Verts that share a face with vert v.
std::vector<int> vertsAround(const Mesh& mesh, int v) {
  std::vector<int> around;
  for (int f : mesh.verts[v].faces)
    for (int w : mesh.faces[f].verts)
      if (w != v) around.push_back(w);
  sortUnique(around);
  return around;
}

// Whether material point u lies on the open segment from a to a + d (up to rounding), and where (0 < t < 1).
std::optional<double> onSegment(const Vec2& u, const Vec2& a, const Vec2& d) {
  const double length2 = d.squaredNorm();
  if (!(length2 > 0)) return std::nullopt;
  const double t = (u - a).dot(d) / length2;
  if (t <= 0 || t >= 1 || (a + t * d - u).norm() > 1e-9 * std::sqrt(length2)) return std::nullopt;
  return t;
}

// From vert `from` through its neighbour `next`, on along the same material line through new nodes until a node
// with a binding: that vert, or -1 (the line bends or ends first).
int walkToBound(const Mesh& mesh, int from, int next, const std::vector<char>& bound) {
  for (int steps = 0; steps < int(mesh.verts.size()) && !bound[mesh.verts[next].node]; ++steps) {
    const Vec2 d = mesh.verts[next].u - mesh.verts[from].u;
    int ahead = -1;
    for (int w : vertsAround(mesh, next))
      if (onSegment(mesh.verts[next].u, mesh.verts[from].u, mesh.verts[w].u - mesh.verts[from].u) &&
          (ahead < 0 || (mesh.verts[w].u - mesh.verts[next].u).squaredNorm() <
                            (mesh.verts[ahead].u - mesh.verts[next].u).squaredNorm()))
        ahead = w;
    if (ahead < 0 || !(d.dot(mesh.verts[ahead].u - mesh.verts[next].u) > 0)) return -1;
    from = next, next = ahead;
  }
  return bound[mesh.verts[next].node] ? next : -1;
}

// The two held nodes with bindings that a new node lies between on a straight material line of edges (the edge it
// was split from, whose other new nodes a remesh may have split further), and where: u = (1 - t) u_a + t u_b. Every
// node a split adds on that line is the interpolation of the line's ends, so the new node's is too. The shortest
// such line; none when the node is not on one (e.g. a `points` handle's node that a remesh replaced).
struct SplitParents {
  int a = -1, b = -1;
  double t = 0;
};

std::optional<SplitParents> splitParents(const Mesh& mesh, int node, const std::vector<char>& bound) {
  std::optional<SplitParents> best;
  double bestLength = std::numeric_limits<double>::infinity();
  for (int v : mesh.nodes[node].verts) {
    const Vec2 u = mesh.verts[v].u;
    const std::vector<int> around = vertsAround(mesh, v);
    for (size_t i = 0; i < around.size(); ++i)
      for (size_t j = i + 1; j < around.size(); ++j) {
        const Vec2 ui = mesh.verts[around[i]].u, uj = mesh.verts[around[j]].u;
        if (!onSegment(u, ui, uj - ui)) continue;  // not on one line through v
        const int a = walkToBound(mesh, v, around[i], bound), b = walkToBound(mesh, v, around[j], bound);
        if (a < 0 || b < 0) continue;
        const Vec2 ua = mesh.verts[a].u, d = mesh.verts[b].u - ua;
        const std::optional<double> t = onSegment(u, ua, d);
        if (!t || d.norm() >= bestLength) continue;
        best = SplitParents{mesh.verts[a].node, mesh.verts[b].node, *t};
        bestLength = d.norm();
      }
  }
  return best;
}

// The binding whose target is (1 - t) x the target of `a` plus t x that of `b`: their captures with weights scaled,
// merged by triangle (exact: a triangle carries a capture linearly in its barycentric coordinates and offset).
SurfaceBinding interpolatedBinding(const SurfaceBinding& a, const SurfaceBinding& b, double t) {
  std::map<int, BindCapture> byFace;
  auto add = [&](const SurfaceBinding& from, double scale) {
    for (const BindCapture& c : from.captures) {
      BindCapture& m = byFace.try_emplace(c.face, BindCapture{c.face, 0.0, Vec3::Zero(), Vec3::Zero()}).first->second;
      m.weight += scale * c.weight;
      m.bary += scale * c.weight * c.bary;
      m.offset += scale * c.weight * c.offset;
    }
  };
  add(a, 1 - t);
  add(b, t);
  SurfaceBinding out;
  out.at = t < 0.5 ? a.at : b.at;
  for (auto& [face, c] : byFace) {
    if (!(c.weight > 0)) continue;
    c.bary /= c.weight;
    c.offset /= c.weight;
    out.captures.push_back(c);
  }
  return out;
}

// Newly held nodes of a bound handle. A node split from an edge between held nodes gets the interpolation of their
// bindings (and rest places), so its target is always the point between their targets: the held strip refines
// without changing shape. Binding it afresh to the surface as it is now (as other new nodes are, e.g. a `points`
// handle's node that a remesh replaced) follows a slightly different smoothed motion from its neighbours bound at
// frame 0, and on a gathered waistband (held nodes 3 mm apart) that was enough for held edges to cross (skirt_walk at
// 1 cm size, frame 68). Either way a new node's target is where it is now, so it does not jump: a node bound afresh
// gets the rest place that the handle's current rigid motion carries to its surface target. Surviving nodes keep
// their binding.
void bindNewNodes(HandleState& next, const Mesh& mesh, const std::vector<size_t>& fresh, double time) {
  if (fresh.empty()) return;
  const bool rigid = !next.rigidRest.empty();
  std::vector<char> bound(mesh.nodes.size(), 0);
  std::vector<int> slot(mesh.nodes.size(), -1);
  for (size_t k = 0; k < next.nodes.size(); ++k) bound[next.nodes[k]] = 1, slot[next.nodes[k]] = int(k);
  for (size_t k : fresh) bound[next.nodes[k]] = 0;
  // A node split from a node split in the same remesh waits for it: passes until none is left or none progresses.
  std::vector<size_t> left = fresh;
  for (bool progress = true; progress && !left.empty();) {
    progress = false;
    std::vector<size_t> still;
    for (size_t k : left) {
      const int i = next.nodes[k];
      if (auto p = splitParents(mesh, i, bound)) {
        const int a = slot[p->a], b = slot[p->b];
        next.bindings[k] = interpolatedBinding(next.bindings[a], next.bindings[b], p->t);
        if (rigid) next.rigidRest[k] = (1 - p->t) * next.rigidRest[a] + p->t * next.rigidRest[b];
        bound[i] = 1;
        progress = true;
      } else {
        still.push_back(k);
      }
    }
    left = std::move(still);
  }
  if (left.empty()) return;
  const std::vector<Vec3> surfaceNow = next.surface->positionsAt(time);
  std::vector<Vec3> points;
  for (size_t k : left) points.push_back(mesh.nodes[next.nodes[k]].x);
  std::vector<SurfaceBinding> b = bindToSurface(*next.surface, surfaceNow, points, next.spec.bindSmoothing);
  for (size_t m = 0; m < left.size(); ++m) next.bindings[left[m]] = b[m];
  if (!rigid) return;
  std::vector<char> known(next.nodes.size(), 1);
  for (size_t k : left) known[k] = 0;
  const std::vector<Vec3> targets = boundPositions(*next.surface, surfaceNow, next.bindings);
  const RigidMotion motion = fitRestToTargets(next.rigidRest, targets, known);
  // The inverse of x -> centre + shift + turn (x - centre).
  for (size_t k : left)
    next.rigidRest[k] = motion.centre + motion.turn.transpose() * (targets[k] - motion.centre - motion.shift);
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
        if (!h.rigidRest.empty()) next.rigidRest.push_back(it != kept.end() ? it->rigidRest : Vec3::Zero());
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
