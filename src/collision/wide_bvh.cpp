#include "collision/wide_bvh.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A float at most x (at least x): the nearest float, moved by more than its rounding (at most 2^-24 of it) without a
// branch. The refit converts every primitive's box every step.
float roundedDown(double x) {
  const float f = float(x);
  return f - (std::fabs(f) * 2.4e-7f + 1e-30f);
}

float roundedUp(double x) {
  const float f = float(x);
  return f + (std::fabs(f) * 2.4e-7f + 1e-30f);
}

double halfArea(const float lo[3], const float hi[3]) {
  Aabb box;
  box.lo = Vec3(lo[0], lo[1], lo[2]);
  box.hi = Vec3(hi[0], hi[1], hi[2]);
  return box.halfArea();
}

}  // namespace

float WideBvh::grownBy(double grow) { return roundedUp(2.0 * std::max(grow, 0.0)); }

void WideBvh::build(const Aabb* boxes, size_t count, const Tri* corners) {
  nodes_.clear();
  primitives_ = count;
  root_ = {kNone, {}, {-1, -1, -1}};
  hasCorners_ = corners != nullptr;
  builtArea_ = 0;
  if (count == 0) return;
  std::vector<Vec3> centres(count);
  ids_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    ids_[i] = int(i);
    centres[i] = 0.5 * (boxes[i].lo + boxes[i].hi);
  }
  if (count == 1) {
    root_.ref = -2;
  } else {
    nodes_.reserve(count / 2 + 1);
    buildBoxes_ = boxes;
    root_.ref = buildRange(centres, corners, 0, int(count), 0);
    buildBoxes_ = nullptr;
  }
  builtArea_ = refitArea(boxes);
}

// Splits [begin, end) of ids_ in two along the longest axis of its centres where the surface area heuristic
// (binned) says, and returns the place of the split; the median when the bins cannot split it, or with `median`.
int WideBvh::splitRange(const std::vector<Vec3>& centres, int begin, int end, bool median) {
  Aabb spread;
  for (int i = begin; i < end; ++i) spread.add(centres[ids_[i]]);
  int axis;
  const double extent = (spread.hi - spread.lo).maxCoeff(&axis);
  constexpr int kBins = 16;
  if (!median && end - begin > 8 && extent > 0) {
    auto binOf = [&](int id) {
      return std::min(kBins - 1, int((centres[id][axis] - spread.lo[axis]) / extent * kBins));
    };
    Aabb bin[kBins];
    int count[kBins] = {};
    for (int i = begin; i < end; ++i) {
      const int b = binOf(ids_[i]);
      bin[b].add(buildBoxes_[ids_[i]]);
      ++count[b];
    }
    double leftCost[kBins];
    Aabb grown;
    int n = 0;
    for (int b = 0; b < kBins - 1; ++b) {
      grown.add(bin[b]);
      n += count[b];
      leftCost[b] = grown.halfArea() * n;
    }
    grown = Aabb();
    n = 0;
    int best = -1;
    double bestCost = std::numeric_limits<double>::infinity();
    for (int b = kBins - 1; b > 0; --b) {
      grown.add(bin[b]);
      n += count[b];
      const double cost = leftCost[b - 1] + grown.halfArea() * n;
      if (n < end - begin && n > 0 && cost < bestCost) bestCost = cost, best = b - 1;
    }
    if (best >= 0) {
      const int mid = int(std::stable_partition(ids_.begin() + begin, ids_.begin() + end,
                                                [&](int id) { return binOf(id) <= best; }) -
                          ids_.begin());
      if (mid > begin && mid < end) return mid;
    }
  }
  return medianSplit(ids_, centres, axis, begin, end, keys_);
}

// A node over [begin, end) (two primitives or more) at `depth` (the root's is 0): its range split in two, and each
// half of two or more in two again, gives its two to four children. Below kMaxSahDepth the splits are medians, so
// that the depth stays within kMaxSahDepth + log4(primitives) + 1 however the boxes lie (nearest()'s stack and the
// traversals' recursion count on it); a surface's tree never gets there.
int WideBvh::buildRange(const std::vector<Vec3>& centres, const Tri* corners, int begin, int end, int depth) {
  constexpr int kMaxSahDepth = 24;
  const bool median = depth >= kMaxSahDepth;
  const int index = int(nodes_.size());
  nodes_.emplace_back();
  int bounds[5], parts = 0;  // child c covers [bounds[c], bounds[c + 1])
  bounds[0] = begin;
  if (end - begin <= 4) {
    for (int i = begin + 1; i <= end; ++i) bounds[++parts] = i;
  } else {
    const int mid = splitRange(centres, begin, end, median);
    for (const auto& [b, e] : {std::pair<int, int>{begin, mid}, {mid, end}}) {
      if (e - b >= 2) bounds[++parts] = splitRange(centres, b, e, median);
      bounds[++parts] = e;
    }
  }
  int child[4] = {kNone, kNone, kNone, kNone};
  for (int c = 0; c < parts; ++c) {
    const int b = bounds[c], e = bounds[c + 1];
    child[c] = e - b == 1 ? -2 - ids_[b] : buildRange(centres, corners, b, e, depth + 1);
  }
  Node& node = nodes_[index];
  for (int c = 0; c < 4; ++c) {
    node.child[c] = child[c];
    const bool primitive = child[c] < kNone;
    for (int k = 0; k < 3; ++k) node.corner[k][c] = corners && primitive ? corners[primitiveOf(child[c])][k] : -1;
  }
  return index;
}

int WideBvh::depth() const {
  if (root_.ref == kNone) return 0;
  // Children come after their parent: a forward sweep sees each parent's depth first.
  std::vector<int> below(nodes_.size(), 0);
  int deepest = 1;
  if (root_.ref >= 0) below[root_.ref] = 1;
  for (size_t i = 0; i < nodes_.size(); ++i)
    for (int c : nodes_[i].child) {
      if (c >= 0) below[c] = below[i] + 1;
      else if (c != kNone) deepest = std::max(deepest, below[i] + 1);
    }
  return deepest;
}

double WideBvh::refit(const Aabb* boxes) {
  const double area = refitArea(boxes);
  return builtArea_ > 0 ? area / builtArea_ : 1.0;
}

double WideBvh::refitArea(const Aabb* boxes) {
  if (root_.ref == kNone) return 0.0;
  auto primitiveBox = [&](int primitive, Box& b) {
    for (int k = 0; k < 3; ++k) {
      b.lo[k] = roundedDown(boxes[primitive].lo[k]);
      b.hi[k] = roundedUp(boxes[primitive].hi[k]);
    }
  };
  // The union of a node's child boxes (empty slots hold +inf / -inf and drop out).
  auto unionOf = [](const Node& n, Box& b) {
    for (int k = 0; k < 3; ++k) {
      b.lo[k] = std::min(std::min(n.lo[k][0], n.lo[k][1]), std::min(n.lo[k][2], n.lo[k][3]));
      b.hi[k] = std::max(std::max(n.hi[k][0], n.hi[k][1]), std::max(n.hi[k][2], n.hi[k][3]));
    }
  };
  // Children come after their parent, so a reverse sweep sees children first.
  double area = 0;
  for (int i = int(nodes_.size()) - 1; i >= 0; --i) {
    Node& n = nodes_[i];
    for (int c = 0; c < 4; ++c) {
      Box b;
      if (n.child[c] == kNone) {
        for (int k = 0; k < 3; ++k) b.lo[k] = kInf, b.hi[k] = -kInf;
      } else if (n.child[c] < 0) {
        primitiveBox(primitiveOf(n.child[c]), b);
      } else {
        unionOf(nodes_[n.child[c]], b);
        area += halfArea(b.lo, b.hi);
      }
      for (int k = 0; k < 3; ++k) n.lo[k][c] = b.lo[k], n.hi[k][c] = b.hi[k];
    }
  }
  if (root_.ref >= 0) {
    unionOf(nodes_[root_.ref], root_.box);
    area += halfArea(root_.box.lo, root_.box.hi);
  } else {
    primitiveBox(primitiveOf(root_.ref), root_.box);
  }
  return area;
}

}  // namespace adacloth
