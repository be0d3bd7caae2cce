#pragma once
// The collision mesh: every cloth and every mesh obstacle of a step flattened into one set of nodes, edges and faces
// with global indices (the cloths in their order, then the obstacles that are not grounds, in theirs), and for every
// node and edge its owner face. It holds topology only, which changes only when a mesh is remeshed, so the
// collision phase keeps it in its cache from step to step and rebuilds it when matchesTopology() says a face list
// changed. The per-step part (positions, velocities, inverse masses) is a CollisionState on the same node indices.
#include <array>
#include <memory>
#include <tuple>
#include <vector>

#include "collision/response.h"

namespace adacloth {

// A primitive pair of the collision mesh to test: vertex-face (a = node, b = face) or edge-edge (a < b, edges). The
// order (vertex-face pairs first, by node) is the order responses are applied in (candidates.h has the rest).
struct Candidate {
  bool edgeEdge = false;
  int a = 0, b = 0;
  bool operator<(const Candidate& o) const { return std::tie(edgeEdge, a, b) < std::tie(o.edgeEdge, o.a, o.b); }
};

// Charts of a cloth's faces: faces sharing a vert (not merely a node: a seam joins panels at nodes with a vert on
// each side) are in one chart, a connected piece of the cloth's material space. Numbered from `first` in the order of
// their lowest face.
std::vector<int> faceCharts(const Mesh& m, int first = 0);

struct CollisionMesh {
  // One cloth or mesh obstacle: its ranges of global nodes, edges and faces.
  struct Body {
    int cloth = -1;  // index in the cloth list, or -1 for an obstacle
    int firstNode = 0, nodeCount = 0;
    int firstEdge = 0, edgeCount = 0;
    int firstFace = 0, faceCount = 0;
    // An obstacle's face list (Obstacle::faceList()) that its faces and edges were made from, held so that its
    // address stays its own: an obstacle with the same list has the same faces and edges, and matchesTopology() costs
    // a pointer comparison per obstacle instead of a read of a character's topology every step.
    std::shared_ptr<const std::vector<Tri>> faceList;
  };

  std::vector<int> nodeCloth;  // cloth of each node, -1 for obstacles
  std::vector<Tri> faces;
  std::vector<std::array<int, 3>> faceEdges;  // faceEdges[f][k] joins corners k and k + 1 of face f
  std::vector<std::array<int, 2>> edges;
  std::vector<Body> bodies;
  // Owners: for every node and edge the lowest-numbered face that contains it (-1 for none), and per face which of
  // its corners and edges it owns (bit k = corner k, bit 3 + k = edge k). The broad phase emits a vertex-face or
  // edge-edge pair only from the face pair of its owners, so every pair comes out once (broad_phase.h).
  std::vector<int> nodeOwner, edgeOwner;
  std::vector<unsigned char> owned;
  // Per face: its chart, a connected piece of its cloth's material space (charts are numbered over all cloths; -1 for
  // obstacle faces), and its corners' material coordinates (m) in it (material_distance.h). Material coordinates
  // change only with the topology, so they are kept with it.
  std::vector<int> faceChart;
  std::vector<std::array<Vec2, 3>> faceMaterial;
  // Per node, the edges and the faces holding it, ascending (CSR: nodeEdges[nodeEdgeStart[n]] up to
  // nodeEdges[nodeEdgeStart[n + 1] - 1]), so that after a contact pass the broad phase updates only what the moved
  // nodes touch.
  std::vector<int> nodeEdgeStart, nodeEdges, nodeFaceStart, nodeFaces;
  // The vertex-face and edge-edge pairs (sharing no node) of every pair of faces of one cloth that share a node,
  // taken from the faces' owned corners and edges as the broad phase takes them (CollisionMesh::owned): such faces'
  // boxes always overlap, so the broad phase tests these pairs from this list instead of finding the faces again in
  // its traversal each step (82 % of a garment's face pairs within the thickness are such neighbours).
  std::vector<Candidate> neighbourPairs;

  size_t nodeCount() const { return nodeCloth.size(); }
  int bodyOfNode(int n) const;  // index in `bodies`
  int bodyOfFace(int f) const;
};

// How many of the collision mesh's nodes, edges and faces are the cloths' (their bodies come first, so these are the
// first obstacle body's first node, edge and face; all of them when there is no obstacle body). A per-step pass over
// the cloth alone stops there: a character's nodes, edges and faces are most of a character shot's.
struct ClothCounts {
  int nodes = 0, edges = 0, faces = 0;
};
ClothCounts clothCounts(const CollisionMesh& w);

// The owned corners of faces fa and fb as forOwnedPairs() takes them: bit 2k for fa's corner k, 2k + 1 for fb's.
inline unsigned ownedCorners(const CollisionMesh& w, int fa, int fb) {
  const unsigned ownA = w.owned[fa], ownB = w.owned[fb];
  unsigned corners = 0;
  for (int k = 0; k < 3; ++k) corners |= ((ownA >> k) & 1u) << (2 * k) | ((ownB >> k) & 1u) << (2 * k + 1);
  return corners;
}

// The vertex-face and edge-edge pairs that faces fa and fb give under the ownership rule (a pair comes only from its
// primitives' owners, so each comes once), leaving out pairs that share a node: the corners set in `corners`
// (ownedCorners(), or fewer) against the other face, in the order A0, B0, A1, B1, A2, B2, as
// vertexFace(node, face, fromB), then each of fa's owned edges against each of fb's, as edgeEdge(ea, eb). The owned
// corners and edges are visited by their set bits: a face owns one corner and one or two edges on average, and
// testing each of the six bits mispredicted most branches of the broad phase. `withEdges` false skips the edges.
template <class VertexFace, class EdgeEdge>
void forOwnedPairs(const CollisionMesh& w, int fa, int fb, unsigned corners, bool withEdges, VertexFace&& vertexFace,
                   EdgeEdge&& edgeEdge) {
  const Tri &A = w.faces[fa], &B = w.faces[fb];
  auto holds = [](const Tri& t, int n) { return n == t[0] || n == t[1] || n == t[2]; };
  for (; corners; corners &= corners - 1) {
    const int bit = __builtin_ctz(corners), k = bit >> 1;
    if (bit & 1) {
      if (!holds(A, B[k])) vertexFace(B[k], fa, true);
    } else if (!holds(B, A[k])) {
      vertexFace(A[k], fb, false);
    }
  }
  if (!withEdges) return;
  for (unsigned edgesA = (w.owned[fa] >> 3) & 7u; edgesA; edgesA &= edgesA - 1) {
    const int ea = w.faceEdges[fa][__builtin_ctz(edgesA)];
    for (unsigned edgesB = (w.owned[fb] >> 3) & 7u; edgesB; edgesB &= edgesB - 1) {
      const int eb = w.faceEdges[fb][__builtin_ctz(edgesB)];
      const auto &p = w.edges[ea], &q = w.edges[eb];
      if (p[0] != q[0] && p[0] != q[1] && p[1] != q[0] && p[1] != q[1]) edgeEdge(ea, eb);
    }
  }
}

// The collision mesh of `cloths` and of the obstacles of `obstacles` that are not grounds (poses at any instant: only
// their node counts and faces are read). With `previous`, an obstacle body that it holds with the same faces (in the
// body's own numbering) is copied from it, renumbered, instead of being built again: the collision mesh is rebuilt
// after every remesh of a cloth, and finding a character's face edges and owners again each time was 2 % of crowd's
// frame. The result is the same either way.
CollisionMesh buildCollisionMesh(const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& obstacles,
                                 const CollisionMesh* previous = nullptr);

// True when buildCollisionMesh(cloths, obstacles) would return `mesh` again: same bodies, node counts, edges, faces
// and face edges, compared exactly (a remesh can keep the face count and change the faces). Costs a read of the
// topology, no allocation.
bool matchesTopology(const CollisionMesh& mesh, const std::vector<ClothStep>& cloths,
                     const std::vector<ObstaclePose>& obstacles);

// Per body of `after`: 1 when its faces, numbered from the body's first node, differ from those of the same body of
// `before`, or it is new. A body that kept them can keep its face tree (refitted; the trees hold the body's own face
// numbers), even when a remesh of an earlier body moved its global numbers: a character's trees are not rebuilt
// every frame because its garment was remeshed.
std::vector<char> changedBodies(const CollisionMesh& before, const CollisionMesh& after);

// The nodes of a collision mesh during one step of length dt (s): positions at its start and end, velocities (in and
// out) and inverse masses (1/kg; 0 for obstacle and pinned nodes: no contact moves them; pinned nodes yield only to
// pinned nodes, held_yield.h).
struct CollisionState {
  std::vector<Vec3> x0, x1, v;
  std::vector<double> invMass;
  // Per node: the unit normal of a ground plane the node rests on in this step (groundPass), else zero. A correction
  // between cloth and cloth does not move such a node into its ground (separate(), contact_response.h).
  std::vector<Vec3> support;
  double dt = 0;
};

// Fills `state` (its buffers are reused) from the cloths' x0, nodes and pins and the obstacles' poses at the start
// and end of the step, in the node order of the collision mesh they match.
void loadState(CollisionState& state, const std::vector<ClothStep>& cloths, const std::vector<ObstaclePose>& start,
               const std::vector<ObstaclePose>& end, double dt);

// Writes positions and velocities of the cloths' nodes back into their meshes (pinned nodes too: they may have
// yielded).
void writeBack(const CollisionState& state, std::vector<ClothStep>& cloths);

}  // namespace adacloth
