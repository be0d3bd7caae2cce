#include "collision/bvh.h"

#include <algorithm>

namespace adacloth {

int medianSplit(std::vector<int>& ids, const std::vector<Vec3>& centres, int axis, int begin, int end,
                std::vector<std::pair<double, int>>& keys) {
  const int mid = (begin + end) / 2;
  keys.resize(end - begin);
  for (int i = begin; i < end; ++i) keys[i - begin] = {centres[ids[i]][axis], ids[i]};
  std::nth_element(keys.begin(), keys.begin() + (mid - begin), keys.end(), [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && a.second < b.second);
  });
  for (int i = begin; i < end; ++i) ids[i] = keys[i - begin].second;
  return mid;
}

void Bvh::build(const Aabb* boxes, size_t count) {
  nodes_.clear();
  primitives_ = count;
  if (count == 0) return;
  nodes_.reserve(2 * count);
  ids_.resize(count);
  centres_.resize(count);
  for (size_t i = 0; i < count; ++i) {
    ids_[i] = int(i);
    centres_[i] = 0.5 * (boxes[i].lo + boxes[i].hi);
  }
  buildRange(ids_, centres_, boxes, 0, int(ids_.size()));
  builtArea_ = innerArea();
}

double Bvh::innerArea() const {
  double area = 0;
  for (const Node& n : nodes_)
    if (n.left >= 0) area += n.box.halfArea();
  return area;
}

int Bvh::buildRange(std::vector<int>& ids, const std::vector<Vec3>& centres, const Aabb* boxes, int begin,
                    int end) {
  const int index = int(nodes_.size());
  nodes_.emplace_back();
  if (end - begin == 1) {
    nodes_[index].primitive = ids[begin];
    nodes_[index].box = boxes[ids[begin]];
    return index;
  }
  Aabb spread;
  for (int i = begin; i < end; ++i) spread.add(centres[ids[i]]);
  int axis;
  (spread.hi - spread.lo).maxCoeff(&axis);
  const int mid = medianSplit(ids, centres, axis, begin, end, keys_);
  const int left = buildRange(ids, centres, boxes, begin, mid);
  const int right = buildRange(ids, centres, boxes, mid, end);
  nodes_[index].left = left;
  nodes_[index].right = right;
  nodes_[index].box = nodes_[left].box;
  nodes_[index].box.add(nodes_[right].box);
  return index;
}

double Bvh::refit(const Aabb* boxes) {
  // Children come after their parent, so a reverse sweep sees children first.
  double area = 0;
  for (int i = int(nodes_.size()) - 1; i >= 0; --i) {
    Node& n = nodes_[i];
    if (n.left < 0) {
      n.box = boxes[n.primitive];
    } else {
      n.box = nodes_[n.left].box;
      n.box.add(nodes_[n.right].box);
      area += n.box.halfArea();
    }
  }
  return builtArea_ > 0 ? area / builtArea_ : 1.0;
}

}  // namespace adacloth
