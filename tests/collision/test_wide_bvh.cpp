// WideBvh: its traversals visit every pair that the exact (double) test finds, once, and nothing further apart than
// the rounding to floats allows (at boxes exactly at the reach, at large coordinates, after refits); nearest() visits
// every box within its bound; a tree built with corners leaves out self pairs sharing one; the depth stays bounded.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>

#include "collision/wide_bvh.h"

using namespace adacloth;

namespace {

std::vector<Aabb> randomBoxes(int count, unsigned seed, double offset = 0.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(0.0, 1.0), size(0.0, 0.08);
  std::vector<Aabb> boxes(count);
  for (Aabb& b : boxes) {
    const Vec3 lo = Vec3(pos(rng), pos(rng), pos(rng)) + Vec3::Constant(offset);
    b.add(lo);
    b.add(lo + Vec3(size(rng), size(rng), size(rng)));
  }
  return boxes;
}

using Visits = std::map<std::pair<int, int>, int>;  // pair -> times visited

// The visits hold every pair `exact` accepts, each once, and only pairs within `slack` (m) more of the reach.
template <class Exact, class Near>
void checkVisits(const Visits& visits, int na, int nb, Exact&& exact, Near&& near) {
  for (int i = 0; i < na; ++i)
    for (int j = 0; j < nb; ++j) {
      auto it = visits.find({i, j});
      if (exact(i, j)) {
        INFO("pair " << i << ", " << j);
        REQUIRE(it != visits.end());
      }
      if (it == visits.end()) continue;
      INFO("pair " << i << ", " << j);
      CHECK(it->second == 1);
      CHECK(near(i, j));
    }
}

void checkTrees(const std::vector<Aabb>& a, const std::vector<Aabb>& b, double grow) {
  WideBvh ta, tb;
  ta.build(a.data(), a.size());
  tb.build(b.data(), b.size());
  // The depth guarantee that nearest()'s fixed stack rests on (24 levels of surface-area splits, then medians).
  CHECK(ta.depth() <= 24 + int(std::ceil(std::log(double(a.size()) + 1) / std::log(4.0))) + 1);
  // Rounding to floats: a few units of 1e-6 of the coordinates (at most a few metres here).
  const double slack = 1e-5 * (1.0 + std::abs(a.empty() ? 0.0 : a[0].lo.x()));

  Visits self;
  ta.selfOverlaps([&](int i, int j) { ++self[std::minmax(i, j)]; }, grow);
  for (const auto& [pair, count] : self) CHECK(pair.first != pair.second);
  checkVisits(
      self, int(a.size()), int(a.size()), [&](int i, int j) { return i < j && a[i].overlapsGrown(a[j], grow); },
      [&](int i, int j) { return a[i].overlapsGrown(a[j], grow + slack); });

  Visits both, queried;
  ta.overlaps(tb, [&](int i, int j) { ++both[{i, j}]; }, grow);
  for (size_t i = 0; i < a.size(); ++i) tb.query(a[i], [&](int j) { ++queried[{int(i), j}]; }, grow);
  auto exact = [&](int i, int j) { return a[i].overlapsGrown(b[j], grow); };
  auto near = [&](int i, int j) { return a[i].overlapsGrown(b[j], grow + slack); };
  checkVisits(both, int(a.size()), int(b.size()), exact, near);
  checkVisits(queried, int(a.size()), int(b.size()), exact, near);
}

}  // namespace

TEST_CASE("wide bvh visits every overlapping pair once, at any size", "[collision][bvh]") {
  for (int count : {0, 1, 2, 3, 4, 5, 6, 17, 64, 300}) {
    INFO("boxes " << count);
    for (double grow : {0.0, 0.004}) checkTrees(randomBoxes(count, 1 + count), randomBoxes(count / 2 + 1, 2), grow);
  }
}

TEST_CASE("wide bvh finds boxes exactly at the reach, also far from the origin", "[collision][bvh]") {
  // Pairs of boxes whose gap along one axis is exactly what the double test still accepts at `grow`: the rounding
  // to floats must not lose them. Coordinates near 0, near 3 m and near 1 km, none a float.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(0.0, 1.0);
  for (double offset : {0.0, 3.0, 1000.0}) {
    const double grow = 0.0025;
    std::vector<Aabb> a, b;
    for (int n = 0; n < 200; ++n) {
      const int axis = n % 3;
      Aabb p, q;
      const Vec3 lo = Vec3(pos(rng), pos(rng), pos(rng)) * 0.3 + Vec3::Constant(offset + 0.1 * n);
      p.add(lo);
      p.add(lo + Vec3::Constant(0.01 + 1e-3 * pos(rng)));
      // The largest start of q along `axis` that the double test accepts.
      double start = p.hi[axis] + 2 * grow;
      while (!(start - grow <= p.hi[axis] + grow)) start = std::nextafter(start, -1e300);
      while (std::nextafter(start, 1e300) - grow <= p.hi[axis] + grow) start = std::nextafter(start, 1e300);
      Vec3 qlo = lo;
      qlo[axis] = start;
      q.add(qlo);
      q.add(qlo + Vec3::Constant(0.02));
      REQUIRE(p.overlapsGrown(q, grow));
      a.push_back(p);
      b.push_back(q);
    }
    INFO("offset " << offset);
    checkTrees(a, b, grow);
  }
}

TEST_CASE("a refitted wide bvh follows its boxes, and rebuilds once loose", "[collision][bvh]") {
  std::vector<Aabb> a = randomBoxes(200, 11), b = randomBoxes(150, 12);
  WideBvh ta, tb;
  ta.build(a.data(), a.size());
  tb.build(b.data(), b.size());
  // A rigid move keeps the refit tight.
  for (Aabb& box : a) box.lo += Vec3(0.3, 0, 0), box.hi += Vec3(0.3, 0, 0);
  CHECK(ta.refit(a.data()) == Approx(1.0).epsilon(1e-4));
  // Scrambling the boxes makes it loose; update() then builds anew, and either way the answers follow the boxes.
  std::reverse(a.begin(), a.end());
  for (size_t i = 0; i < a.size(); i += 2) std::swap(a[i].lo, a[(i * 7) % a.size()].lo), a[i].hi = a[i].lo;
  for (Aabb& box : a) box.hi = box.lo + Vec3::Constant(0.05);
  WideBvh refitted = ta;
  CHECK(refitted.refit(a.data()) > Bvh::kLooseRefit);
  ta.update(a.data(), a.size());
  for (WideBvh* tree : {&refitted, &ta}) {
    Visits both;
    tree->overlaps(tb, [&](int i, int j) { ++both[{i, j}]; }, 0.001);
    checkVisits(
        both, int(a.size()), int(b.size()), [&](int i, int j) { return a[i].overlapsGrown(b[j], 0.001); },
        [&](int i, int j) { return a[i].overlapsGrown(b[j], 0.001 + 1e-5); });
  }
}

TEST_CASE("wide bvh nearest visits every box within the bound", "[collision][bvh]") {
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> pos(-0.2, 1.2);
  for (double offset : {0.0, 3.0, 1000.0}) {
    INFO("offset " << offset);
    for (int count : {1, 2, 5, 300}) {
      const std::vector<Aabb> boxes = randomBoxes(count, 30 + count, offset);
      WideBvh tree;
      tree.build(boxes.data(), boxes.size());
      for (int q = 0; q < 200; ++q) {
        const Vec3 p = Vec3(pos(rng), pos(rng), pos(rng)) + Vec3::Constant(offset);
        // As the obstacle field uses it: the bound shrinks to the best box found so far.
        std::vector<char> seen(boxes.size(), 0);
        double best = std::numeric_limits<double>::infinity();
        tree.nearest(p, best, [&](int i) {
          REQUIRE(!seen[i]);
          seen[i] = 1;
          best = std::min(best, boxes[i].squaredDistance(p));
          return best;
        });
        for (int i = 0; i < count; ++i)
          if (boxes[i].squaredDistance(p) <= best) CHECK(seen[i]);
        // A fixed bound exactly at one box's distance: that box and every nearer one are visited.
        const double bound = boxes[q % count].squaredDistance(p);
        std::fill(seen.begin(), seen.end(), 0);
        tree.nearest(p, bound, [&](int i) {
          seen[i] = 1;
          return bound;
        });
        for (int i = 0; i < count; ++i)
          if (boxes[i].squaredDistance(p) <= bound) CHECK(seen[i]);
      }
    }
  }
}

TEST_CASE("wide bvh built with corners leaves out self pairs that share a node", "[collision][bvh]") {
  // Primitives with three corners from a small pool of nodes, so that many overlapping pairs share one.
  std::mt19937 rng(41);
  std::uniform_int_distribution<int> node(0, 59);
  for (int count : {2, 3, 5, 40, 300}) {
    INFO("primitives " << count);
    const std::vector<Aabb> boxes = randomBoxes(count, 50 + count);
    std::vector<Tri> corners(count);
    for (Tri& t : corners) t = {node(rng), node(rng), node(rng)};
    auto share = [&](int i, int j) {
      for (int a : corners[i])
        for (int b : corners[j])
          if (a == b) return true;
      return false;
    };
    WideBvh tree;
    tree.build(boxes.data(), boxes.size(), corners.data());
    for (double grow : {0.0, 0.01}) {
      Visits self;
      tree.selfOverlaps([&](int i, int j) { ++self[std::minmax(i, j)]; }, grow);
      int sharedOverlapping = 0;
      for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) sharedOverlapping += share(i, j) && boxes[i].overlapsGrown(boxes[j], grow);
      if (count >= 300) CHECK(sharedOverlapping > 0);  // the case is exercised
      checkVisits(
          self, count, count,
          [&](int i, int j) { return i < j && !share(i, j) && boxes[i].overlapsGrown(boxes[j], grow); },
          [&](int i, int j) { return !share(i, j) && boxes[i].overlapsGrown(boxes[j], grow + 1e-5); });
      // Pairs with another tree are not filtered.
      Visits both;
      tree.overlaps(tree, [&](int i, int j) { ++both[{i, j}]; }, grow);
      for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j)
          if (boxes[i].overlapsGrown(boxes[j], grow)) CHECK(both.count({i, j}) == 1);
    }
  }
}

TEST_CASE("wide bvh stays shallow over boxes spread exponentially", "[collision][bvh]") {
  // Boxes at 1.2^i along x: the surface area heuristic would peel off a few boxes per split and make a tree as deep
  // as it has boxes; the median splits below a depth keep nearest()'s fixed stack and the recursion bounded.
  std::vector<Aabb> boxes;
  for (int i = 0; i < 400; ++i) {
    Aabb b;
    b.add(Vec3(std::pow(1.2, i), 0, 0));
    b.add(Vec3(std::pow(1.2, i) * 1.01, 0.1, 0.1));
    boxes.push_back(b);
  }
  WideBvh tree;
  tree.build(boxes.data(), boxes.size());
  CHECK(tree.depth() <= 24 + 5 + 1);  // log4(400) < 5
  for (int q : {0, 10, 200, 399}) {
    const Vec3 p(std::pow(1.2, q) * 1.005, 0.05, 0.2);
    int nearestBox = -1;
    double best = std::numeric_limits<double>::infinity();
    tree.nearest(p, best, [&](int i) {
      const double d = boxes[i].squaredDistance(p);
      if (d < best) best = d, nearestBox = i;
      return best;
    });
    CHECK(nearestBox == q);
  }
  checkTrees(boxes, boxes, 0.0);
}
