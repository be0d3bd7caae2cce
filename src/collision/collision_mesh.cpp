#include "collision/collision_mesh.h"

#include <algorithm>

namespace adacloth {

std::vector<int> faceCharts(const Mesh& m, int first) {
  std::vector<int> parent(m.verts.size());
  for (size_t v = 0; v < parent.size(); ++v) parent[v] = int(v);
  auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const Face& f : m.faces)
    for (int k = 1; k < 3; ++k) {
      const int a = find(f.verts[0]), b = find(f.verts[k]);
      parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<int> chartOfRoot(m.verts.size(), -1), charts(m.faces.size());
  int next = first;
  for (size_t f = 0; f < m.faces.size(); ++f) {
    int& chart = chartOfRoot[find(m.faces[f].verts[0])];
    if (chart < 0) chart = next++;
    charts[f] = chart;
  }
  return charts;
}

namespace {

// A face's three edges (as indices into the sorted `edges`) by binary search: obstacles store edges, not face edges.
std::array<int, 3> obstacleFaceEdges(const Tri& f, const std::vector<std::array<int, 2>>& edges) {
  std::array<int, 3> fe;
  for (int k = 0; k < 3; ++k) {
    std::array<int, 2> key = {std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])};
    fe[k] = int(std::lower_bound(edges.begin(), edges.end(), key) - edges.begin());
  }
  return fe;
}

CollisionMesh::Body beginBody(const CollisionMesh& m, int cloth) {
  CollisionMesh::Body b;
  b.cloth = cloth;
  b.firstNode = int(m.nodeCloth.size());
  b.firstEdge = int(m.edges.size());
  b.firstFace = int(m.faces.size());
  return b;
}

void addCloth(CollisionMesh& w, const Mesh& m, int index) {
  CollisionMesh::Body b = beginBody(w, index);
  int firstChart = 0;
  for (int chart : w.faceChart) firstChart = std::max(firstChart, chart + 1);
  const std::vector<int> charts = faceCharts(m, firstChart);
  const int n0 = b.firstNode, e0 = b.firstEdge;
  w.nodeCloth.insert(w.nodeCloth.end(), m.nodes.size(), index);
  for (const Edge& e : m.edges) w.edges.push_back({n0 + e.nodes[0], n0 + e.nodes[1]});
  for (size_t f = 0; f < m.faces.size(); ++f) {
    Tri t = m.faceNodes(int(f));
    w.faces.push_back({n0 + t[0], n0 + t[1], n0 + t[2]});
    const auto& fe = m.faces[f].edges;
    w.faceEdges.push_back({e0 + fe[0], e0 + fe[1], e0 + fe[2]});
    w.faceChart.push_back(charts[f]);
    const Tri& v = m.faces[f].verts;
    w.faceMaterial.push_back({m.verts[v[0]].u, m.verts[v[1]].u, m.verts[v[2]].u});
  }
  b.nodeCount = int(m.nodes.size());
  b.edgeCount = int(m.edges.size());
  b.faceCount = int(m.faces.size());
  w.bodies.push_back(b);
}

void addObstacle(CollisionMesh& w, const ObstaclePose& a) {
  const Obstacle& o = *a.obstacle;
  CollisionMesh::Body body = beginBody(w, -1);
  const int n0 = body.firstNode, e0 = body.firstEdge;
  w.nodeCloth.insert(w.nodeCloth.end(), a.x.size(), -1);
  const auto& edges = o.edges();  // sorted: a face's edges are found by binary search
  for (const auto& e : edges) w.edges.push_back({n0 + e[0], n0 + e[1]});
  for (const Tri& f : o.faces()) {
    w.faces.push_back({n0 + f[0], n0 + f[1], n0 + f[2]});
    const std::array<int, 3> fe = obstacleFaceEdges(f, edges);
    w.faceEdges.push_back({e0 + fe[0], e0 + fe[1], e0 + fe[2]});
    w.faceChart.push_back(-1);
    w.faceMaterial.push_back({Vec2::Zero(), Vec2::Zero(), Vec2::Zero()});
  }
  body.nodeCount = int(a.x.size());
  body.edgeCount = int(edges.size());
  body.faceCount = int(o.faces().size());
  body.faceList = o.faceList();
  w.bodies.push_back(body);
}

// Obstacle body `from` of `previous` appended to `w`, renumbered: it has the faces and edges (in its own numbering)
// that addObstacle() would give it.
void copyObstacle(CollisionMesh& w, const CollisionMesh& previous, const CollisionMesh::Body& from) {
  CollisionMesh::Body body = beginBody(w, -1);
  const int nodeShift = body.firstNode - from.firstNode, edgeShift = body.firstEdge - from.firstEdge;
  w.nodeCloth.insert(w.nodeCloth.end(), from.nodeCount, -1);
  for (int e = from.firstEdge; e < from.firstEdge + from.edgeCount; ++e)
    w.edges.push_back({previous.edges[e][0] + nodeShift, previous.edges[e][1] + nodeShift});
  for (int f = from.firstFace; f < from.firstFace + from.faceCount; ++f) {
    const Tri& t = previous.faces[f];
    const std::array<int, 3>& fe = previous.faceEdges[f];
    w.faces.push_back({t[0] + nodeShift, t[1] + nodeShift, t[2] + nodeShift});
    w.faceEdges.push_back({fe[0] + edgeShift, fe[1] + edgeShift, fe[2] + edgeShift});
  }
  w.faceChart.insert(w.faceChart.end(), from.faceCount, -1);
  w.faceMaterial.insert(w.faceMaterial.end(), from.faceCount, {Vec2::Zero(), Vec2::Zero(), Vec2::Zero()});
  body.nodeCount = from.nodeCount;
  body.edgeCount = from.edgeCount;
  body.faceCount = from.faceCount;
  body.faceList = from.faceList;
  w.bodies.push_back(body);
}

// The owners of the nodes and edges of body b, and its faces' ownership bits (bodies share no node or edge, so the
// lowest face holding one is in its body).
void computeOwners(CollisionMesh& w, const CollisionMesh::Body& b) {
  for (int f = b.firstFace + b.faceCount - 1; f >= b.firstFace; --f) {
    for (int n : w.faces[f]) w.nodeOwner[n] = f;
    for (int e : w.faceEdges[f]) w.edgeOwner[e] = f;
  }
  for (int f = b.firstFace; f < b.firstFace + b.faceCount; ++f)
    for (int k = 0; k < 3; ++k) {
      if (w.nodeOwner[w.faces[f][k]] == f) w.owned[f] |= 1u << k;
      if (w.edgeOwner[w.faceEdges[f][k]] == f) w.owned[f] |= 8u << k;
    }
}

// As computeOwners(), copied from body `from` of `previous`, which has the same faces in its own numbering.
void copyOwners(CollisionMesh& w, const CollisionMesh::Body& b, const CollisionMesh& previous,
                const CollisionMesh::Body& from) {
  const int faceShift = b.firstFace - from.firstFace;
  auto shifted = [&](int owner) { return owner < 0 ? -1 : owner + faceShift; };
  for (int n = 0; n < b.nodeCount; ++n) w.nodeOwner[b.firstNode + n] = shifted(previous.nodeOwner[from.firstNode + n]);
  for (int e = 0; e < b.edgeCount; ++e) w.edgeOwner[b.firstEdge + e] = shifted(previous.edgeOwner[from.firstEdge + e]);
  std::copy_n(previous.owned.begin() + from.firstFace, b.faceCount, w.owned.begin() + b.firstFace);
}

bool clothMatches(const CollisionMesh& w, const CollisionMesh::Body& b, const Mesh& m, int index) {
  if (b.cloth != index || b.nodeCount != int(m.nodes.size()) || b.edgeCount != int(m.edges.size()) ||
      b.faceCount != int(m.faces.size()))
    return false;
  // Or-ed differences over the whole range rather than an early exit: a mismatch is the rare case.
  const int n0 = b.firstNode, e0 = b.firstEdge;
  int diff = 0;
  for (int e = 0; e < b.edgeCount; ++e)
    for (int k = 0; k < 2; ++k) diff |= w.edges[e0 + e][k] ^ (n0 + m.edges[e].nodes[k]);
  for (int f = 0; f < b.faceCount; ++f)
    for (int k = 0; k < 3; ++k) {
      diff |= w.faces[b.firstFace + f][k] ^ (n0 + m.nodeOf(f, k));
      diff |= w.faceEdges[b.firstFace + f][k] ^ (e0 + m.faces[f].edges[k]);
    }
  return diff == 0;
}

// An obstacle's face edges are a function of its faces and edges (obstacleFaceEdges), so equal faces and edges at
// the same offsets give equal face edges: they are not recomputed here, as their binary searches are most of the
// cost of building the mesh (a mannequin has tens of thousands of faces).
bool obstacleMatches(const CollisionMesh& w, const CollisionMesh::Body& b, const ObstaclePose& a) {
  const Obstacle& o = *a.obstacle;
  if (b.cloth != -1 || b.nodeCount != int(a.x.size()) || b.edgeCount != int(o.edges().size()) ||
      b.faceCount != int(o.faces().size()))
    return false;
  if (b.faceList && b.faceList == o.faceList()) return true;
  // As for cloths; these loops also vectorize.
  const int n0 = b.firstNode;
  int diff = 0;
  for (int e = 0; e < b.edgeCount; ++e)
    for (int k = 0; k < 2; ++k) diff |= w.edges[b.firstEdge + e][k] ^ (n0 + o.edges()[e][k]);
  for (int f = 0; f < b.faceCount; ++f)
    for (int k = 0; k < 3; ++k) diff |= w.faces[b.firstFace + f][k] ^ (n0 + o.faces()[f][k]);
  return diff == 0;
}

// The elements (edges or faces) holding each node, ascending (CSR), from the elements' nodes.
template <size_t K>
void nodeAdjacency(size_t nodeCount, const std::vector<std::array<int, K>>& elements, std::vector<int>& start,
                   std::vector<int>& list) {
  start.assign(nodeCount + 1, 0);
  for (const auto& e : elements)
    for (int n : e) ++start[n + 1];
  for (size_t n = 0; n < nodeCount; ++n) start[n + 1] += start[n];
  list.resize(start.back());
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < elements.size(); ++i)
    for (int n : elements[i]) list[fill[n]++] = int(i);
}

// CollisionMesh::neighbourPairs of every cloth body (bodies share no node, so faces sharing one are of one body):
// for each face, the later faces around its corners, each once.
std::vector<Candidate> neighbourPairs(const CollisionMesh& w) {
  std::vector<Candidate> out;
  std::vector<int> around;
  for (const CollisionMesh::Body& b : w.bodies) {
    if (b.cloth < 0) continue;
    for (int f = b.firstFace; f < b.firstFace + b.faceCount; ++f) {
      around.clear();
      for (int n : w.faces[f])
        for (int i = w.nodeFaceStart[n]; i < w.nodeFaceStart[n + 1]; ++i)
          if (w.nodeFaces[i] > f) around.push_back(w.nodeFaces[i]);
      std::sort(around.begin(), around.end());  // a face across an edge comes up at both of its corners
      around.erase(std::unique(around.begin(), around.end()), around.end());
      for (int g : around)
        forOwnedPairs(
            w, f, g, ownedCorners(w, f, g), true, [&](int node, int face, bool) { out.push_back({false, node, face}); },
            [&](int ea, int eb) { out.push_back({true, std::min(ea, eb), std::max(ea, eb)}); });
    }
  }
  return out;
}

}  // namespace

int CollisionMesh::bodyOfNode(int n) const {
  const auto after = std::upper_bound(bodies.begin(), bodies.end(), n,
                                      [](int node, const Body& b) { return node < b.firstNode; });
  return int(after - bodies.begin()) - 1;
}

int CollisionMesh::bodyOfFace(int f) const {
  const auto after = std::upper_bound(bodies.begin(), bodies.end(), f,
                                      [](int face, const Body& b) { return face < b.firstFace; });
  return int(after - bodies.begin()) - 1;
}

ClothCounts clothCounts(const CollisionMesh& w) {
  for (const CollisionMesh::Body& b : w.bodies)
    if (b.cloth < 0) return {b.firstNode, b.firstEdge, b.firstFace};
  return {int(w.nodeCount()), int(w.edges.size()), int(w.faces.size())};
}

CollisionMesh buildCollisionMesh(const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& obstacles,
                                 const CollisionMesh* previous) {
  CollisionMesh w;
  for (size_t c = 0; c < cloths.size(); ++c) addCloth(w, *cloths[c].mesh, int(c));
  // Obstacle bodies follow the cloths in both meshes, in the order of the obstacles that are not grounds.
  std::vector<const CollisionMesh::Body*> copiedFrom(w.bodies.size(), nullptr);
  size_t previousBody = previous ? size_t(std::count_if(previous->bodies.begin(), previous->bodies.end(),
                                                        [](const CollisionMesh::Body& b) { return b.cloth >= 0; }))
                                 : 0;
  for (const ObstaclePose& o : obstacles) {
    if (o.obstacle->isGround()) continue;
    const CollisionMesh::Body* from = nullptr;
    if (previous && previousBody < previous->bodies.size() &&
        obstacleMatches(*previous, previous->bodies[previousBody], o))
      from = &previous->bodies[previousBody];
    ++previousBody;
    if (from) copyObstacle(w, *previous, *from); else addObstacle(w, o);
    copiedFrom.push_back(from);
  }
  w.nodeOwner.assign(w.nodeCount(), -1);
  w.edgeOwner.assign(w.edges.size(), -1);
  w.owned.assign(w.faces.size(), 0);
  for (size_t b = 0; b < w.bodies.size(); ++b) {
    if (copiedFrom[b]) copyOwners(w, w.bodies[b], *previous, *copiedFrom[b]);
    else computeOwners(w, w.bodies[b]);
  }
  nodeAdjacency(w.nodeCount(), w.edges, w.nodeEdgeStart, w.nodeEdges);
  nodeAdjacency(w.nodeCount(), w.faces, w.nodeFaceStart, w.nodeFaces);
  w.neighbourPairs = neighbourPairs(w);
  return w;
}

bool matchesTopology(const CollisionMesh& mesh, const std::vector<ClothStep>& cloths,
                     const std::vector<ObstaclePose>& obstacles) {
  size_t b = 0;
  for (size_t c = 0; c < cloths.size(); ++c, ++b)
    if (b >= mesh.bodies.size() || !clothMatches(mesh, mesh.bodies[b], *cloths[c].mesh, int(c))) return false;
  for (const ObstaclePose& o : obstacles) {
    if (o.obstacle->isGround()) continue;
    if (b >= mesh.bodies.size() || !obstacleMatches(mesh, mesh.bodies[b], o)) return false;
    ++b;
  }
  // Bodies in the same places hold every node, edge and face (the mesh has nothing else).
  return b == mesh.bodies.size();
}

std::vector<char> changedBodies(const CollisionMesh& before, const CollisionMesh& after) {
  std::vector<char> changed(after.bodies.size(), 1);
  for (size_t b = 0; b < after.bodies.size() && b < before.bodies.size(); ++b) {
    const CollisionMesh::Body &x = before.bodies[b], &y = after.bodies[b];
    if (x.faceCount != y.faceCount) continue;
    int diff = 0;  // or-ed over the body, as in matchesTopology
    for (int f = 0; f < y.faceCount; ++f)
      for (int k = 0; k < 3; ++k)
        diff |= (after.faces[y.firstFace + f][k] - y.firstNode) ^ (before.faces[x.firstFace + f][k] - x.firstNode);
    changed[b] = diff != 0;
  }
  return changed;
}

void loadState(CollisionState& state, const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
               const std::vector<ObstaclePose>& end, double dt) {
  state.dt = dt;
  state.x0.clear();
  state.x1.clear();
  state.v.clear();
  state.invMass.clear();
  for (const ClothStep& c : cloths) {
    const Mesh& m = *c.mesh;
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      const Node& n = m.nodes[i];
      const bool held = !c.pinned.empty() && c.pinned[i];
      state.x0.push_back(c.x0[i]);
      state.x1.push_back(n.x);
      state.v.push_back(n.v);
      state.invMass.push_back(held || !(n.mass > 0) ? 0.0 : 1.0 / n.mass);
    }
  }
  state.support.assign(state.x1.size(), Vec3::Zero());
  for (size_t o = 0; o < start.size(); ++o) {
    if (start[o].obstacle->isGround()) continue;
    const ObstaclePose &a = start[o], &b = end[o];
    for (size_t i = 0; i < a.x.size(); ++i) {
      state.x0.push_back(a.x[i]);
      state.x1.push_back(b.x[i]);
      state.v.push_back((b.x[i] - a.x[i]) / dt);
      state.invMass.push_back(0.0);
    }
  }
}

void writeBack(const CollisionState& state, std::vector<ClothStep>& cloths) {
  size_t k = 0;
  for (ClothStep& c : cloths)
    for (Node& n : c.mesh->nodes) {
      n.x = state.x1[k];
      n.v = state.v[k];
      ++k;
    }
}

}  // namespace adacloth
