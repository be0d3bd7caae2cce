#include "collision/response.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

#include "collision/bvh.h"
#include "collision/ccd.h"

namespace adacloth {

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

bool sharesNode(const std::array<int, 4>& n, bool edgeEdge) {
  if (edgeEdge) return n[0] == n[2] || n[0] == n[3] || n[1] == n[2] || n[1] == n[3];
  return n[0] == n[1] || n[0] == n[2] || n[0] == n[3];
}

// Swept boxes of every node, edge and face over the step, grown by half the reach so that boxes of primitives closer
// than the reach overlap, and for every node and edge its owner: the lowest-numbered face that contains it. A
// vertex-face or edge-edge pair is emitted only from the face pair of its owners, so each pair comes out exactly
// once, without sorting out the duplicates that every shared node and edge would otherwise create. An owner's box
// contains its primitive's box, so a pair is a candidate exactly when its two primitives' boxes overlap.
struct PrimitiveBoxes {
  std::vector<Aabb> node, edge, face;
  std::vector<int> nodeOwner, edgeOwner;
  std::vector<unsigned char> owned;  // per face: bit k = owns its corner k, bit 3 + k = owns its edge k
};

}  // namespace

// Kept from step to step: per body (cloth or obstacle mesh, in world order) the face tree and the faces it was
// built for, and the box buffers of the broad phase (reused, as allocating them every step costs page faults).
struct CollisionCache::Impl {
  std::vector<std::vector<Tri>> builtFor;
  std::vector<Bvh> trees;
  PrimitiveBoxes nearBoxes;    // at the thickness (proximity pass)
  PrimitiveBoxes impactBoxes;  // at the CCD tolerance
};

CollisionCache::CollisionCache() : impl(std::make_unique<Impl>()) {}
CollisionCache::~CollisionCache() = default;
CollisionCache::CollisionCache(CollisionCache&&) noexcept = default;
CollisionCache& CollisionCache::operator=(CollisionCache&&) noexcept = default;

namespace {

void nodeBox(const World& w, double grow, size_t i, Aabb& box) {
  box = Aabb();
  box.add(w.x0[i]);
  box.add(w.x1[i]);
  box.inflate(grow);
}

// Edge and face boxes from the node boxes, for the edges and faces whose flag is set (all when `only` is null).
void compositeBoxes(const World& w, PrimitiveBoxes& b, const std::vector<char>* edgeOnly,
                    const std::vector<char>* faceOnly) {
#pragma omp parallel for schedule(static)
  for (long e = 0; e < long(w.edges.size()); ++e) {
    if (edgeOnly && !(*edgeOnly)[e]) continue;
    b.edge[e] = b.node[w.edges[e][0]];
    b.edge[e].add(b.node[w.edges[e][1]]);
  }
#pragma omp parallel for schedule(static)
  for (long f = 0; f < long(w.faces.size()); ++f) {
    if (faceOnly && !(*faceOnly)[f]) continue;
    b.face[f] = Aabb();
    for (int n : w.faces[f]) b.face[f].add(b.node[n]);
  }
}

// Fills `b` for the whole world (its buffers are reused from step to step).
void primitiveBoxes(const World& w, double grow, PrimitiveBoxes& b) {
  b.node.resize(w.x0.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(w.x0.size()); ++i) nodeBox(w, grow, size_t(i), b.node[i]);
  b.edge.resize(w.edges.size());
  b.face.resize(w.faces.size());
  compositeBoxes(w, b, nullptr, nullptr);
  b.nodeOwner.assign(w.x0.size(), -1);
  b.edgeOwner.assign(w.edges.size(), -1);
  for (int f = int(w.faces.size()) - 1; f >= 0; --f) {
    for (int n : w.faces[f]) b.nodeOwner[n] = f;
    for (int e : w.faceEdges[f]) b.edgeOwner[e] = f;
  }
  b.owned.assign(w.faces.size(), 0);
  for (size_t f = 0; f < w.faces.size(); ++f)
    for (int k = 0; k < 3; ++k) {
      if (b.nodeOwner[w.faces[f][k]] == int(f)) b.owned[f] |= 1u << k;
      if (b.edgeOwner[w.faceEdges[f][k]] == int(f)) b.owned[f] |= 8u << k;
    }
}

// Face trees of every body from the face boxes: rebuilt when the body's faces differ from what the tree was built
// for (a remesh), else refitted (an OBJ sequence or a moving cloth keeps its faces). `bodies` selects which to
// update (null: all).
void updateTrees(const World& w, const std::vector<Aabb>& faceBox, CollisionCache::Impl& cache,
                 const std::vector<char>* bodies) {
  cache.builtFor.resize(w.bodies.size());
  cache.trees.resize(w.bodies.size());
  for (size_t b = 0; b < w.bodies.size(); ++b) {
    if (bodies && !(*bodies)[b]) continue;
    const Body& body = w.bodies[b];
    const auto first = w.faces.begin() + body.firstFace, last = first + body.faceCount;
    const std::vector<Aabb> boxes(faceBox.begin() + body.firstFace, faceBox.begin() + body.firstFace + body.faceCount);
    std::vector<Tri>& built = cache.builtFor[b];
    if (built.size() != size_t(body.faceCount) || !std::equal(first, last, built.begin()) ||
        cache.trees[b].primitiveCount() != boxes.size()) {
      cache.trees[b].build(boxes);
      built.assign(first, last);
    } else {
      cache.trees[b].refit(boxes);
    }
  }
}

// The test pairsOfFaces applies to a pair's own boxes.
bool boxesOverlap(const PrimitiveBoxes& b, const Candidate& c) {
  return c.edgeEdge ? b.edge[c.a].overlaps(b.edge[c.b]) : b.node[c.a].overlaps(b.face[c.b]);
}

bool touchesFlagged(const std::array<int, 4>& nodes, const std::vector<char>& flags) {
  return flags[nodes[0]] || flags[nodes[1]] || flags[nodes[2]] || flags[nodes[3]];
}

// Vertex-face and edge-edge pairs of two overlapping faces whose own swept boxes overlap. With `moved`, only the
// pairs with a node flagged there.
void pairsOfFaces(const World& w, const PrimitiveBoxes& boxes, int fa, int fb, const std::vector<char>* moved,
                  std::vector<Candidate>& out) {
  const Tri &A = w.faces[fa], &B = w.faces[fb];
  const unsigned ownA = boxes.owned[fa], ownB = boxes.owned[fb];
  // The cheap box test first: most face pairs of a broad phase have no close primitives.
  auto vertexFace = [&](int node, int face) {
    if (!boxes.node[node].overlaps(boxes.face[face])) return;
    if (w.invMass[node] == 0 && w.nodeCloth[w.faces[face][0]] < 0) return;  // obstacle against obstacle
    Candidate c{false, node, face};
    const auto nodes = candidateNodes(w, c);
    if (moved && !touchesFlagged(nodes, *moved)) return;
    if (!sharesNode(nodes, false)) out.push_back(c);
  };
  for (int k = 0; k < 3; ++k) {
    if (ownA & (1u << k)) vertexFace(A[k], fb);
    if (ownB & (1u << k)) vertexFace(B[k], fa);
  }
  for (int i = 0; i < 3; ++i) {
    if (!(ownA & (8u << i))) continue;
    const int ea = w.faceEdges[fa][i];
    for (int j = 0; j < 3; ++j) {
      if (!(ownB & (8u << j))) continue;
      const int eb = w.faceEdges[fb][j];
      if (!boxes.edge[ea].overlaps(boxes.edge[eb])) continue;
      Candidate c{true, std::min(ea, eb), std::max(ea, eb)};
      const auto nodes = candidateNodes(w, c);
      if (moved && !touchesFlagged(nodes, *moved)) continue;
      if (!sharesNode(nodes, true)) out.push_back(c);
    }
  }
}

// Pairs of faces with overlapping boxes: within each cloth (self collision), between cloths, and between each cloth
// and each obstacle; with `markedOnly`, only pairs with a face marked in its tree. Serial, in a fixed order.
template <class Visit>
void overlappingFaces(const World& w, const CollisionParams& p, const CollisionCache::Impl& cache, bool markedOnly,
                      Visit&& visit) {
  for (size_t a = 0; a < w.bodies.size(); ++a) {
    const Body& A = w.bodies[a];
    if (A.cloth < 0) continue;
    auto between = [&](const Body& B) {
      return [&, offA = A.firstFace, offB = B.firstFace](int i, int j) { visit(offA + i, offB + j); };
    };
    const Bvh& tree = cache.trees[a];
    if (p.selfCollision) {
      if (markedOnly) tree.markedSelfOverlaps(between(A)); else tree.selfOverlaps(between(A));
    }
    for (size_t b = a + 1; b < w.bodies.size(); ++b) {
      if (!p.selfCollision && w.bodies[b].cloth >= 0) continue;
      if (markedOnly) tree.markedOverlaps(cache.trees[b], between(w.bodies[b]));
      else tree.overlaps(cache.trees[b], between(w.bodies[b]));
    }
  }
}

// Pairs whose swept boxes come within `reach` (m) of each other, each once, in traversal order (deterministic, but
// not sorted: callers sort the few pairs they act on, which is much cheaper than sorting all). `boxes` is scratch,
// left holding the boxes used.
std::vector<Candidate> findCandidates(const World& w, const CollisionParams& p, CollisionCache::Impl& cache,
                                      double reach, PrimitiveBoxes& boxes) {
  primitiveBoxes(w, 0.5 * reach, boxes);
  updateTrees(w, boxes.face, cache, nullptr);
  std::vector<Candidate> out;
  overlappingFaces(w, p, cache, false, [&](int fa, int fb) { pairsOfFaces(w, boxes, fa, fb, nullptr, out); });
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
  // The responses are applied one pair after the other, so their order matters: candidate order (vertex-face pairs
  // first, by node).
  std::vector<std::pair<Candidate, ContactGeometry>> close;
  for (size_t i = 0; i < cands.size(); ++i)
    if (found[i]) close.push_back({cands[i], *found[i]});
  std::sort(close.begin(), close.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [c, g] : close) {
    auto nodes = candidateNodes(w, c);
    countContact(w, nodes, st.contacts);
    separate(w, nodes, g, p.thickness, frictionOf(w, nodes, p));
  }
}

// The CCD queries of one step: every pair that touches while approaching, earliest first. The first call tests every
// candidate pair (taken from the proximity pass's candidates when seeded, plus the pairs of nodes that pass moved);
// later calls (after impulses or impact zones moved a few nodes) re-test only the pairs with a node that moved since
// the previous call: any other pair has the same swept boxes, so the same candidate status, and the same four
// positions, so the same CCD answer. New pairs of moved nodes can only come from face pairs with a face touching a
// moved node, which the marked tree traversal visits. The answer equals a full recomputation every pass (the output
// bytes of the character shots did not change), at the cost of the pairs that changed.
class ImpactDetector {
 public:
  ImpactDetector(const CollisionParams& p, CollisionCache::Impl& cache, CollisionStepStats& st)
      : params_(p), cache_(cache), stats_(st), tolerance_(0.05 * p.thickness), boxes_(cache.impactBoxes) {}

  // Candidate pairs (any order) found at a larger reach (the proximity pass's) for the end positions `x1` they were
  // found at: the first call then needs no full traversal (a pair closer than the tolerance is closer than that
  // reach).
  void seed(std::vector<Candidate> cands, std::vector<Vec3> x1) {
    seed_ = std::move(cands);
    seen_ = std::move(x1);
    seeded_ = true;
  }

  std::vector<Hit> detect(const World& w) {
    if (seeded_) testFromSeed(w); else if (seen_.empty()) testAll(w); else retestMoved(w);
    seeded_ = false;
    seen_ = w.x1;
    std::vector<Hit> hits;
    for (const Tested& t : tested_)
      if (t.g) hits.push_back({t.c, *t.g});
    // Earliest first; ties in candidate order (stable sort), so the result does not depend on thread scheduling.
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.g.t < b.g.t; });
    return hits;
  }

 private:
  struct Tested {
    Candidate c;
    std::optional<ContactGeometry> g;  // the CCD contact, if any
  };

  std::vector<Tested> test(const World& w, const std::vector<Candidate>& cands) {
    std::vector<Tested> out(cands.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (long i = 0; i < long(cands.size()); ++i) {
      MovingPoints m = movingPoints(w, candidateNodes(w, cands[i]));
      out[i].c = cands[i];
      out[i].g = cands[i].edgeEdge ? edgeEdgeCCD(m, tolerance_) : vertexFaceCCD(m, tolerance_);
    }
    stats_.ccdTests += long(cands.size());
    return out;
  }

  void testAll(const World& w) {
    std::vector<Candidate> cands = findCandidates(w, params_, cache_, tolerance_, boxes_);
    std::sort(cands.begin(), cands.end());
    tested_ = test(w, cands);
  }

  // Nodes whose end position changed since the last call (or the seed).
  bool movedNodes(const World& w, std::vector<char>& moved) const {
    moved.assign(w.x1.size(), 0);
    bool any = false;
    for (size_t i = 0; i < w.x1.size(); ++i)
      if (w.x1[i] != seen_[i]) {
        moved[i] = 1;
        any = true;
      }
    return any;
  }

  // Pairs with a moved node whose boxes overlap, sorted (the trees must hold the current boxes and marks).
  std::vector<Candidate> pairsOfMoved(const World& w, const std::vector<char>& moved) const {
    std::vector<Candidate> fresh;
    overlappingFaces(w, params_, cache_, true, [&](int fa, int fb) { pairsOfFaces(w, boxes_, fa, fb, &moved, fresh); });
    std::sort(fresh.begin(), fresh.end());
    return fresh;
  }

  void testFromSeed(const World& w) {
    primitiveBoxes(w, 0.5 * tolerance_, boxes_);
    updateTrees(w, boxes_.face, cache_, nullptr);
    std::vector<char> moved;
    movedNodes(w, moved);
    markChanged(w, moved);
    const std::vector<Candidate> fresh = pairsOfMoved(w, moved);
    std::vector<Candidate> kept;
    for (const Candidate& c : seed_)
      if (!touchesFlagged(candidateNodes(w, c), moved) && boxesOverlap(boxes_, c)) kept.push_back(c);
    std::sort(kept.begin(), kept.end());
    std::vector<Candidate> cands(fresh.size() + kept.size());
    std::merge(fresh.begin(), fresh.end(), kept.begin(), kept.end(), cands.begin());
    seed_.clear();
    tested_ = test(w, cands);
  }

  void retestMoved(const World& w) {
    std::vector<char> moved;
    if (!movedNodes(w, moved)) return;
    updateBoxes(w, moved);
    std::vector<Tested> retested = test(w, pairsOfMoved(w, moved));
    // The pairs without a moved node keep their answer; merged with the new ones in candidate order.
    std::vector<Tested> merged;
    merged.reserve(tested_.size() + retested.size());
    auto r = retested.begin();
    for (const Tested& t : tested_) {
      if (touchesFlagged(candidateNodes(w, t.c), moved)) continue;
      for (; r != retested.end() && r->c < t.c; ++r) merged.push_back(*r);
      merged.push_back(t);
    }
    merged.insert(merged.end(), r, retested.end());
    tested_ = std::move(merged);
  }

  // Boxes of the moved nodes and of the edges and faces touching them; trees of the bodies holding such faces are
  // refitted and marked where they changed, the others unmarked.
  void updateBoxes(const World& w, const std::vector<char>& moved) {
    const double grow = 0.5 * tolerance_;
    for (size_t i = 0; i < moved.size(); ++i)
      if (moved[i]) nodeBox(w, grow, i, boxes_.node[i]);
    std::vector<char> edgeDirty(w.edges.size(), 0), faceDirty(w.faces.size(), 0);
    for (size_t e = 0; e < w.edges.size(); ++e) edgeDirty[e] = moved[w.edges[e][0]] || moved[w.edges[e][1]];
    for (size_t f = 0; f < w.faces.size(); ++f)
      faceDirty[f] = moved[w.faces[f][0]] || moved[w.faces[f][1]] || moved[w.faces[f][2]];
    compositeBoxes(w, boxes_, &edgeDirty, &faceDirty);
    std::vector<char> bodyDirty(w.bodies.size(), 0);
    for (size_t b = 0; b < w.bodies.size(); ++b) {
      const Body& body = w.bodies[b];
      bodyDirty[b] = std::any_of(faceDirty.begin() + body.firstFace,
                                 faceDirty.begin() + body.firstFace + body.faceCount, [](char c) { return c != 0; });
    }
    updateTrees(w, boxes_.face, cache_, &bodyDirty);
    markFaces(w, faceDirty);
  }

  // Marks in every tree the faces touching a moved node.
  void markChanged(const World& w, const std::vector<char>& moved) {
    std::vector<char> faceDirty(w.faces.size(), 0);
    for (size_t f = 0; f < w.faces.size(); ++f)
      faceDirty[f] = moved[w.faces[f][0]] || moved[w.faces[f][1]] || moved[w.faces[f][2]];
    markFaces(w, faceDirty);
  }

  void markFaces(const World& w, const std::vector<char>& faceDirty) {
    for (size_t b = 0; b < w.bodies.size(); ++b) {
      const Body& body = w.bodies[b];
      const auto first = faceDirty.begin() + body.firstFace, last = first + body.faceCount;
      if (std::any_of(first, last, [](char c) { return c != 0; }))
        cache_.trees[b].mark(std::vector<char>(first, last));
      else
        cache_.trees[b].clearMarks();
    }
  }

  const CollisionParams& params_;
  CollisionCache::Impl& cache_;
  CollisionStepStats& stats_;
  const double tolerance_;  // contact distance of the CCD queries (m)
  PrimitiveBoxes& boxes_;   // swept boxes at the tolerance, as of the last call (buffers kept in the cache)
  std::vector<Vec3> seen_;  // end-of-step positions at the last call or the seed (empty before the first)
  std::vector<Candidate> seed_;
  bool seeded_ = false;
  std::vector<Tested> tested_;  // every candidate pair with its CCD answer, in candidate order
};

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
int impactZones(World& w, std::vector<Hit> hits, const CollisionParams& p, ImpactDetector& detector,
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
    ++st.zonePasses;
    hits = detector.detect(w);
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
  ImpactDetector detector(params, *cache.impl, st);
  {
    std::vector<Candidate> near = findCandidates(w, params, *cache.impl, params.thickness, cache.impl->nearBoxes);
    std::vector<Vec3> found = w.x1;
    proximityPass(w, near, params, st);
    detector.seed(std::move(near), std::move(found));
  }
  bool clean = false;
  for (int pass = 0; pass < params.iterations && !clean; ++pass) {
    std::vector<Hit> hits = detector.detect(w);
    ++st.ccdPasses;
    clean = hits.empty();
    for (const Hit& h : hits) {
      auto nodes = candidateNodes(w, h.candidate);
      if (separate(w, nodes, h.g, 0.1 * params.thickness, frictionOf(w, nodes, params))) ++st.impacts;
    }
  }
  if (!clean) {
    std::vector<Hit> hits = detector.detect(w);
    if (!hits.empty()) st.unresolved = impactZones(w, hits, params, detector, st);
  }
  // Self-collision pushes may have moved nodes below a ground: lift them again (no second count).
  for (size_t o = 0; o < start.size(); ++o)
    if (start[o].obstacle->isGround()) groundPass(w, start[o], end[o], params, nullptr);
  writeBack(w, cloths);
  return st;
}

}  // namespace adacloth
