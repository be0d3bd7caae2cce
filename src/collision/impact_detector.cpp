#include "collision/impact_detector.h"

#include <algorithm>

#include "collision/obstacle_side.h"

namespace adacloth {

std::vector<Hit> ImpactDetector::detect(const CollisionMesh& w, const CollisionState& s) {
  if (seeded_) testFromSeed(w, s); else if (seen_.empty()) testAll(w, s); else retestMoved(w, s);
  seeded_ = false;
  seen_.assign(s.x1.begin(), s.x1.begin() + clothCounts(w).nodes);
  std::vector<Hit> hits = hits_;
  // Earliest first; ties in candidate order (stable sort), so the result does not depend on thread scheduling.
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.g.t < b.g.t; });
  return hits;
}

std::vector<Hit> ImpactDetector::test(const CollisionMesh& w, const CollisionState& s,
                                      const std::vector<Candidate>& cands) {
  // A pair with an obstacle is a collision only if it ends the step inside the obstacle or within the tolerance of
  // it (obstacle_side.h): cloth that went round an edge or a corner of a moving obstacle during the step may cross
  // the lines of the obstacle's features between two clean states, and pushing it back to its start side put it in.
  std::vector<Hit> hits = contactsInOrder(cands, [&](const Candidate& c) {
    std::optional<ContactGeometry> hit = candidateCCD(c, movingPoints(s, candidateNodes(w, c)), tolerance_);
    if (hit && isObstaclePair(w, c) && endsClearOfObstacle(w, s, c, tolerance_))
      return std::optional<ContactGeometry>();
    return hit;
  });
  stats_.ccdTests += long(cands.size());
  return hits;
}

void ImpactDetector::testAll(const CollisionMesh& w, const CollisionState& s) {
  std::vector<Candidate> cands = findCandidates(w, s, params_, trees_, tolerance_, boxes_);
  sortCandidates(cands);
  hits_ = test(w, s, cands);
}

// Nodes whose end position changed since the last call (or the seed). Only the cloths' nodes can have (`seen_`
// holds them alone): no pass moves a node without mass, and an obstacle's have none. On a character shot its nodes
// were most of what every call compared and copied.
bool ImpactDetector::movedNodes(const CollisionState& s, MovedNodes& moved) const {
  moved.flag.assign(s.x1.size(), 0);
  moved.list.clear();
  for (size_t i = 0; i < seen_.size(); ++i)
    if (s.x1[i] != seen_[i]) {
      moved.flag[i] = 1;
      moved.list.push_back(int(i));
    }
  return !moved.list.empty();
}

// The seed's pairs without a far-moved node whose boxes overlap at the tolerance, merged with the pairs of the
// far-moved nodes (seed()). The boxes and trees are the seed's: only the moved nodes' boxes are recomputed. The
// proximity pass and the limiter move a few percent of a garment's nodes, nearly all by less than a millimetre: a
// traversal for every moved node cost as much as a third of the proximity pass's own.
void ImpactDetector::testFromSeed(const CollisionMesh& w, const CollisionState& s) {
  MovedNodes moved;
  movedNodes(s, moved);
  updateMovedBoxes(w, s, moved, boxes_, trees_);
  // A node whose swept box grew by at most `within` along every axis keeps its pairs within the tolerance among the
  // seed's. A nanometre less, for the rounding of the boxes.
  const double within = 0.5 * (seedReach_ - tolerance_) - 1e-9;
  MovedNodes far;
  far.flag.assign(moved.flag.size(), 0);
  for (int i : moved.list)
    if ((s.x1[i] - seen_[i]).cwiseAbs().maxCoeff() > within) {
      far.flag[i] = 1;
      far.list.push_back(i);
    }
  std::vector<Candidate> fresh = movedCandidates(w, s, params_, trees_, boxes_, tolerance_, far);
  sortCandidates(fresh);
  std::vector<Candidate> kept;
  for (const Candidate& c : seed_)
    if (!touchesFlagged(candidateNodes(w, c), far.flag) && boxesOverlap(w, boxes_, c, tolerance_)) kept.push_back(c);
  sortCandidates(kept);
  std::vector<Candidate> cands(fresh.size() + kept.size());
  std::merge(fresh.begin(), fresh.end(), kept.begin(), kept.end(), cands.begin());
  seed_.clear();
  hits_ = test(w, s, cands);
}

void ImpactDetector::retestMoved(const CollisionMesh& w, const CollisionState& s) {
  MovedNodes moved;
  if (!movedNodes(s, moved)) return;
  updateMovedBoxes(w, s, moved, boxes_, trees_);
  std::vector<Candidate> fresh = movedCandidates(w, s, params_, trees_, boxes_, tolerance_, moved);
  sortCandidates(fresh);
  std::vector<Hit> retested = test(w, s, fresh);
  // The pairs without a moved node keep their answer; merged with the new ones in candidate order.
  std::vector<Hit> merged;
  merged.reserve(hits_.size() + retested.size());
  auto r = retested.begin();
  for (const Hit& h : hits_) {
    if (touchesFlagged(candidateNodes(w, h.candidate), moved.flag)) continue;
    for (; r != retested.end() && r->candidate < h.candidate; ++r) merged.push_back(*r);
    merged.push_back(h);
  }
  merged.insert(merged.end(), r, retested.end());
  hits_ = std::move(merged);
}

}  // namespace adacloth
