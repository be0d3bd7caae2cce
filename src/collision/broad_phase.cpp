#include "collision/broad_phase.h"

#include <algorithm>

namespace adacloth {
namespace {

void nodeBox(const CollisionState& s, const Vec3& shift, size_t i, Aabb& box) {
  box = Aabb();
  box.add(s.x0[i]);
  box.add(s.x1[i] - shift);
}

// Kept edge and face boxes from the node boxes.
void keepEdgeBox(const CollisionMesh& w, PrimitiveBoxes& b, int e) {
  if (size_t(e) >= b.edge.size()) return;  // an obstacle's: made when asked for
  b.edge[e] = b.node[w.edges[e][0]];
  b.edge[e].add(b.node[w.edges[e][1]]);
}

void faceBox(const CollisionMesh& w, PrimitiveBoxes& b, int f) {
  b.face[f] = Aabb();
  for (int n : w.faces[f]) b.face[f].add(b.node[n]);
}

// The faces holding a moved node, ascending, each once.
std::vector<int> facesTouching(const CollisionMesh& w, const MovedNodes& moved) {
  std::vector<int> faces;
  for (int n : moved.list) faces.insert(faces.end(), w.nodeFaces.begin() + w.nodeFaceStart[n],
                                        w.nodeFaces.begin() + w.nodeFaceStart[n + 1]);
  std::sort(faces.begin(), faces.end());
  faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
  return faces;
}

// False for a pair none of whose nodes can move (obstacle against obstacle, or handle-held cloth nodes against each
// other or an obstacle): the handles prescribe where those go, and no response could separate them. Two stretches
// of a waistband bound to a turning body once crossed that way and were counted as unresolved.
bool anyMovable(const CollisionState& s, const std::array<int, 4>& nodes) {
  for (int n : nodes)
    if (s.invMass[n] > 0) return true;
  return false;
}

// True when the boxes, each grown by `grow` (m, half a reach), would overlap if each were grown by `gap` / 2 less
// (m; 0: Aabb::overlapsGrown()). Rounded as growing the boxes first and then testing rounds.
// Written out per axis: as an Eigen expression the compiler kept it out of line (4 % of crowd's frame in calls).
inline bool overlapsWithin(const Aabb& a, const Aabb& b, double grow, double gap) {
  bool overlap = true;
  for (int k = 0; k < 3; ++k)
    overlap &= (a.lo[k] - grow <= (b.hi[k] + grow) - gap) & (b.lo[k] - grow <= (a.hi[k] + grow) - gap);
  return overlap;
}

// What pairsOfFaces() tests the pairs of two faces with.
struct FacePairTest {
  const CollisionMesh& w;
  const CollisionState& s;
  const PrimitiveBoxes& boxes;
  double grow;                     // m, half the reach: the boxes count as grown by it
  const std::vector<char>* moved;  // with it, only the pairs with a node flagged there
  double obstacleGap;              // m: narrows the obstacle's pairs (findCandidates' obstacleReach)
  int firstObstacleFace;           // the faces from here on are obstacles' (the cloths' come first)
};

// Vertex-face and edge-edge pairs of two overlapping faces whose own swept boxes, grown by `grow` (m), overlap. With
// `moved`, only the pairs with a node flagged there. `obstacleGap` (m) narrows the test for an obstacle node against
// a cloth face and for edge pairs with an obstacle edge (findCandidates' obstacleReach).
void pairsOfFaces(const FacePairTest& t, int fa, int fb, std::vector<Candidate>& out) {
  const CollisionMesh& w = t.w;
  const PrimitiveBoxes& boxes = t.boxes;
  const double grow = t.grow, obstacleGap = t.obstacleGap;
  // Pairs of one body are cloth (obstacles have no pairs among themselves); of two, at most one is an obstacle. Told
  // by the face number (the cloths come first), not by a corner's cloth: those two dependent loads per pair were 7 % of
  // this function's samples on crowd.
  const bool obstacleA = fa >= t.firstObstacleFace, obstacleB = fb >= t.firstObstacleFace;
  const double edgeGap = obstacleA || obstacleB ? obstacleGap : 0.0;
  // The narrowed pairs (the obstacle's corners, every edge pair) have boxes inside their faces' boxes: when those are
  // not within the narrower reach, none is. Most cloth-obstacle face pairs of the proximity pass are such.
  const bool narrowedToo = !(obstacleA || obstacleB) || obstacleGap == 0 ||
                           overlapsWithin(boxes.face[fa], boxes.face[fb], grow, obstacleGap);
  // Cheap tests first. Pairs that share a node are never candidates; most pairs of neighbouring faces are such, and
  // their boxes always overlap, so that test (on the two faces' own nodes, in forOwnedPairs) comes before the box
  // test; most other face pairs of a broad phase have no close primitives, so the box test comes before the
  // candidate's nodes.
  auto keep = [&](const Candidate& c) {
    const auto nodes = candidateNodes(w, c);
    if (anyMovable(t.s, nodes) && (!t.moved || touchesFlagged(nodes, *t.moved))) out.push_back(c);
  };
  unsigned corners = ownedCorners(w, fa, fb);
  if (!narrowedToo) corners &= obstacleA ? 0b101010u : 0b010101u;  // the cloth face's corners only
  forOwnedPairs(
      w, fa, fb, corners, narrowedToo,
      [&](int node, int face, bool fromB) {
        const bool obstacleNode = fromB ? obstacleB : obstacleA;
        if (overlapsWithin(boxes.node[node], boxes.face[face], grow, obstacleNode ? obstacleGap : 0.0))
          keep({false, node, face});
      },
      [&](int ea, int eb) {
        if (overlapsWithin(edgeBox(w, boxes, ea), edgeBox(w, boxes, eb), grow, edgeGap))
          keep({true, std::min(ea, eb), std::max(ea, eb)});
      });
}

// True when the broad phase pairs bodies a and b (a == b: a body with itself): within each cloth (self collision),
// between cloths (self collision too), between each cloth and each obstacle.
bool pairsBodies(const CollisionMesh& w, const CollisionParams& p, size_t a, size_t b) {
  const bool clothA = w.bodies[a].cloth >= 0, clothB = w.bodies[b].cloth >= 0;
  return clothA && clothB ? p.selfCollision : clothA != clothB;
}

// Pairs of faces whose boxes, grown by `grow` (m), overlap, of the bodies pairsBodies() pairs. Serial, in a fixed
// order.
template <class Visit>
void overlappingFaces(const CollisionMesh& w, const CollisionParams& p, const FaceTrees& trees, double grow,
                      Visit&& visit) {
  for (size_t a = 0; a < w.bodies.size(); ++a) {
    const CollisionMesh::Body& A = w.bodies[a];
    if (A.cloth < 0) continue;
    auto between = [&](const CollisionMesh::Body& B) {
      return [&, offA = A.firstFace, offB = B.firstFace](int i, int j) { visit(offA + i, offB + j); };
    };
    const WideBvh& tree = trees.trees[a];
    if (pairsBodies(w, p, a, a)) tree.selfOverlaps(between(A), grow);
    for (size_t b = a + 1; b < w.bodies.size(); ++b)
      if (pairsBodies(w, p, a, b)) tree.overlaps(trees.trees[b], between(w.bodies[b]), grow);
  }
}

}  // namespace

void markStale(FaceTrees& trees, const std::vector<char>& changed) {
  trees.stale.resize(changed.size(), 1);
  for (size_t b = 0; b < changed.size(); ++b)
    if (changed[b]) trees.stale[b] = 1;
}

Vec3 commonDisplacement(const CollisionState& s) {
  constexpr size_t kStride = 8;
  std::vector<double> sample;
  sample.reserve(s.x1.size() / kStride + 1);
  Vec3 median = Vec3::Zero();
  for (int axis = 0; axis < 3; ++axis) {
    sample.clear();
    for (size_t i = 0; i < s.x1.size(); i += kStride) sample.push_back(s.x1[i][axis] - s.x0[i][axis]);
    if (sample.empty()) break;
    auto mid = sample.begin() + sample.size() / 2;
    std::nth_element(sample.begin(), mid, sample.end());
    median[axis] = *mid;
  }
  return median;
}

void primitiveBoxes(const CollisionMesh& w, const CollisionState& s, PrimitiveBoxes& b) {
  b.shift = commonDisplacement(s);
  b.node.resize(w.nodeCount());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(w.nodeCount()); ++i) nodeBox(s, b.shift, size_t(i), b.node[i]);
  size_t clothEdges = 0;  // the cloths' bodies come first
  for (const CollisionMesh::Body& body : w.bodies)
    if (body.cloth >= 0) clothEdges = size_t(body.firstEdge + body.edgeCount);
  b.edge.resize(clothEdges);
  b.face.resize(w.faces.size());
#pragma omp parallel for schedule(static)
  for (long e = 0; e < long(clothEdges); ++e) keepEdgeBox(w, b, int(e));
#pragma omp parallel for schedule(static)
  for (long f = 0; f < long(w.faces.size()); ++f) faceBox(w, b, int(f));
}

void updateTrees(const CollisionMesh& w, const std::vector<Aabb>& faceBox, FaceTrees& trees,
                 const std::vector<char>* bodies) {
  trees.trees.resize(w.bodies.size());
  trees.stale.resize(w.bodies.size(), 1);
  for (size_t b = 0; b < w.bodies.size(); ++b) {
    if (bodies && !(*bodies)[b]) continue;
    const CollisionMesh::Body& body = w.bodies[b];
    // A character's trees are kept from frame to frame (changedBodies()) while its limbs swing: rebuilt when loose.
    const Aabb* boxes = faceBox.data() + body.firstFace;
    // A cloth's tree knows its faces' nodes, so that its self traversal leaves out neighbouring faces (their pairs
    // come from CollisionMesh::neighbourPairs). A renumbering of the nodes keeps which faces share one.
    const Tri* corners = body.cloth >= 0 ? w.faces.data() + body.firstFace : nullptr;
    if (trees.stale[b]) trees.trees[b].build(boxes, size_t(body.faceCount), corners);
    else trees.trees[b].update(boxes, size_t(body.faceCount), corners);
    trees.stale[b] = 0;
  }
}

std::vector<Candidate> findCandidates(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p,
                                      FaceTrees& trees, double reach, PrimitiveBoxes& boxes, double obstacleReach) {
  primitiveBoxes(w, s, boxes);
  updateTrees(w, boxes.face, trees, nullptr);
  // Boxes at `reach` overlap within the smaller reach when they overlap after each lost half the difference. A
  // micrometre less than that, so that rounding errs towards a pair: a caller that tests the pair again at
  // `obstacleReach` (the CCD passes) then finds every pair it would have found at `reach`.
  constexpr double kRoundingAllowance = 1e-6;  // m
  const double gap = obstacleReach < 0 ? 0.0 : std::max(0.0, reach - obstacleReach - kRoundingAllowance);
  std::vector<Candidate> out;
  const double grow = 0.5 * reach;
  // Faces that share a node (neighbours in one cloth) never come out of the traversal (a cloth's tree knows its
  // faces' nodes, updateTrees()); their pairs come from CollisionMesh::neighbourPairs, tested as pairsOfFaces()
  // would test them: a cloth's pairs (no narrowing), with the same box test (boxesOverlap rounds as overlapsWithin
  // with no gap).
  const FacePairTest test{w, s, boxes, grow, nullptr, gap, clothCounts(w).faces};
  overlappingFaces(w, p, trees, grow, [&](int fa, int fb) { pairsOfFaces(test, fa, fb, out); });
  if (p.selfCollision)
    for (const Candidate& c : w.neighbourPairs)
      if (boxesOverlap(w, boxes, c, reach) && anyMovable(s, candidateNodes(w, c))) out.push_back(c);
  return out;
}

void updateMovedBoxes(const CollisionMesh& w, const CollisionState& s, const MovedNodes& moved, PrimitiveBoxes& boxes,
                      FaceTrees& trees) {
  for (int n : moved.list) nodeBox(s, boxes.shift, size_t(n), boxes.node[n]);
  std::vector<char> bodyDirty(w.bodies.size(), 0);
  for (int n : moved.list) {
    for (int i = w.nodeEdgeStart[n]; i < w.nodeEdgeStart[n + 1]; ++i) keepEdgeBox(w, boxes, w.nodeEdges[i]);
    for (int i = w.nodeFaceStart[n]; i < w.nodeFaceStart[n + 1]; ++i) faceBox(w, boxes, w.nodeFaces[i]);
    if (w.nodeFaceStart[n + 1] > w.nodeFaceStart[n]) bodyDirty[w.bodyOfNode(n)] = 1;
  }
  updateTrees(w, boxes.face, trees, &bodyDirty);
}

std::vector<Candidate> movedCandidates(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p,
                                       const FaceTrees& trees, const PrimitiveBoxes& boxes, double reach,
                                       const MovedNodes& moved) {
  const double grow = 0.5 * reach;
  std::vector<Candidate> out;
  // Each face holding a moved node asks the trees of the bodies paired with its own for the faces near it; a pair
  // of two such faces is taken from the lower-numbered one. A pass moves a few nodes, and this costs in proportion
  // to them (a traversal of the trees, marked where nodes moved, went deep into the other trees from the large
  // boxes near the roots, and marking cost a sweep of every tree).
  const std::vector<int> touched = facesTouching(w, moved);
  const FacePairTest test{w, s, boxes, grow, &moved.flag, 0.0, clothCounts(w).faces};
  for (int f : touched) {
    const size_t a = size_t(w.bodyOfFace(f));
    for (size_t b = 0; b < w.bodies.size(); ++b) {
      if (!pairsBodies(w, p, a, b)) continue;
      const int first = w.bodies[b].firstFace;
      trees.trees[b].query(boxes.face[f], [&](int j) {
        const int g = first + j;
        if (g == f || (g < f && std::binary_search(touched.begin(), touched.end(), g))) return;
        pairsOfFaces(test, f, g, out);
      }, grow);
    }
  }
  return out;
}

}  // namespace adacloth
