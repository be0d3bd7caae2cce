#pragma once
// Working state of one remesh call, shared by the split, flip and collapse operations.
//
// Operations are applied in batches of independent operations: within a batch each operation only reads and writes
// faces and nodes that no earlier operation of the batch touched (tracked by locks), so the adjacency computed at the
// start of the batch stays exact for it. A batch ends with finishBatch(): dead faces and orphan verts and nodes are
// removed, then adjacency and geometry are rebuilt once (O(n)) instead of once per operation.
//
// A batch also records which nodes it changed, so that later passes re-examine only what changed. Every test the
// remesher makes of an edge (its size, its flip measure, whether a collapse of one end is valid) reads only the
// faces around the edge's ends and the verts and nodes of those faces, whose material positions, sizing and world
// positions never change during a remesh. Every node of a face that a batch changes, creates or removes is marked
// (finishBatch compares the faces with their verts at beginBatch), so a test of an edge whose ends were not marked
// since it last ran gives the same answer bit for bit.
#include <vector>

#include "mesh/mesh.h"
#include "remesh/remesh.h"

namespace adacloth {

struct RemeshState {
  explicit RemeshState(Mesh& m) : mesh(m) {}
  Mesh& mesh;
  std::vector<Mat2> sizing;         // per vert (1/m^2)
  std::vector<char> protectedNode;  // per node
  std::vector<int> originalNode;    // per node: its index when remesh() started, -1 for nodes created since
  std::vector<char> deadFace;       // per face, within a batch
  std::vector<char> lockedNode, lockedFace;  // touched by an operation of the current batch
  std::vector<Tri> facesAtBegin;    // per face: its verts when the batch began (to find what it changed)
  std::vector<int> faceMap;         // the last finished batch's faces when it began -> now (-1: removed)
  int batches = 0;                  // finished batches (adjacency rebuilds)
  // Per node, carried through compaction (a node without an entry counts as changed in the current batch):
  std::vector<int> changedIn;          // the last batch that changed a face around the node (-1: none)
  std::vector<int> collapsesRefutedAt; // a batch at whose start the node's collapses along edges whose ends the
                                       // batch did not change were all invalid (-1: not known)
  std::vector<char> flipCandidateEnd;  // an end of an edge that was a flip candidate at the last flip scan
  int flipScanBatch = -1;              // the batch at whose start flips were last scanned (-1: none yet)
  const SweepCheck* sweepCheck = nullptr;  // asked before each flip and collapse (null: none)
  int refused = 0;                  // operations the sweep check refused

  void beginBatch();
  // Gives every node an entry in the per-node change records (a new one counts as changed in the current batch).
  void recordNewNodes();
  // Whether a face around `node` changed in batch `batch` or later.
  bool changedSince(int node, int batch) const { return changedIn[size_t(node)] >= batch; }
  // Asks the sweep check (if any) whether an operation sweeping `sweep` and making the faces `made` (world
  // positions) may go ahead; counts refusals.
  bool sweepAllowed(const std::vector<std::array<Vec3, 4>>& sweep, const std::vector<std::array<Vec3, 3>>& made);
};

// Removes dead faces and orphan verts/nodes, keeping order; rebuilds adjacency and geometry.
void finishBatch(RemeshState& state);

// One side of an edge: the face, and its verts p -> q along the edge in the face's own order, o opposite.
struct EdgeSide {
  int face = -1;
  int p = -1, q = -1, o = -1;
};
EdgeSide edgeSide(const Mesh& mesh, int edge, int side);

// Squared metric length of an edge: the larger over its sides (a seam edge has different verts on each side).
double meshEdgeSizeSquared(const RemeshState& state, int edge);

// Signed material-space area of the triangle (a, b, c) (m^2, positive counter-clockwise).
double signedArea(const Vec2& a, const Vec2& b, const Vec2& c);

// Aspect ratio of a triangle measured in metric M: 12 sqrt(3) area / perimeter^2 (1 for equilateral, 0 degenerate).
double metricAspect(const Vec2& a, const Vec2& b, const Vec2& c, const Mat2& M);

// Whether the triangle of verts `verts` is thinner in material space than `aspectMin` (its metricAspect in the identity
// metric): the collapse and flip stretch rules let such a face go even at the price of a sheared one.
bool thinInMaterial(const Mesh& mesh, const Tri& verts, double aspectMin);

// Nodes of the faces around `node` (its closed one-ring), sorted and unique.
std::vector<int> oneRing(const Mesh& mesh, int node);

// Locks `nodes` for the rest of the batch.
void lockNodes(RemeshState& state, const std::vector<int>& nodes);

}  // namespace adacloth
