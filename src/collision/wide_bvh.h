#pragma once
// A four-wide bounding volume hierarchy for the collision code's hot traversals (the broad phase, the obstacle
// field's nearest-point queries, the intersection count): each node holds its children's boxes side by side in
// single precision, so that one node read and one vector comparison test a box against all four. Built top down,
// each node's range split in two and each half in two again where the binned surface area heuristic says.
//
// Why not Bvh: the broad phase traverses every pair of overlapping nodes of a cloth's tree with itself and with each
// obstacle's, once per step, and on a garment most node pairs it reaches overlap (skirt_walk: 70,000 of 95,000 per
// step). Bvh spent a call, two 64-byte node reads and twelve double comparisons per pair; here a node pair costs one
// node read and a mask of four tests, and the tree is half as deep.
//
// The boxes are rounded outwards to floats (and a query box widened by a millionth of its coordinates besides), so a
// test never misses a pair that the exact test in double precision (Aabb::overlapsGrown) finds; it may report a few
// more, within about a micrometre per metre of coordinates. Callers that need the exact answer test the primitives'
// own boxes again, as the broad phase does for every candidate pair. So the pairs a caller keeps do not depend on
// the tree; the order of the visits does (callers sort what they act on).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "collision/bvh.h"

namespace adacloth {

class WideBvh {
 public:
  // The boxes of primitives 0 .. count - 1. With `corners` (one triangle of node numbers per primitive, copied into
  // the tree), selfOverlaps() leaves out pairs of primitives that share a node, four at a time: a mesh's faces
  // overlap their neighbours', and those were most of a cloth's pairs (11,000 of 15,000 a step on skirt_walk), which
  // its callers drop.
  void build(const Aabb* boxes, size_t count, const Tri* corners = nullptr);
  // Same primitives, new boxes. Returns the inner nodes' total box area over that total at the build (as Bvh::refit).
  double refit(const Aabb* boxes);
  // Refits while the refit stays tight (within Bvh::kLooseRefit of the build's area), else builds anew.
  void update(const Aabb* boxes, size_t count, const Tri* corners = nullptr) {
    if (count != primitives_ || refit(boxes) > Bvh::kLooseRefit) build(boxes, count, corners);
  }
  size_t primitiveCount() const { return primitives_; }
  bool empty() const { return primitives_ == 0; }
  int depth() const;  // nodes on the longest path from the root to a primitive (0 when empty)

  // Every pair (i, j), i != j, of primitives whose boxes, each grown by `grow` (m), may overlap: every pair that
  // does, each once, in no guaranteed order of i and j (built with `corners`: every such pair sharing no node).
  // `visit(i, j)` is any callable.
  template <class Visit>
  void selfOverlaps(Visit&& visit, double grow) const;
  // Every pair (i in this, j in other) whose grown boxes may overlap, each once.
  template <class Visit>
  void overlaps(const WideBvh& other, Visit&& visit, double grow) const;
  // Every primitive whose box may overlap `box`, both grown by `grow` (m).
  template <class Visit>
  void query(const Aabb& box, Visit&& visit, double grow) const;
  // Visits every primitive whose box lies within sqrt(squaredBound) of p (and maybe some a millionth further),
  // nearer subtrees first; `visit(i)` returns the new squared bound (m^2, the best distance found so far), which
  // prunes the rest. As Bvh::nearest, with the four children's distances computed at once.
  template <class Visit>
  void nearest(const Vec3& p, double squaredBound, Visit&& visit) const;

 private:
  // A box in single precision, rounded outwards.
  struct Box {
    float lo[3], hi[3];
  };
  // A child slot: an inner node (ref >= 0), a primitive (ref = -2 - primitive) or nothing (-1, an empty box).
  struct Item {
    int ref;
    Box box;
    int corner[3];  // a primitive's corners (built with them), else -1
  };
  struct alignas(16) Node {
    float lo[3][4], hi[3][4];  // [axis][child]
    int corner[3][4];          // [corner][child]: a primitive child's corners (built with them), else -1
    int child[4];
  };
  static constexpr int kNone = -1;
  static int primitiveOf(int ref) { return -2 - ref; }
  static Box grownBox(const Box& b, float grow2);
  static unsigned overlapMask(const Node& n, const Box& query);  // bit i: child i's box overlaps `query`
  static Item childItem(const Node& n, int i);
  static unsigned sharedMask(const Node& n, const int corner[3]);  // bit i: child i has one of the corners
  static bool overlap(const Box& a, const Box& query) {  // `query` grown already
    bool overlap = true;
    for (int k = 0; k < 3; ++k) overlap &= a.lo[k] <= query.hi[k] && query.lo[k] <= a.hi[k];
    return overlap;
  }
  static float extent(const Box& b) { return (b.hi[0] - b.lo[0]) + (b.hi[1] - b.lo[1]) + (b.hi[2] - b.lo[2]); }
  static float grownBy(double grow);  // twice `grow`, rounded up: each box of a pair counts as grown by `grow`
  // Lower bounds of the squared distances (m^2) from p (as floats, with `slack` per axis: a millionth of 2 |p| and
  // a little more) to the node's four child boxes; +inf for an empty slot.
  static void squaredDistances(const Node& n, const float p[3], const float slack[3], float out[4]);

  double refitArea(const Aabb* boxes);  // m^2: the summed half surface areas of the inner nodes' boxes
  int buildRange(const std::vector<Vec3>& centres, const Tri* corners, int begin, int end, int depth);
  int splitRange(const std::vector<Vec3>& centres, int begin, int end, bool median);

  template <class Visit>
  void selfNode(int n, float grow2, Visit& visit) const;
  template <bool kSelf, class Visit>
  void pairItems(const WideBvh& b, const Item& x, const Item& y, float grow2, Visit& visit) const;
  template <class Visit>
  void queryNode(int n, const Box& query, Visit& visit) const;

  std::vector<Node> nodes_;  // root at 0 (when there are two primitives or more), children after their parent
  Item root_{kNone, {}, {-1, -1, -1}};
  std::vector<int> ids_;                      // build scratch
  const Aabb* buildBoxes_ = nullptr;          // during a build: the primitives' boxes
  std::vector<std::pair<double, int>> keys_;  // build scratch: one range's split coordinates and ids
  size_t primitives_ = 0;
  bool hasCorners_ = false;  // built with corners: primitive children's corners hold node numbers, the rest -1
  double builtArea_ = 0;
};

// Widened by a millionth of its size, far more than the rounding of a float sum (6e-8 of it): a grown query box then
// holds every point the exact (double) test would accept, whatever the rounding of its corners.
inline WideBvh::Box WideBvh::grownBox(const Box& b, float grow2) {
  Box g;
  for (int k = 0; k < 3; ++k) {
    const float lo = b.lo[k] - grow2, hi = b.hi[k] + grow2;
    g.lo[k] = lo - (std::fabs(lo) * 1e-6f + 1e-30f);
    g.hi[k] = hi + (std::fabs(hi) * 1e-6f + 1e-30f);
  }
  return g;
}

inline unsigned WideBvh::overlapMask(const Node& n, const Box& q) {
#if defined(__SSE2__)
  __m128 m = _mm_and_ps(_mm_cmple_ps(_mm_load_ps(n.lo[0]), _mm_set1_ps(q.hi[0])),
                        _mm_cmple_ps(_mm_set1_ps(q.lo[0]), _mm_load_ps(n.hi[0])));
  m = _mm_and_ps(m, _mm_and_ps(_mm_cmple_ps(_mm_load_ps(n.lo[1]), _mm_set1_ps(q.hi[1])),
                               _mm_cmple_ps(_mm_set1_ps(q.lo[1]), _mm_load_ps(n.hi[1]))));
  m = _mm_and_ps(m, _mm_and_ps(_mm_cmple_ps(_mm_load_ps(n.lo[2]), _mm_set1_ps(q.hi[2])),
                               _mm_cmple_ps(_mm_set1_ps(q.lo[2]), _mm_load_ps(n.hi[2]))));
  return unsigned(_mm_movemask_ps(m));
#else
  unsigned mask = 0;
  for (int i = 0; i < 4; ++i) {
    bool overlap = true;
    for (int k = 0; k < 3; ++k) overlap &= n.lo[k][i] <= q.hi[k] && q.lo[k] <= n.hi[k][i];
    mask |= unsigned(overlap) << i;
  }
  return mask;
#endif
}

inline WideBvh::Item WideBvh::childItem(const Node& n, int i) {
  return {n.child[i],
          {{n.lo[0][i], n.lo[1][i], n.lo[2][i]}, {n.hi[0][i], n.hi[1][i], n.hi[2][i]}},
          {n.corner[0][i], n.corner[1][i], n.corner[2][i]}};
}

inline unsigned WideBvh::sharedMask(const Node& n, const int corner[3]) {
#if defined(__SSE2__)
  __m128i any = _mm_setzero_si128();
  for (int k = 0; k < 3; ++k) {
    const __m128i c = _mm_load_si128(reinterpret_cast<const __m128i*>(n.corner[k]));
    for (int j = 0; j < 3; ++j) any = _mm_or_si128(any, _mm_cmpeq_epi32(c, _mm_set1_epi32(corner[j])));
  }
  return unsigned(_mm_movemask_ps(_mm_castsi128_ps(any)));
#else
  unsigned mask = 0;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j) mask |= unsigned(n.corner[k][i] == corner[j]) << i;
  return mask;
#endif
}

template <class Visit>
void WideBvh::selfOverlaps(Visit&& visit, double grow) const {
  if (root_.ref >= 0) selfNode(root_.ref, grownBy(grow), visit);
}

template <class Visit>
void WideBvh::overlaps(const WideBvh& other, Visit&& visit, double grow) const {
  if (root_.ref == kNone || other.root_.ref == kNone) return;
  const float grow2 = grownBy(grow);
  if (!overlap(root_.box, grownBox(other.root_.box, grow2))) return;
  if (root_.ref < 0 && other.root_.ref < 0) visit(primitiveOf(root_.ref), primitiveOf(other.root_.ref));
  else pairItems<false>(other, root_, other.root_, grow2, visit);
}

template <class Visit>
void WideBvh::query(const Aabb& box, Visit&& visit, double grow) const {
  if (root_.ref == kNone) return;
  Box b;
  for (int k = 0; k < 3; ++k) b.lo[k] = float(box.lo[k]), b.hi[k] = float(box.hi[k]);
  const Box q = grownBox(b, grownBy(grow));  // the widening covers the rounding of box to floats
  if (!overlap(root_.box, q)) return;
  if (root_.ref >= 0) queryNode(root_.ref, q, visit);
  else visit(primitiveOf(root_.ref));
}

template <class Visit>
void WideBvh::selfNode(int n, float grow2, Visit& visit) const {
  const Node& node = nodes_[n];
  for (int i = 0; i < 4; ++i)
    if (node.child[i] >= 0) selfNode(node.child[i], grow2, visit);
  for (int i = 0; i < 3; ++i) {
    if (node.child[i] == kNone) continue;
    const Item a = childItem(node, i);
    unsigned mask = overlapMask(node, grownBox(a.box, grow2)) & (0xEu << i) & 0xFu;
    if (hasCorners_ && a.ref < 0) mask &= ~sharedMask(node, a.corner);
    while (mask) {
      const int j = __builtin_ctz(mask);
      mask &= mask - 1;
      if (a.ref < 0 && node.child[j] < 0) visit(primitiveOf(a.ref), primitiveOf(node.child[j]));
      else pairItems<true>(*this, a, childItem(node, j), grow2, visit);
    }
  }
}

template <bool kSelf, class Visit>
void WideBvh::pairItems(const WideBvh& b, const Item& x, const Item& y, float grow2, Visit& visit) const {
  // Descend the larger of the two, as Bvh does: fewer node pairs overlap. Pairs of two primitives are visited here,
  // not in a call of their own: they are most of the pairs a broad phase reaches. Within one tree, a primitive's
  // pairs with primitives sharing a corner are left out four at a time.
  if (y.ref < 0 || (x.ref >= 0 && extent(x.box) >= extent(y.box))) {
    const Node& n = nodes_[x.ref];
    unsigned mask = overlapMask(n, grownBox(y.box, grow2));
    if (kSelf && hasCorners_ && y.ref < 0) mask &= ~sharedMask(n, y.corner);
    while (mask) {
      const int i = __builtin_ctz(mask);
      mask &= mask - 1;
      if (n.child[i] < 0 && y.ref < 0) visit(primitiveOf(n.child[i]), primitiveOf(y.ref));
      else pairItems<kSelf>(b, childItem(n, i), y, grow2, visit);
    }
  } else {
    const Node& n = b.nodes_[y.ref];
    unsigned mask = overlapMask(n, grownBox(x.box, grow2));
    if (kSelf && hasCorners_ && x.ref < 0) mask &= ~sharedMask(n, x.corner);
    while (mask) {
      const int i = __builtin_ctz(mask);
      mask &= mask - 1;
      if (x.ref < 0 && n.child[i] < 0) visit(primitiveOf(x.ref), primitiveOf(n.child[i]));
      else pairItems<kSelf>(b, x, childItem(n, i), grow2, visit);
    }
  }
}

inline void WideBvh::squaredDistances(const Node& n, const float p[3], const float slack[3], float out[4]) {
  // The gap along an axis, computed in floats, errs by at most ~2e-7 of (gap + 2 |p|) (the boxes are rounded
  // outwards besides): shrinking it by a millionth of itself and by `slack` leaves a lower bound of the exact one.
#if defined(__SSE2__)
  __m128 sum = _mm_setzero_ps();
  for (int k = 0; k < 3; ++k) {
    const __m128 pk = _mm_set1_ps(p[k]);
    __m128 gap = _mm_max_ps(_mm_max_ps(_mm_sub_ps(_mm_load_ps(n.lo[k]), pk), _mm_sub_ps(pk, _mm_load_ps(n.hi[k]))),
                            _mm_setzero_ps());
    gap = _mm_max_ps(_mm_sub_ps(_mm_mul_ps(gap, _mm_set1_ps(1.0f - 1e-6f)), _mm_set1_ps(slack[k])), _mm_setzero_ps());
    sum = _mm_add_ps(sum, _mm_mul_ps(gap, gap));
  }
  _mm_storeu_ps(out, _mm_mul_ps(sum, _mm_set1_ps(1.0f - 1e-6f)));
#else
  for (int i = 0; i < 4; ++i) {
    float sum = 0;
    for (int k = 0; k < 3; ++k) {
      float gap = std::max(std::max(n.lo[k][i] - p[k], p[k] - n.hi[k][i]), 0.0f);
      gap = std::max(gap * (1.0f - 1e-6f) - slack[k], 0.0f);
      sum += gap * gap;
    }
    out[i] = sum * (1.0f - 1e-6f);
  }
#endif
  // An empty slot (lo +inf, hi -inf) gives inf - p and p + inf: +inf, never visited.
}

template <class Visit>
void WideBvh::nearest(const Vec3& x, double squaredBound, Visit&& visit) const {
  if (root_.ref == kNone) return;
  float p[3], slack[3];
  for (int k = 0; k < 3; ++k) {
    p[k] = float(x[k]);
    slack[k] = 2e-6f * std::fabs(p[k]) + 1e-30f;
  }
  if (root_.ref < 0) {
    visit(primitiveOf(root_.ref));
    return;
  }
  // Entries hold a child ref and its distance bound. Each pop pushes at most four, and the depth is at most
  // kMaxSahDepth + log4(primitives) + 1 (buildRange), so the stack holds at most 3 x depth + 1 < 256 entries.
  struct Entry {
    int ref;
    float d2;
  };
  std::array<Entry, 256> stack;
  int top = 0;
  stack[top++] = {root_.ref, 0.0f};
  while (top > 0) {
    const Entry e = stack[--top];
    if (double(e.d2) > squaredBound) continue;
    if (e.ref < 0) {
      squaredBound = std::min(squaredBound, double(visit(primitiveOf(e.ref))));
      continue;
    }
    const Node& node = nodes_[e.ref];
    float d2[4];
    squaredDistances(node, p, slack, d2);
    // The children within the bound, pushed farthest first so that the nearest is explored first.
    Entry near[4];
    int count = 0;
    for (int i = 0; i < 4; ++i) {
      if (node.child[i] == kNone || double(d2[i]) > squaredBound) continue;
      int j = count++;
      for (; j > 0 && near[j - 1].d2 < d2[i]; --j) near[j] = near[j - 1];
      near[j] = {node.child[i], d2[i]};
    }
    for (int i = 0; i < count; ++i) stack[top++] = near[i];
  }
}

template <class Visit>
void WideBvh::queryNode(int n, const Box& query, Visit& visit) const {
  const Node& node = nodes_[n];
  unsigned mask = overlapMask(node, query);
  while (mask) {
    const int i = __builtin_ctz(mask);
    mask &= mask - 1;
    if (node.child[i] >= 0) queryNode(node.child[i], query, visit);
    else visit(primitiveOf(node.child[i]));
  }
}

}  // namespace adacloth
