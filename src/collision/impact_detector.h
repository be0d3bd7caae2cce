#pragma once
// The CCD queries of one step: every pair that touches while approaching, earliest first. The first call tests every
// candidate pair (taken from the proximity pass's candidates when seeded, plus the pairs of nodes that moved far
// since); later calls (after impulses or impact zones moved a few nodes) re-test only the pairs with a node that
// moved since the previous call: any other pair has the same swept boxes, so the same candidate status, and the same
// four positions, so the same CCD answer. New pairs of moved nodes can only come from face pairs with a face holding
// a moved node, which asks the trees for the faces near it. The answer equals a full recomputation every pass (the
// output bytes of the character shots did not change), at the cost of the pairs that changed.
#include <optional>
#include <vector>

#include "collision/broad_phase.h"
#include "collision/candidates.h"
#include "collision/collision_mesh.h"

namespace adacloth {

class ImpactDetector {
 public:
  // `trees` and `boxes` are the broad phase's (kept in the collision cache; not grown, so the proximity pass's serve
  // here too); `st.ccdTests` counts the pairs tested.
  ImpactDetector(const CollisionParams& p, FaceTrees& trees, PrimitiveBoxes& boxes, CollisionStepStats& st)
      : params_(p), trees_(trees), stats_(st), tolerance_(ccdTolerance(p)), boxes_(boxes) {}

  // Candidate pairs (any order) found at `reach` (m; at least that for every kind of pair, and more than the
  // tolerance) for the end positions `x1` of the cloths' nodes (clothCounts(); the obstacles' never move within a
  // step), with the boxes and trees this detector holds (the proximity pass's). The first call then needs no full
  // traversal: a pair within the tolerance whose nodes moved less than half the difference of the two reaches since
  // (along every axis) was within `reach` at `x1`, so it is a seed pair; only the nodes that moved farther have their
  // pairs looked for, and only the moved nodes' boxes are recomputed.
  void seed(std::vector<Candidate> cands, std::vector<Vec3> x1, double reach) {
    seed_ = std::move(cands);
    seen_ = std::move(x1);
    seedReach_ = reach;
    seeded_ = true;
  }

  // Every pair colliding during the step for the current state, earliest first; ties in candidate order.
  std::vector<Hit> detect(const CollisionMesh& w, const CollisionState& s);

 private:
  // The pairs of `cands` (sorted) that collide, in candidate order.
  std::vector<Hit> test(const CollisionMesh& w, const CollisionState& s, const std::vector<Candidate>& cands);
  void testAll(const CollisionMesh& w, const CollisionState& s);
  void testFromSeed(const CollisionMesh& w, const CollisionState& s);
  void retestMoved(const CollisionMesh& w, const CollisionState& s);
  bool movedNodes(const CollisionState& s, MovedNodes& moved) const;

  const CollisionParams& params_;
  FaceTrees& trees_;
  CollisionStepStats& stats_;
  const double tolerance_;  // contact distance of the CCD queries (m)
  PrimitiveBoxes& boxes_;   // swept boxes (not grown) as of the last call or the seed (buffers kept in the cache)
  std::vector<Vec3> seen_;  // end-of-step positions at the last call or the seed (empty before the first)
  std::vector<Candidate> seed_;
  double seedReach_ = 0;  // m
  bool seeded_ = false;
  // The colliding pairs among every candidate pair tested, in candidate order. The others need not be kept: a pair
  // without a moved node keeps its answer, and a pair with one is found and tested again (retestMoved()).
  std::vector<Hit> hits_;
};

}  // namespace adacloth
