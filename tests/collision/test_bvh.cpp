// Bvh traversals: overlapping pairs found by the tree equal the brute-force pairs, after a refit too, and at a grow.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <utility>

#include "collision/bvh.h"

using namespace adacloth;

namespace {

std::vector<Aabb> randomBoxes(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(0.0, 1.0), size(0.0, 0.08);
  std::vector<Aabb> boxes(count);
  for (Aabb& b : boxes) {
    const Vec3 lo(pos(rng), pos(rng), pos(rng));
    b.add(lo);
    b.add(lo + Vec3(size(rng), size(rng), size(rng)));
  }
  return boxes;
}

using Pairs = std::set<std::pair<int, int>>;

}  // namespace

TEST_CASE("bvh pair traversals and queries match brute force", "[collision][bvh]") {
  const std::vector<Aabb> a = randomBoxes(300, 1), b = randomBoxes(200, 2);
  Bvh ta, tb;
  ta.build(a);
  tb.build(b);

  Pairs self, selfWant;
  for (int i = 0; i < 300; ++i)
    for (int j = i + 1; j < 300; ++j)
      if (a[i].overlaps(a[j])) selfWant.insert({i, j});
  ta.selfOverlaps([&](int i, int j) { self.insert(std::minmax(i, j)); });
  CHECK(self == selfWant);
  CHECK(!selfWant.empty());

  Pairs both, bothWant, queried;
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 200; ++j)
      if (a[i].overlaps(b[j])) bothWant.insert({i, j});
  ta.overlaps(tb, [&](int i, int j) { both.insert({i, j}); });
  CHECK(both == bothWant);
  // The same pairs, one box of a at a time.
  for (int i = 0; i < 300; ++i) tb.query(a[i], [&](int j) { queried.insert({i, j}); });
  CHECK(queried == bothWant);
}

TEST_CASE("a refitted bvh finds the pairs of the moved boxes", "[collision][bvh]") {
  std::vector<Aabb> boxes = randomBoxes(100, 5);
  Bvh tree;
  tree.build(boxes);
  // Move one box onto another: the refitted tree finds the new pair.
  boxes[7] = boxes[42];
  tree.refit(boxes);
  Pairs found;
  tree.selfOverlaps([&](int i, int j) { found.insert(std::minmax(i, j)); });
  CHECK(found.count({7, 42}) == 1);
}

TEST_CASE("boxes tested grown answer as grown boxes do, bit for bit, in tests and in traversals", "[collision][bvh]") {
  // Pairs placed at the edge of the reach: the gap between them is the grown amount give or take a few ulps, where a
  // test that rounded otherwise than growing the boxes first would answer otherwise.
  const double grow = 0.0025;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> pos(-2.0, 2.0), ulps(-4.0, 4.0);
  int agreeTrue = 0, agreeFalse = 0;
  for (int k = 0; k < 20000; ++k) {
    Aabb a, b;
    a.add(Vec3(pos(rng), pos(rng), pos(rng)));
    const double gap = 2 * grow * (1 + ulps(rng) * 1e-16 * (1 + k % 7));
    b.add(a.hi + Vec3(gap, 0.01 * pos(rng), 0.01 * pos(rng)));
    Aabb ga = a, gb = b;
    ga.inflate(grow);
    gb.inflate(grow);
    const bool want = ga.overlaps(gb);
    REQUIRE(a.overlapsGrown(b, grow) == want);
    REQUIRE(b.overlapsGrown(a, grow) == want);
    (want ? agreeTrue : agreeFalse)++;
  }
  CHECK(agreeTrue > 100);  // both answers occur: the cases sit on the boundary
  CHECK(agreeFalse > 100);

  // A tree of ungrown boxes traversed at a grow finds the pairs of the grown boxes.
  std::vector<Aabb> boxes = randomBoxes(300, 12), grown = boxes;
  for (Aabb& g : grown) g.inflate(0.02);
  Bvh raw, inflated;
  raw.build(boxes);
  inflated.build(grown);
  Pairs atGrow, want;
  raw.selfOverlaps([&](int i, int j) { atGrow.insert(std::minmax(i, j)); }, 0.02);
  inflated.selfOverlaps([&](int i, int j) { want.insert(std::minmax(i, j)); });
  CHECK(atGrow == want);
  Pairs plain;
  raw.selfOverlaps([&](int i, int j) { plain.insert(std::minmax(i, j)); });
  CHECK(plain.size() < want.size());
}

TEST_CASE("a refit reports how loose the tree has grown", "[collision][bvh]") {
  std::vector<Aabb> boxes = randomBoxes(200, 13);
  Bvh tree;
  tree.build(boxes);
  // Moved rigidly: as tight as built.
  for (Aabb& b : boxes) b.lo += Vec3(0.3, -0.2, 0.1), b.hi += Vec3(0.3, -0.2, 0.1);
  CHECK(tree.refit(boxes) == Approx(1.0).epsilon(1e-9));
  // Shuffled: the build's groups are spread over the whole cube.
  std::mt19937 rng(14);
  std::shuffle(boxes.begin(), boxes.end(), rng);
  CHECK(tree.refit(boxes) > 3.0);
  tree.build(boxes);
  CHECK(tree.refit(boxes) == Approx(1.0));
}
