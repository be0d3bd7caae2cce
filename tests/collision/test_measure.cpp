// The contact measures of stats.jsonl (collision/measure.h): intersecting pairs of cloth triangles.
#include <catch2/catch.hpp>

#include "collision/geometry.h"
#include "collision/measure.h"
#include "collision_fixtures.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

using namespace adacloth::testing::fold;

// The fold after the flip of pq: (p, c, z) lies through (d, q, c) around c at kFoldedOver.
Mesh foldAroundNode(const Vec3& z) { return foldedQuad(z, kAfterFlip); }

}  // namespace

TEST_CASE("two triangles sharing a corner cross beyond it, or touch there only", "[collision]") {
  CHECK(trianglesCrossBeyondCorner(kC, kP, kFoldedOver, kD, kQ));
  CHECK_FALSE(trianglesCrossBeyondCorner(kC, kP, kFlatOutside, kD, kQ));
  // One lying in the other's plane, on the far side of the corner: apart.
  CHECK_FALSE(trianglesCrossBeyondCorner(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(-1, 0, 0),
                                         Vec3(0, -1, 0)));
}

TEST_CASE("the intersection count sees cloth folded through itself around a node, before and after a split",
          "[collision]") {
  Mesh folded = foldAroundNode(kFoldedOver), flat = foldAroundNode(kFlatOutside);
  CHECK(countIntersections({&folded}) == std::vector<int>{1});
  CHECK(countIntersections({&flat}) == std::vector<int>{0});
  // Split cd (the edge the two crossing faces do not share): the crossing runs from c through both halves of
  // (d, q, c), one still holding c, the other an ordinary pair with (p, c, z): two pairs. With pairs that share a node
  // left out, the count went from 0 to 1 here, and the stats showed a crossing appear at a remesh that only split.
  const Vec3 m = 0.5 * (kC + kD);
  Mesh split = makeMesh({Vec2(0, -1), Vec2(0, 1), Vec2(-0.3, 0), Vec2(0.3, 0), Vec2(-1, -1), Vec2(0, 0)},
                        {0, 1, 2, 3, 4, 5}, {kP, kQ, kC, kD, kFoldedOver, m},
                        {{2, 0, 5}, {5, 0, 3}, {3, 1, 5}, {5, 1, 2}, {0, 2, 4}});
  CHECK(countIntersections({&split}) == std::vector<int>{2});
  // A second cloth through the fold counts for both; the fold counts for its own cloth only.
  Mesh across = makeMesh({Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)}, {0, 1, 2},
                         {Vec3(0.1, -0.2, -1), Vec3(0.1, -0.2, 1), Vec3(5, 5, 0.2)}, {{0, 1, 2}});
  const std::vector<int> both = countIntersections({&folded, &across});
  CHECK(both[1] >= 1);
  CHECK(both[0] == both[1] + 1);
}

TEST_CASE("intersecting pairs by the cloths they join add up to the count per cloth", "[collision]") {
  Mesh folded = foldAroundNode(kFoldedOver), flat = foldAroundNode(kFlatOutside);
  Mesh across = makeMesh({Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)}, {0, 1, 2},
                         {Vec3(0.1, -0.2, -1), Vec3(0.1, -0.2, 1), Vec3(5, 5, 0.2)}, {{0, 1, 2}});
  const std::vector<const Mesh*> cloths = {&folded, &across, &flat};
  const std::vector<std::vector<int>> between = intersectionsBetween(cloths);
  CHECK(between[0][0] == 1);  // the fold around its node
  CHECK(between[1][1] == 0);
  CHECK(between[0][1] >= 1);
  CHECK(between[0][1] == between[1][0]);
  const std::vector<int> count = countIntersections(cloths);
  for (size_t a = 0; a < cloths.size(); ++a) {
    int sum = 0;
    for (int pairs : between[a]) sum += pairs;
    CHECK(count[a] == sum);
  }
}
