#pragma once
// A bounding volume hierarchy of axis-aligned boxes, one primitive per leaf. Built top-down by median splits; refit
// bottom-up when the primitives move (every step) and rebuilt when they change (after remeshing).
// Traversals are serial and visit pairs in a fixed order, so whatever collects their output is deterministic.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

struct Aabb {
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  void add(const Vec3& p) { lo = lo.cwiseMin(p); hi = hi.cwiseMax(p); }
  void add(const Aabb& b) { lo = lo.cwiseMin(b.lo); hi = hi.cwiseMax(b.hi); }
  bool contains(const Vec3& p) const { return (lo.array() <= p.array()).all() && (p.array() <= hi.array()).all(); }
  void inflate(double r) { lo.array() -= r; hi.array() += r; }
  bool overlaps(const Aabb& b) const { return (lo.array() <= b.hi.array()).all() && (b.lo.array() <= hi.array()).all(); }
  // overlaps() of the two boxes each grown by `grow` (m), rounded as inflate() rounds: the same answer bit for bit.
  // Boxes kept ungrown serve tests at several reaches (the collision phase's thickness and CCD tolerance).
  // Written out without a branch per axis: most tests of a broad phase's primitive pairs fail on some axis, and
  // branches that stop early mispredicted most of them.
  bool overlapsGrown(const Aabb& b, double grow) const {
    bool overlap = true;
    for (int k = 0; k < 3; ++k) overlap &= (lo[k] - grow <= b.hi[k] + grow) & (b.lo[k] - grow <= hi[k] + grow);
    return overlap;
  }
  // Squared distance (m^2) from p to the box; 0 inside.
  double squaredDistance(const Vec3& p) const { return (lo - p).cwiseMax(p - hi).cwiseMax(0.0).squaredNorm(); }
  // Half the surface area (m^2), the measure trees are judged by; 0 for an empty box (a tree of a remeshed cloth
  // keeps places of removed faces).
  double halfArea() const {
    const Vec3 d = hi - lo;
    if ((d.array() < 0.0).any()) return 0.0;
    return d.x() * d.y() + d.y() * d.z() + d.z() * d.x();
  }
};

// Sorts ids[begin, end) about their median along `axis` of their centres, ties broken by id so that a tree does not
// depend on the standard library's nth_element, and returns the median's place. `keys` is scratch: the keys are
// copied out next to their ids first, as selecting through ids -> centres cost a cache miss per comparison.
int medianSplit(std::vector<int>& ids, const std::vector<Vec3>& centres, int axis, int begin, int end,
                std::vector<std::pair<double, int>>& keys);

class Bvh {
 public:
  void build(const std::vector<Aabb>& boxes) { build(boxes.data(), boxes.size()); }
  void build(const Aabb* boxes, size_t count);  // the boxes of primitives 0 .. count - 1
  // Same primitives, new boxes (boxes.size() must equal the size built with). Returns the inner nodes' total box
  // area over that total at the build: 1 after a rigid motion, more as deformations make the build's grouping of
  // primitives loose, so that traversals visit more nodes; a caller rebuilds when it has grown too much.
  double refit(const std::vector<Aabb>& boxes) { return refit(boxes.data()); }
  double refit(const Aabb* boxes);  // the boxes of primitives 0 .. primitiveCount() - 1
  // Refits for the same count of primitives while the refit stays tight (inner boxes within kLooseRefit times their
  // area at the build), else builds anew: for trees kept through many steps or remesh batches of a moving surface.
  static constexpr double kLooseRefit = 1.5;
  void update(const Aabb* boxes, size_t count) {
    if (count != primitives_ || refit(boxes) > kLooseRefit) build(boxes, count);
  }
  size_t primitiveCount() const { return primitives_; }
  bool empty() const { return nodes_.empty(); }

  // Every pair (i, j), i != j, of primitives of this tree whose boxes overlap, each pair once. `visit(i, j)` is any
  // callable (a template, not std::function: it runs once per overlapping leaf pair, millions of times a step).
  // With `grow` (m), boxes count as grown by it (Aabb::overlapsGrown): a tree serves several reaches.
  template <class Visit>
  void selfOverlaps(Visit&& visit, double grow = 0) const {
    if (!nodes_.empty()) selfRecurse(0, grow, visit);
  }
  // Every pair (i in this, j in other) whose boxes overlap.
  template <class Visit>
  void overlaps(const Bvh& other, Visit&& visit, double grow = 0) const {
    if (!nodes_.empty() && !other.nodes_.empty()) pairRecurse(other, 0, 0, grow, visit);
  }

  // Every primitive whose box overlaps `box`, in tree order (with `grow`, both boxes counting as grown by it).
  template <class Visit>
  void query(const Aabb& box, Visit&& visit, double grow = 0) const {
    if (!nodes_.empty()) queryRecurse(0, box, grow, visit);
  }

  // Visits primitives whose boxes lie within sqrt(squaredBound) of p, nearer subtrees first; `visit(i)` returns the
  // new squared bound (the best distance found so far), which prunes the rest. A template with a stack on the call's
  // own frame: the solve's obstacle contacts ask once per cloth node and step, and a heap stack and std::function
  // per query were a visible part of a character shot's frame.
  template <class Visit>
  void nearest(const Vec3& p, double squaredBound, Visit&& visit) const;

 private:
  struct Node {
    Aabb box;
    int left = -1, right = -1;  // children; -1 for a leaf
    int primitive = -1;         // leaf only
  };
  int buildRange(std::vector<int>& ids, const std::vector<Vec3>& centres, const Aabb* boxes, int begin, int end);
  double innerArea() const;  // m^2: the summed half surface areas of the inner nodes' boxes
  template <class Visit>
  void queryRecurse(int n, const Aabb& box, double grow, Visit& visit) const {
    const Node& node = nodes_[n];
    if (!node.box.overlapsGrown(box, grow)) return;
    if (node.left < 0) {
      visit(node.primitive);
      return;
    }
    queryRecurse(node.left, box, grow, visit);
    queryRecurse(node.right, box, grow, visit);
  }
  template <class Visit>
  void selfRecurse(int n, double grow, Visit& visit) const {
    const Node& node = nodes_[n];
    if (node.left < 0) return;
    selfRecurse(node.left, grow, visit);
    selfRecurse(node.right, grow, visit);
    pairRecurse(*this, node.left, node.right, grow, visit);
  }
  template <class Visit>
  void pairRecurse(const Bvh& b, int na, int nb, double grow, Visit& visit) const {
    const Node& x = nodes_[na];
    const Node& y = b.nodes_[nb];
    if (!x.box.overlapsGrown(y.box, grow)) return;
    const bool xLeaf = x.left < 0, yLeaf = y.left < 0;
    if (xLeaf && yLeaf) {
      visit(x.primitive, y.primitive);
    } else if (yLeaf || (!xLeaf && (x.box.hi - x.box.lo).sum() >= (y.box.hi - y.box.lo).sum())) {
      pairRecurse(b, x.left, nb, grow, visit);
      pairRecurse(b, x.right, nb, grow, visit);
    } else {
      pairRecurse(b, na, y.left, grow, visit);
      pairRecurse(b, na, y.right, grow, visit);
    }
  }
  std::vector<Node> nodes_;  // root at 0, children after their parent
  std::vector<int> ids_;      // build scratch, kept to avoid reallocating
  std::vector<Vec3> centres_;
  std::vector<std::pair<double, int>> keys_;  // build scratch: one range's split coordinates and ids
  size_t primitives_ = 0;
  double builtArea_ = 0;  // innerArea() at the build
};

template <class Visit>
void Bvh::nearest(const Vec3& p, double squaredBound, Visit&& visit) const {
  if (nodes_.empty()) return;
  // Median splits keep the depth within log2(primitives) + 1, and a visit pushes at most one more node than it
  // pops, so the stack never holds more than the depth + 1 entries.
  std::array<int, 130> stack;
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (n.box.squaredDistance(p) > squaredBound) continue;
    if (n.left < 0) {
      squaredBound = std::min(squaredBound, double(visit(n.primitive)));
      continue;
    }
    const double dl = nodes_[n.left].box.squaredDistance(p), dr = nodes_[n.right].box.squaredDistance(p);
    // Push the farther child first so the nearer one is explored first and tightens the bound early.
    stack[top++] = dl <= dr ? n.right : n.left;
    stack[top++] = dl <= dr ? n.left : n.right;
  }
}

}  // namespace adacloth
