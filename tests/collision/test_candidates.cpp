// Candidate pairs (candidates.h): their radix sort gives std::sort's order.
#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <catch2/catch.hpp>

#include "collision/candidates.h"

using namespace adacloth;

namespace {

// `count` distinct random pairs with indices below `bound`, both kinds.
std::vector<Candidate> randomPairs(size_t count, int bound, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> index(0, bound - 1);
  std::set<std::tuple<bool, int, int>> seen;
  std::vector<Candidate> out;
  while (out.size() < count) {
    Candidate c{rng() % 3 == 0, index(rng), index(rng)};
    if (c.edgeEdge && c.a > c.b) std::swap(c.a, c.b);
    if (seen.insert({c.edgeEdge, c.a, c.b}).second) out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("candidates sort into the order of their comparison", "[collision]") {
  const std::vector<std::pair<size_t, int>> cases = {{0, 10}, {7, 10}, {300, 50}, {5000, 1 << 12}, {20000, 1 << 30},
                                                     {3000, 2147483647}};
  for (const auto& [count, bound] : cases) {
    std::vector<Candidate> pairs = randomPairs(count, bound, unsigned(count) + 1), want = pairs;
    std::sort(want.begin(), want.end());
    sortCandidates(pairs);
    INFO(count << " pairs below " << bound);
    REQUIRE(pairs.size() == want.size());
    bool same = true;
    for (size_t i = 0; i < pairs.size(); ++i)
      same = same && pairs[i].edgeEdge == want[i].edgeEdge && pairs[i].a == want[i].a && pairs[i].b == want[i].b;
    CHECK(same);
  }
}
