#pragma once
// A bounding volume hierarchy of axis-aligned boxes, one primitive per leaf. Built top-down by median splits; refit
// bottom-up when the primitives move (every step) and rebuilt when they change (after remeshing).
// Traversals are serial and visit pairs in a fixed order, so whatever collects their output is deterministic.
#include <functional>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

struct Aabb {
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  void add(const Vec3& p) { lo = lo.cwiseMin(p); hi = hi.cwiseMax(p); }
  void add(const Aabb& b) { lo = lo.cwiseMin(b.lo); hi = hi.cwiseMax(b.hi); }
  void inflate(double r) { lo.array() -= r; hi.array() += r; }
  bool overlaps(const Aabb& b) const { return (lo.array() <= b.hi.array()).all() && (b.lo.array() <= hi.array()).all(); }
  // Squared distance (m^2) from p to the box; 0 inside.
  double squaredDistance(const Vec3& p) const { return (lo - p).cwiseMax(p - hi).cwiseMax(0.0).squaredNorm(); }
};

class Bvh {
 public:
  void build(const std::vector<Aabb>& boxes);
  // Same primitives, new boxes (boxes.size() must equal the size built with).
  void refit(const std::vector<Aabb>& boxes);
  size_t primitiveCount() const { return primitives_; }
  bool empty() const { return nodes_.empty(); }

  // Every pair (i, j), i != j, of primitives of this tree whose boxes overlap, each pair once.
  void selfOverlaps(const std::function<void(int, int)>& visit) const;
  // Every pair (i in this, j in other) whose boxes overlap.
  void overlaps(const Bvh& other, const std::function<void(int, int)>& visit) const;
  // Visits primitives whose boxes lie within sqrt(bound()) of p, nearer subtrees first; `visit` returns the new
  // squared bound (the best distance found so far), which prunes the rest.
  void nearest(const Vec3& p, double squaredBound, const std::function<double(int)>& visit) const;

 private:
  struct Node {
    Aabb box;
    int left = -1, right = -1;  // children; -1 for a leaf
    int primitive = -1;         // leaf only
  };
  int buildRange(std::vector<int>& ids, const std::vector<Vec3>& centres, const std::vector<Aabb>& boxes, int begin,
                 int end);
  void selfRecurse(int n, const std::function<void(int, int)>& visit) const;
  void pairRecurse(const Bvh& b, int na, int nb, const std::function<void(int, int)>& visit) const;
  std::vector<Node> nodes_;  // root at 0, children after their parent
  size_t primitives_ = 0;
};

}  // namespace adacloth
