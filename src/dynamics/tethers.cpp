#include "dynamics/tethers.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>

#include "mesh/plane_geometry.h"

namespace adacloth {
namespace {

// The groups of held nodes connected by mesh edges: a group id per node (-1 where not held), and the count.
std::vector<int> heldGroups(const DynamicsState& state, const std::vector<char>& held, size_t nodeCount,
                            int& count) {
  std::vector<int> group(nodeCount, -1), queue;
  count = 0;
  for (size_t s = 0; s < nodeCount; ++s) {
    if (!held[s] || group[s] >= 0) continue;
    group[s] = count;
    queue.assign(1, int(s));
    for (size_t k = 0; k < queue.size(); ++k)
      for (int e = state.incidenceStart[size_t(queue[k])]; e < state.incidenceStart[size_t(queue[k]) + 1]; ++e) {
        const int j = state.incidenceOther[size_t(e)];
        if (held[size_t(j)] && group[size_t(j)] < 0 && state.pairs[size_t(state.incidencePair[size_t(e)])].isEdge)
          group[size_t(j)] = count, queue.push_back(j);
      }
    ++count;
  }
  return group;
}

// Shortest paths over the mesh edges (rest lengths, m) from every node of one held group: the distance and the
// nearest group node per node (infinity and -1 where unreachable). Ties go to the lower node index (determinism).
void pathsFromGroup(const DynamicsState& state, const std::vector<int>& group, int g, std::vector<double>& dist,
                    std::vector<int>& nearest) {
  const size_t n = group.size();
  dist.assign(n, std::numeric_limits<double>::infinity());
  nearest.assign(n, -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
  for (size_t i = 0; i < n; ++i)
    if (group[i] == g) dist[i] = 0, nearest[i] = int(i), open.push({0.0, int(i)});
  while (!open.empty()) {
    const auto [d, i] = open.top();
    open.pop();
    if (d > dist[size_t(i)]) continue;
    for (int e = state.incidenceStart[size_t(i)]; e < state.incidenceStart[size_t(i) + 1]; ++e) {
      const SpringPair& p = state.pairs[size_t(state.incidencePair[size_t(e)])];
      if (!p.isEdge) continue;
      const int j = state.incidenceOther[size_t(e)];
      const double through = d + p.restLength;
      if (through < dist[size_t(j)] || (through == dist[size_t(j)] && nearest[size_t(i)] < nearest[size_t(j)])) {
        dist[size_t(j)] = through;
        nearest[size_t(j)] = nearest[size_t(i)];
        open.push({through, j});
      }
    }
  }
}

int cornerOf(const Face& face, int vert) {
  for (int k = 0; k < 3; ++k)
    if (face.verts[k] == vert) return k;
  return -1;
}

// The face across the edge opposite corner `exitCorner` of face `f` and, in it, the corner opposite that edge;
// {-1, -1} at a boundary or a seam (the face across must share the edge's two verts, not just their nodes).
std::pair<int, int> crossEdge(const Mesh& mesh, int f, int exitCorner) {
  const Face& face = mesh.faces[size_t(f)];
  const Edge& edge = mesh.edges[size_t(face.edges[size_t((exitCorner + 1) % 3)])];
  const int across = edge.faces[0] == f ? edge.faces[1] : edge.faces[0];
  if (across < 0) return {-1, -1};
  const Face& next = mesh.faces[size_t(across)];
  const int a = cornerOf(next, face.verts[size_t((exitCorner + 1) % 3)]);
  const int b = cornerOf(next, face.verts[size_t((exitCorner + 2) % 3)]);
  if (a < 0 || b < 0) return {-1, -1};
  return {across, 3 - a - b};
}

// Whether the straight material-space segment from vert `from` to vert `to` runs inside their panel: a walk through
// the faces it crosses that reaches a face with `to` as a corner without leaving through a boundary or a seam. Where
// the segment runs through a vert, the walk goes on from that vert. Faces are counter-clockwise in material space.
bool segmentInside(const Mesh& mesh, int from, int to) {
  const Vec2 target = mesh.verts[size_t(to)].u;
  size_t steps = 0;
  const size_t maxSteps = 4 * mesh.faces.size() + 8;
  while (from != to) {
    const Vec2 p = mesh.verts[size_t(from)].u, d = target - p;
    // The face whose corner at `from` holds the direction; the segment leaves it through the opposite edge, or runs
    // along one of its edges to the next vert.
    int f = -1, corner = -1, next = -1;
    for (int g : mesh.verts[size_t(from)].faces) {
      const Face& face = mesh.faces[size_t(g)];
      const int c = cornerOf(face, from);
      const int v1 = face.verts[size_t((c + 1) % 3)], v2 = face.verts[size_t((c + 2) % 3)];
      const Vec2 e1 = mesh.verts[size_t(v1)].u - p, e2 = mesh.verts[size_t(v2)].u - p;
      const double c1 = cross2(e1, d), c2 = cross2(d, e2);
      if (c1 < 0 || c2 < 0) continue;
      if (v1 == to || v2 == to) return true;
      if (c1 == 0) next = v1;
      else if (c2 == 0) next = v2;
      else f = g, corner = c;
      break;
    }
    if (f < 0 && next < 0) return false;  // the direction leaves the panel at `from`
    if (f >= 0) std::tie(f, corner) = crossEdge(mesh, f, corner);
    while (next < 0) {
      if (f < 0 || ++steps > maxSteps) return false;
      // Entered through the edge opposite `corner` (its ends a, b in counter-clockwise order, a left of the
      // segment): the segment leaves through (b, w) when w is left of it, through (w, a) when right.
      const Face& face = mesh.faces[size_t(f)];
      const int w = face.verts[size_t(corner)];
      if (w == to) return true;
      const double side = cross2(d, mesh.verts[size_t(w)].u - p);
      if (side == 0) {
        next = w;
        break;
      }
      std::tie(f, corner) = crossEdge(mesh, f, side > 0 ? (corner + 1) % 3 : (corner + 2) % 3);
    }
    if (++steps > maxSteps) return false;
    from = next;
  }
  return true;
}

// The straight material-space distance (m) between two nodes when a segment between one of their verts runs inside
// a panel; infinity when none does.
double straightDistance(const Mesh& mesh, int node, int anchor) {
  double best = std::numeric_limits<double>::infinity();
  for (int a : mesh.nodes[size_t(node)].verts)
    for (int b : mesh.nodes[size_t(anchor)].verts) {
      const double d = (mesh.verts[size_t(a)].u - mesh.verts[size_t(b)].u).norm();
      if (d < best && segmentInside(mesh, a, b)) best = d;
    }
  return best;
}

}  // namespace

std::vector<Tether> tethers(const Mesh& mesh, const DynamicsState& state, const std::vector<char>& held,
                            double maxRatio, int maxAnchors) {
  const size_t n = mesh.nodes.size();
  int groups = 0;
  const std::vector<int> group = heldGroups(state, held, n, groups);
  if (groups == 0) return {};
  // Per node, the nearest node of each group and its path length.
  struct Reach {
    double distance;
    int anchor;
  };
  std::vector<std::vector<Reach>> reach(n);
  std::vector<double> dist;
  std::vector<int> nearest;
  for (int g = 0; g < groups; ++g) {
    pathsFromGroup(state, group, g, dist, nearest);
    for (size_t i = 0; i < n; ++i)
      if (!held[i] && nearest[i] >= 0) reach[i].push_back({dist[i], nearest[i]});
  }
  std::vector<Tether> out;
  for (size_t i = 0; i < n; ++i) {
    std::vector<Reach>& r = reach[i];
    std::stable_sort(r.begin(), r.end(), [](const Reach& p, const Reach& q) { return p.distance < q.distance; });
    if (int(r.size()) > maxAnchors) r.resize(size_t(maxAnchors));
    for (const Reach& k : r) {
      const double distance = std::min(k.distance, straightDistance(mesh, int(i), k.anchor));
      out.push_back({int(i), k.anchor, maxRatio * distance});
    }
  }
  return out;
}

bool tetherPass(Vec3* x, Vec3* v, const double* invMass, const std::vector<Tether>& tethers, double slack) {
  bool within = true;
  for (const Tether& t : tethers) {
    if (invMass[t.node] <= 0) continue;
    const Vec3 d = x[t.node] - x[t.anchor];
    const double len = d.norm();
    if (len <= t.maxDistance) continue;
    within = within && len <= (1 + slack) * t.maxDistance;
    const Vec3 n = d / len;
    x[t.node] -= (len - t.maxDistance) * n;
    const double away = n.dot(v[t.node] - v[t.anchor]);
    if (away > 0) v[t.node] -= away * n;
  }
  return within;
}

}  // namespace adacloth
