#include "collision/response.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

#include "collision/bvh.h"
#include "collision/ccd.h"

namespace adacloth {

// Per body (cloth or obstacle mesh, in world order): the face tree and the faces it was built for.
struct CollisionCache::Impl {
  std::vector<std::vector<Tri>> builtFor;
  std::vector<Bvh> trees;
};

CollisionCache::CollisionCache() : impl(std::make_unique<Impl>()) {}
CollisionCache::~CollisionCache() = default;
CollisionCache::CollisionCache(CollisionCache&&) noexcept = default;
CollisionCache& CollisionCache::operator=(CollisionCache&&) noexcept = default;

CollisionParams collisionParams(const CollisionSpec& spec) {
  CollisionParams p;
  p.thickness = spec.thickness;
  p.obstacleFriction = spec.obstacleFriction;
  p.selfFriction = spec.selfFriction;
  p.selfCollision = spec.selfCollision;
  p.iterations = spec.iterations;
  return p;
}

namespace {

struct Body {
  int cloth = -1;  // index in the cloth list, or -1 for an obstacle
  int firstFace = 0, faceCount = 0;
};

// Every cloth and mesh obstacle flattened into one set of nodes, edges and faces with global indices.
struct World {
  std::vector<Vec3> x0, x1, v;
  std::vector<double> invMass;  // 1/kg; 0 for obstacle and pinned nodes
  std::vector<int> nodeCloth;   // cloth of each node, -1 for obstacles
  std::vector<Tri> faces;
  std::vector<std::array<int, 3>> faceEdges;
  std::vector<std::array<int, 2>> edges;
  std::vector<Body> bodies;
  double dt = 0;
};

void addCloth(World& w, const ClothStep& c, int index) {
  const Mesh& m = *c.mesh;
  const int n0 = int(w.x0.size()), e0 = int(w.edges.size());
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const Node& n = m.nodes[i];
    const bool held = !c.pinned.empty() && c.pinned[i];
    w.x0.push_back(c.x0[i]);
    w.x1.push_back(n.x);
    w.v.push_back(n.v);
    w.invMass.push_back(held || !(n.mass > 0) ? 0.0 : 1.0 / n.mass);
    w.nodeCloth.push_back(index);
  }
  for (const Edge& e : m.edges) w.edges.push_back({n0 + e.nodes[0], n0 + e.nodes[1]});
  Body b{index, int(w.faces.size()), int(m.faces.size())};
  for (size_t f = 0; f < m.faces.size(); ++f) {
    Tri t = m.faceNodes(int(f));
    w.faces.push_back({n0 + t[0], n0 + t[1], n0 + t[2]});
    const auto& fe = m.faces[f].edges;
    w.faceEdges.push_back({e0 + fe[0], e0 + fe[1], e0 + fe[2]});
  }
  w.bodies.push_back(b);
}

void addObstacle(World& w, const ObstaclePose& a, const ObstaclePose& b) {
  const Obstacle& o = *a.obstacle;
  const int n0 = int(w.x0.size()), e0 = int(w.edges.size());
  for (size_t i = 0; i < a.x.size(); ++i) {
    w.x0.push_back(a.x[i]);
    w.x1.push_back(b.x[i]);
    w.v.push_back((b.x[i] - a.x[i]) / w.dt);
    w.invMass.push_back(0.0);
    w.nodeCloth.push_back(-1);
  }
  const auto& edges = o.edges();  // sorted: a face's edges are found by binary search
  for (const auto& e : edges) w.edges.push_back({n0 + e[0], n0 + e[1]});
  Body body{-1, int(w.faces.size()), int(o.faces().size())};
  for (const Tri& f : o.faces()) {
    w.faces.push_back({n0 + f[0], n0 + f[1], n0 + f[2]});
    std::array<int, 3> fe;
    for (int k = 0; k < 3; ++k) {
      std::array<int, 2> key = {std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])};
      fe[k] = e0 + int(std::lower_bound(edges.begin(), edges.end(), key) - edges.begin());
    }
    w.faceEdges.push_back(fe);
  }
  w.bodies.push_back(body);
}

World buildWorld(const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
                 const std::vector<ObstaclePose>& end, double dt) {
  World w;
  w.dt = dt;
  for (size_t c = 0; c < cloths.size(); ++c) addCloth(w, cloths[c], int(c));
  for (size_t o = 0; o < start.size(); ++o)
    if (!start[o].obstacle->isGround()) addObstacle(w, start[o], end[o]);
  return w;
}

// A primitive pair to test: vertex-face (a = node, b = face) or edge-edge (a < b, edges).
struct Candidate {
  bool edgeEdge = false;
  int a = 0, b = 0;
  bool operator<(const Candidate& o) const { return std::tie(edgeEdge, a, b) < std::tie(o.edgeEdge, o.a, o.b); }
};

std::array<int, 4> candidateNodes(const World& w, const Candidate& c) {
  if (c.edgeEdge) return {w.edges[c.a][0], w.edges[c.a][1], w.edges[c.b][0], w.edges[c.b][1]};
  const Tri& f = w.faces[c.b];
  return {c.a, f[0], f[1], f[2]};
}

MovingPoints movingPoints(const World& w, const std::array<int, 4>& nodes) {
  MovingPoints m;
  for (int i = 0; i < 4; ++i) {
    m.x0[i] = w.x0[nodes[i]];
    m.x1[i] = w.x1[nodes[i]];
  }
  return m;
}

// Swept boxes of every node over the step, grown by half the thickness so that boxes of primitives closer than
// the thickness overlap.
std::vector<Aabb> nodeBoxes(const World& w, double grow) {
  std::vector<Aabb> boxes(w.x0.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(boxes.size()); ++i) {
    boxes[i].add(w.x0[i]);
    boxes[i].add(w.x1[i]);
    boxes[i].inflate(grow);
  }
  return boxes;
}

// Face trees of every body: rebuilt when the body's faces differ from what the tree was built for, else refitted.
void updateTrees(const World& w, const std::vector<Aabb>& nodeBox, CollisionCache::Impl& cache) {
  cache.builtFor.resize(w.bodies.size());
  cache.trees.resize(w.bodies.size());
  for (size_t b = 0; b < w.bodies.size(); ++b) {
    const Body& body = w.bodies[b];
    std::vector<Tri> faces(w.faces.begin() + body.firstFace, w.faces.begin() + body.firstFace + body.faceCount);
    std::vector<Aabb> boxes(faces.size());
    for (size_t f = 0; f < faces.size(); ++f)
      for (int k = 0; k < 3; ++k) boxes[f].add(nodeBox[faces[f][k]]);
    if (cache.builtFor[b] != faces || cache.trees[b].primitiveCount() != faces.size()) {
      cache.trees[b].build(boxes);
      cache.builtFor[b] = std::move(faces);
    } else {
      cache.trees[b].refit(boxes);
    }
  }
}

bool sharesNode(const std::array<int, 4>& n, bool edgeEdge) {
  if (edgeEdge) return n[0] == n[2] || n[0] == n[3] || n[1] == n[2] || n[1] == n[3];
  return n[0] == n[1] || n[0] == n[2] || n[0] == n[3];
}

// Swept boxes of every node, edge and face, and for every node and edge its owner: the lowest-numbered face that
// contains it. A vertex-face or edge-edge pair is emitted only from the face pair of its owners, so each pair comes
// out exactly once, without sorting out the duplicates that every shared node and edge would otherwise create.
struct PrimitiveBoxes {
  std::vector<Aabb> node, edge, face;
  std::vector<int> nodeOwner, edgeOwner;
};

PrimitiveBoxes primitiveBoxes(const World& w, double grow) {
  PrimitiveBoxes b;
  b.node = nodeBoxes(w, grow);
  b.edge.resize(w.edges.size());
  b.face.resize(w.faces.size());
#pragma omp parallel for schedule(static)
  for (long e = 0; e < long(w.edges.size()); ++e) {
    b.edge[e].add(b.node[w.edges[e][0]]);
    b.edge[e].add(b.node[w.edges[e][1]]);
  }
#pragma omp parallel for schedule(static)
  for (long f = 0; f < long(w.faces.size()); ++f)
    for (int n : w.faces[f]) b.face[f].add(b.node[n]);
  b.nodeOwner.assign(w.x0.size(), -1);
  b.edgeOwner.assign(w.edges.size(), -1);
  for (int f = int(w.faces.size()) - 1; f >= 0; --f) {
    for (int n : w.faces[f]) b.nodeOwner[n] = f;
    for (int e : w.faceEdges[f]) b.edgeOwner[e] = f;
  }
  return b;
}

// Vertex-face and edge-edge pairs of two overlapping faces whose own swept boxes overlap.
void pairsOfFaces(const World& w, const PrimitiveBoxes& boxes, int fa, int fb, std::vector<Candidate>& out) {
  const Tri &A = w.faces[fa], &B = w.faces[fb];
  auto vertexFace = [&](int node, int owner, int face) {
    if (boxes.nodeOwner[node] != owner) return;
    Candidate c{false, node, face};
    if (w.invMass[node] == 0 && w.nodeCloth[w.faces[face][0]] < 0) return;  // obstacle against obstacle
    if (!sharesNode(candidateNodes(w, c), false) && boxes.node[node].overlaps(boxes.face[face])) out.push_back(c);
  };
  for (int k = 0; k < 3; ++k) {
    vertexFace(A[k], fa, fb);
    vertexFace(B[k], fb, fa);
  }
  for (int ea : w.faceEdges[fa]) {
    if (boxes.edgeOwner[ea] != fa) continue;
    for (int eb : w.faceEdges[fb]) {
      if (boxes.edgeOwner[eb] != fb) continue;
      Candidate c{true, std::min(ea, eb), std::max(ea, eb)};
      if (!sharesNode(candidateNodes(w, c), true) && boxes.edge[ea].overlaps(boxes.edge[eb])) out.push_back(c);
    }
  }
}

// Pairs whose swept boxes come within `reach` (m) of each other, each once, sorted.
std::vector<Candidate> findCandidates(World& w, const CollisionParams& p, CollisionCache::Impl& cache, double reach) {
  const PrimitiveBoxes boxes = primitiveBoxes(w, 0.5 * reach);
  updateTrees(w, boxes.node, cache);
  std::vector<Candidate> out;
  for (size_t a = 0; a < w.bodies.size(); ++a) {
    const Body& A = w.bodies[a];
    if (A.cloth < 0) continue;
    auto add = [&](const Body& B) {
      return [&, offA = A.firstFace, offB = B.firstFace](int i, int j) {
        pairsOfFaces(w, boxes, offA + i, offB + j, out);
      };
    };
    if (p.selfCollision) cache.trees[a].selfOverlaps(add(A));
    for (size_t b = a + 1; b < w.bodies.size(); ++b)
      if (p.selfCollision || w.bodies[b].cloth < 0) cache.trees[a].overlaps(cache.trees[b], add(w.bodies[b]));
  }
  // The responses are applied one pair after the other, so their order matters: vertex-face pairs first, by node.
  std::sort(out.begin(), out.end());
  return out;
}

struct Hit {
  Candidate candidate;
  ContactGeometry g;
};

bool involvesObstacle(const World& w, const std::array<int, 4>& nodes) {
  for (int n : nodes)
    if (w.nodeCloth[n] < 0) return true;
  return false;
}

// Moves the pair apart along g.normal until its separation there is `target` (m), makes it stop approaching
// (inelastic) and applies Coulomb friction to its tangential relative velocity. Returns false when nothing moved.
bool separate(World& w, const std::array<int, 4>& nodes, const ContactGeometry& g, double target, double mu) {
  double denom = 0, s1 = 0, vn = 0;
  Vec3 vrel = Vec3::Zero();
  for (int i = 0; i < 4; ++i) {
    denom += g.weights[i] * g.weights[i] * w.invMass[nodes[i]];
    s1 += g.weights[i] * g.normal.dot(w.x1[nodes[i]]);
    vrel += g.weights[i] * w.v[nodes[i]];
  }
  vn = g.normal.dot(vrel);
  const double ds = target - s1, dvn = std::max(0.0, -vn);
  if (denom <= 0 || (ds <= 0 && dvn == 0)) return false;
  const double push = std::max(ds, 0.0);
  const Vec3 vt = vrel - vn * g.normal;
  const double vtNorm = vt.norm();
  // The normal "impulse" includes the position push as a velocity over the step, as position-based contact does.
  const double dvt = std::min(vtNorm, mu * (dvn + push / w.dt));
  const Vec3 tangentDir = vtNorm > 0 ? Vec3(-vt / vtNorm) : Vec3::Zero();
  for (int i = 0; i < 4; ++i) {
    const double share = g.weights[i] * w.invMass[nodes[i]] / denom;
    if (share == 0) continue;
    w.x1[nodes[i]] += share * push * g.normal;
    w.v[nodes[i]] += share * (dvn * g.normal + dvt * tangentDir);
  }
  return true;
}

double frictionOf(const World& w, const std::array<int, 4>& nodes, const CollisionParams& p) {
  return involvesObstacle(w, nodes) ? p.obstacleFriction : p.selfFriction;
}

void countContact(const World& w, const std::array<int, 4>& nodes, std::vector<int>& contacts) {
  int counted = -1;  // a pair inside one cloth counts once for it
  for (int n : nodes) {
    int c = w.nodeCloth[n];
    if (c >= 0 && c != counted) {
      ++contacts[c];
      if (counted < 0) counted = c; else break;
    }
  }
}

// Step 2: pairs within the thickness at the end of the step are pushed to the thickness.
void proximityPass(World& w, const std::vector<Candidate>& cands, const CollisionParams& p, CollisionStepStats& st) {
  std::vector<std::optional<ContactGeometry>> found(cands.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long i = 0; i < long(cands.size()); ++i) {
    MovingPoints m = movingPoints(w, candidateNodes(w, cands[i]));
    found[i] = cands[i].edgeEdge ? edgeEdgeProximity(m, p.thickness) : vertexFaceProximity(m, p.thickness);
  }
  for (size_t i = 0; i < cands.size(); ++i) {
    if (!found[i]) continue;
    auto nodes = candidateNodes(w, cands[i]);
    countContact(w, nodes, st.contacts);
    separate(w, nodes, *found[i], p.thickness, frictionOf(w, nodes, p));
  }
}

std::vector<Hit> detectImpacts(World& w, const CollisionParams& p, CollisionCache::Impl& cache) {
  const double tolerance = 0.05 * p.thickness;
  const std::vector<Candidate> cands = findCandidates(w, p, cache, tolerance);
  std::vector<std::optional<ContactGeometry>> found(cands.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long i = 0; i < long(cands.size()); ++i) {
    MovingPoints m = movingPoints(w, candidateNodes(w, cands[i]));
    found[i] = cands[i].edgeEdge ? edgeEdgeCCD(m, tolerance) : vertexFaceCCD(m, tolerance);
  }
  std::vector<Hit> hits;
  for (size_t i = 0; i < cands.size(); ++i)
    if (found[i]) hits.push_back({cands[i], *found[i]});
  // Earliest first; ties in candidate order (stable sort), so the result does not depend on thread scheduling.
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.g.t < b.g.t; });
  return hits;
}

// Union-find over nodes, for impact zones.
struct Zones {
  std::vector<int> parent;
  explicit Zones(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// A zone touching an obstacle or a handle follows it (mean displacement of its infinite-mass members); a free zone
// moves rigidly with its linear and angular momentum, which keeps distances inside it and so creates no collision.
void moveZoneRigidly(World& w, const std::vector<int>& members) {
  std::vector<int> anchors, free;
  for (int n : members) (w.invMass[n] == 0 ? anchors : free).push_back(n);
  if (free.empty()) return;
  if (!anchors.empty()) {
    // Obstacle members lead (a zone caught between a handle and a moving obstacle must go with the obstacle).
    std::vector<int> obstacle;
    for (int n : anchors)
      if (w.nodeCloth[n] < 0) obstacle.push_back(n);
    const std::vector<int>& lead = obstacle.empty() ? anchors : obstacle;
    Vec3 d = Vec3::Zero();
    for (int n : lead) d += w.x1[n] - w.x0[n];
    d /= double(lead.size());
    for (int n : free) {
      w.x1[n] = w.x0[n] + d;
      w.v[n] = d / w.dt;
    }
    return;
  }
  double mass = 0;
  Vec3 centre = Vec3::Zero(), momentum = Vec3::Zero();
  for (int n : free) {
    const double m = 1.0 / w.invMass[n];
    mass += m;
    centre += m * w.x0[n];
    momentum += m * (w.x1[n] - w.x0[n]) / w.dt;
  }
  centre /= mass;
  const Vec3 vc = momentum / mass;
  Vec3 angular = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  for (int n : free) {
    const double m = 1.0 / w.invMass[n];
    const Vec3 r = w.x0[n] - centre;
    angular += m * r.cross((w.x1[n] - w.x0[n]) / w.dt - vc);
    inertia += m * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  const Vec3 omega = inertia.completeOrthogonalDecomposition().solve(angular);
  const double angle = omega.norm() * w.dt;
  const Mat3 rot = angle > 0 ? Mat3(Eigen::AngleAxisd(angle, omega.normalized())) : Mat3::Identity();
  for (int n : free) {
    w.x1[n] = centre + vc * w.dt + rot * (w.x0[n] - centre);
    w.v[n] = (w.x1[n] - w.x0[n]) / w.dt;
  }
}

// Step 4: impact zones until no collision is left or the passes run out. Returns the collisions left.
int impactZones(World& w, std::vector<Hit> hits, const CollisionParams& p, CollisionCache::Impl& cache,
                CollisionStepStats& st) {
  Zones zones(w.x0.size());
  std::vector<char> inZone(w.x0.size(), 0);
  for (int pass = 0; pass < p.zoneIterations && !hits.empty(); ++pass) {
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      for (int n : nodes) inZone[n] = 1;
      for (int k = 1; k < 4; ++k) zones.join(nodes[0], nodes[k]);
    }
    std::vector<std::vector<int>> members(w.x0.size());
    for (size_t n = 0; n < w.x0.size(); ++n)
      if (inZone[n]) members[zones.find(int(n))].push_back(int(n));
    int count = 0;
    for (const auto& m : members)
      if (!m.empty()) {
        moveZoneRigidly(w, m);
        ++count;
      }
    st.zones = std::max(st.zones, count);
    hits = detectImpacts(w, p, cache);
  }
  return int(hits.size());
}

void groundPass(World& w, const ObstaclePose& start, const ObstaclePose& end, const CollisionParams& p,
                std::vector<int>* contacts) {
  const Vec3 n = end.planeNormal;
  const double planeSpeed = n.dot(end.planePoint - start.planePoint) / w.dt;  // along the normal (m/s)
  for (size_t i = 0; i < w.x1.size(); ++i) {
    if (w.nodeCloth[i] < 0 || w.invMass[i] == 0) continue;
    const double h = n.dot(w.x1[i] - end.planePoint);
    if (h >= p.thickness) continue;
    if (contacts) ++(*contacts)[w.nodeCloth[i]];
    const double push = p.thickness - h;
    w.x1[i] += push * n;
    const double vn = n.dot(w.v[i]) - planeSpeed, dvn = std::max(0.0, -vn);
    const Vec3 vt = w.v[i] - n.dot(w.v[i]) * n;
    const double vtNorm = vt.norm(), dvt = std::min(vtNorm, p.obstacleFriction * (dvn + push / w.dt));
    w.v[i] += dvn * n;
    if (vtNorm > 0) w.v[i] -= dvt * vt / vtNorm;
  }
}

void writeBack(const World& w, std::vector<ClothStep>& cloths) {
  size_t k = 0;
  for (ClothStep& c : cloths)
    for (Node& n : c.mesh->nodes) {
      if (w.invMass[k] > 0) {
        n.x = w.x1[k];
        n.v = w.v[k];
      }
      ++k;
    }
}

}  // namespace

CollisionStepStats resolveCollisions(std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
                                     const std::vector<ObstaclePose>& end, const CollisionParams& params, double dt,
                                     CollisionCache& cache) {
  CollisionStepStats st;
  st.contacts.assign(cloths.size(), 0);
  World w = buildWorld(cloths, start, end, dt);
  for (size_t o = 0; o < start.size(); ++o)
    if (start[o].obstacle->isGround()) groundPass(w, start[o], end[o], params, &st.contacts);
  proximityPass(w, findCandidates(w, params, *cache.impl, params.thickness), params, st);
  bool clean = false;
  for (int pass = 0; pass < params.iterations && !clean; ++pass) {
    std::vector<Hit> hits = detectImpacts(w, params, *cache.impl);
    clean = hits.empty();
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      if (separate(w, nodes, h.g, 0.1 * params.thickness, frictionOf(w, nodes, params))) ++st.impacts;
    }
  }
  if (!clean) {
    std::vector<Hit> hits = detectImpacts(w, params, *cache.impl);
    if (!hits.empty()) st.unresolved = impactZones(w, hits, params, *cache.impl, st);
  }
  // Self-collision pushes may have moved nodes below a ground: lift them again (no second count).
  for (size_t o = 0; o < start.size(); ++o)
    if (start[o].obstacle->isGround()) groundPass(w, start[o], end[o], params, nullptr);
  writeBack(w, cloths);
  return st;
}

}  // namespace adacloth
