// The implicit step's system over the free nodes, as one sparse matrix, in node order or in an order given.
#include <catch2/catch.hpp>

#include "dynamics/free_node_system.h"
#include "solve_fixtures.h"

using namespace adacloth;

namespace {

// The free nodes of `sys` in reverse node order: a valid order unlike the default one.
std::vector<int> reversedFreeNodes(const ImplicitSystem& sys) {
  std::vector<int> order;
  for (int i = int(sys.fixed.size()) - 1; i >= 0; --i)
    if (!sys.fixed[i]) order.push_back(i);
  return order;
}

double block(const FreeNodeSystem& f, int nodeA, int nodeB, int r, int c) {
  return f.A.coeff(3 * f.slot[nodeA] + r, 3 * f.slot[nodeB] + c);
}

}  // namespace

TEST_CASE("the free-node system in a given order is the same system renumbered", "[dynamics]") {
  const assets::HeldSheet s = test::movingSheet(6);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  const FreeNodeSystem natural = assembleFreeNodeSystem(sys, s.state);
  FreeNodeSystem ordered;
  const std::vector<int> order = reversedFreeNodes(sys);
  assembleFreeNodeSystemInto(ordered, sys, s.state, order);
  REQUIRE(ordered.freeNodes == natural.freeNodes);
  REQUIRE(ordered.A.nonZeros() == natural.A.nonZeros());
  for (int slot = 0; slot < ordered.freeNodes; ++slot) CHECK(ordered.slot[order[slot]] == slot);
  double largestDifference = 0;
  for (size_t a = 0; a < sys.fixed.size(); ++a) {
    if (sys.fixed[a]) continue;
    for (int r = 0; r < 3; ++r) {
      largestDifference = std::max(largestDifference, std::abs(ordered.b[3 * ordered.slot[a] + r] -
                                                               natural.b[3 * natural.slot[a] + r]));
      for (size_t b = 0; b < sys.fixed.size(); ++b)
        if (!sys.fixed[b])
          for (int c = 0; c < 3; ++c)
            largestDifference = std::max(largestDifference, std::abs(block(ordered, int(a), int(b), r, c) -
                                                                     block(natural, int(a), int(b), r, c)));
    }
  }
  CHECK(largestDifference == 0);
  // Columns stay sorted in the new numbering (CHOLMOD is told so).
  for (int col = 0; col < ordered.A.outerSize(); ++col)
    for (int p = ordered.A.outerIndexPtr()[col] + 1; p < ordered.A.outerIndexPtr()[col + 1]; ++p)
      REQUIRE(ordered.A.innerIndexPtr()[p - 1] < ordered.A.innerIndexPtr()[p]);
}

TEST_CASE("an order that does not list exactly the free nodes falls back to node order", "[dynamics]") {
  const assets::HeldSheet s = test::movingSheet(4);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  const FreeNodeSystem natural = assembleFreeNodeSystem(sys, s.state);
  std::vector<int> held;
  for (size_t i = 0; i < sys.fixed.size(); ++i)
    if (sys.fixed[i]) held.push_back(int(i));
  REQUIRE(!held.empty());
  std::vector<int> withHeld = reversedFreeNodes(sys);
  withHeld.back() = held.front();  // a held node in place of a free one
  std::vector<int> repeated = reversedFreeNodes(sys);
  repeated.back() = repeated.front();
  std::vector<int> tooShort = reversedFreeNodes(sys);
  tooShort.pop_back();
  for (const std::vector<int>& order : {withHeld, repeated, tooShort}) {
    FreeNodeSystem f;
    assembleFreeNodeSystemInto(f, sys, s.state, order);
    CHECK(f.slot == natural.slot);
  }
}
