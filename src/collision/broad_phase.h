#pragma once
// The broad phase of the collision phase: swept boxes of every node, edge and face of the collision mesh over a
// step, a face tree per body (cloth or mesh obstacle), and the vertex-face and edge-edge pairs whose boxes overlap.
//
// Boxes are kept as swept, not grown: a test at a reach grows both boxes by half of it (Aabb::overlapsGrown), so the
// proximity pass at the thickness and the CCD passes at their tolerance share one set of boxes and trees, and a pass
// that moved a few nodes recomputes only their boxes (the obstacles' boxes, most of a character shot's, once per
// step); the test rounds as a test of boxes grown first would. A pair is emitted only
// from the face pair of its two primitives' owners (CollisionMesh::nodeOwner, edgeOwner), so it comes out exactly
// once, without sorting out the duplicates that every shared node and edge would otherwise create. An owner's box
// contains its primitive's box, so a pair is a candidate exactly when its two primitives' boxes overlap.
//
// Pairs come in traversal order (deterministic, but not sorted: callers sort the few pairs they act on, which is much
// cheaper than sorting all). Pairs are within each cloth (self collision), between cloths, and between each cloth and
// each obstacle; never between two obstacles, nor between a pinned node and an obstacle face.
#include <vector>

#include "collision/bvh.h"
#include "collision/candidates.h"
#include "collision/collision_mesh.h"
#include "collision/wide_bvh.h"

namespace adacloth {

// Swept boxes of a step, not grown (buffers reused from step to step, as allocating them costs page faults).
//
// They are swept in a frame that moves with the step's common displacement `shift` (m): from x0 to x1 - shift. Two
// primitives' relative motion is the same in any frame moving at a constant velocity, and so are their distances,
// so a pair that comes within a reach in the world comes within it there too; but a character walking or running
// through the shot carries its garment centimetres a step, and boxes swept in the world stretched by that much
// overlapped far more boxes than their motion relative to each other warrants. Tests of pairs (proximity, CCD) are
// made on the world positions.
//
// `edge` holds the boxes of the cloths' edges only (they come first in the collision mesh): an obstacle's edge is
// asked about only by the narrowed tests (findCandidates' obstacleReach) and gets its box from its nodes' when asked
// (edgeBox()); a character's 40,000 edge boxes a step had been half of the boxes computed.
struct PrimitiveBoxes {
  std::vector<Aabb> node, edge, face;
  Vec3 shift = Vec3::Zero();
};

// The box of edge e, kept or made from its nodes' boxes (as primitiveBoxes() would have kept it).
inline Aabb edgeBox(const CollisionMesh& w, const PrimitiveBoxes& b, int e) {
  if (size_t(e) < b.edge.size()) return b.edge[e];
  Aabb box = b.node[w.edges[e][0]];
  box.add(b.node[w.edges[e][1]]);
  return box;
}

// The displacement over the step (x1 - x0) that most nodes share: its per-axis median, over every eighth node. The
// median makes the boxes' total length along each axis least; the sample keeps it cheap.
Vec3 commonDisplacement(const CollisionState& s);

// Per body of the collision mesh, a tree over its face boxes, kept from step to step: refitted when the body keeps
// its faces, rebuilt at its next update when it is marked stale (its faces changed, see changedBodies()).
struct FaceTrees {
  std::vector<WideBvh> trees;
  std::vector<char> stale;  // per body: 1 = rebuild at the next update
};

// Marks stale the trees of the bodies flagged in `changed` (one flag per body of the new collision mesh).
void markStale(FaceTrees& trees, const std::vector<char>& changed);

// Fills `b` with the swept boxes of every node, edge and face, in the frame of commonDisplacement(s).
void primitiveBoxes(const CollisionMesh& w, const CollisionState& s, PrimitiveBoxes& b);

// Face trees of every body from the face boxes: rebuilt when stale (or sized for other faces), else refitted (an
// OBJ sequence or a moving cloth keeps its faces). `bodies` selects which to update (null: all).
void updateTrees(const CollisionMesh& w, const std::vector<Aabb>& faceBox, FaceTrees& trees,
                 const std::vector<char>* bodies);

// The test the broad phase applies to a pair's own boxes at `reach` (m).
inline bool boxesOverlap(const CollisionMesh& w, const PrimitiveBoxes& b, const Candidate& c, double reach) {
  const double grow = 0.5 * reach;
  return c.edgeEdge ? edgeBox(w, b, c.a).overlapsGrown(edgeBox(w, b, c.b), grow)
                    : b.node[c.a].overlapsGrown(b.face[c.b], grow);
}

// Pairs whose swept boxes come within `reach` (m) of each other, each once, in traversal order. `boxes` and the trees
// are recomputed for the state `s` and left holding its boxes.
//
// With `obstacleReach` (m, at most `reach`), the pairs of an obstacle's node with a cloth face and of an obstacle's
// edge with a cloth edge come out only when their boxes come within about that reach (a little more: the test is
// made on the boxes at `reach`, shrunk, and errs towards a pair). The proximity pass keeps only cloth nodes off
// obstacle faces, so at its thickness the other obstacle pairs are wanted only by the CCD passes, at their far
// smaller tolerance: on skirt_walk they were most of the pairs the thickness found.
std::vector<Candidate> findCandidates(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p,
                                      FaceTrees& trees, double reach, PrimitiveBoxes& boxes,
                                      double obstacleReach = -1);

// The incremental broad phase, for passes that moved a few nodes since `boxes` and the trees were computed: it costs
// in proportion to the moved nodes, not to the mesh.
struct MovedNodes {
  std::vector<char> flag;  // per node of the collision mesh: 1 = moved
  std::vector<int> list;   // the flagged nodes, ascending
};

// Recomputes the boxes of the moved nodes and of the edges and faces holding them; refits the trees of the bodies
// holding such faces.
void updateMovedBoxes(const CollisionMesh& w, const CollisionState& s, const MovedNodes& moved, PrimitiveBoxes& boxes,
                      FaceTrees& trees);
// The pairs with a moved node whose boxes come within `reach` (m), in no particular order (boxes and trees current).
std::vector<Candidate> movedCandidates(const CollisionMesh& w, const CollisionState& s, const CollisionParams& p,
                                       const FaceTrees& trees, const PrimitiveBoxes& boxes, double reach,
                                       const MovedNodes& moved);

}  // namespace adacloth
