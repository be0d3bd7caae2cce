// Splitting a shot into independent cloth groups (app/cloth_groups.h, docs/farm.md).
#include <catch2/catch.hpp>

#include "app/cloth_groups.h"
#include "app/scene.h"
#include "config/shot.h"
#include "farm_fixtures.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

Grouping groupsOf(const std::string& shotText, ReachModel model = ReachModel::Predicted, int frames = 2) {
  const Shot shot = parseShot(shotText, "conf/sheets.json");
  const Scene scene = buildScene(shot);
  return groupCloths(shot, scene, frames, model);
}

}  // namespace

TEST_CASE("crowd splits into its five characters, each with its walker and the floor", "[app][farm]") {
  const Shot shot = loadShot(sourceDir() / "conf/crowd.json");
  const Scene scene = buildScene(shot);
  const Grouping g = groupCloths(shot, scene, 24, ReachModel::Predicted);
  REQUIRE(g.groups.size() == 5);
  CHECK(g.notSplit.empty());
  CHECK(g.interactionDistance == Approx(10 * 0.005 + kSafetyMargin));
  CHECK(g.closestGap > g.interactionDistance);
  for (int k = 0; k < 5; ++k) {
    CHECK(g.groups[k].cloths == std::vector<int>{k});
    CHECK(g.groups[k].obstacles == std::vector<int>{k, 5});  // walker<k+1>, floor
  }
}

TEST_CASE("the conservative reach keeps crowd whole: a cape could swing into the next character", "[app][farm]") {
  const Shot shot = loadShot(sourceDir() / "conf/crowd.json");
  const Scene scene = buildScene(shot);
  const Grouping g = groupCloths(shot, scene, 24, ReachModel::Conservative);
  REQUIRE(g.groups.size() == 1);
  CHECK(g.notSplit == "every cloth comes near another");
  CHECK(g.groups[0].obstacles.size() == 6);
}

TEST_CASE("sheets held far apart split, sheets held close together stay one group", "[app][farm]") {
  const Grouping apart = groupsOf(sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1.0)}));
  REQUIRE(apart.groups.size() == 2);
  CHECK(apart.groups[0].cloths == std::vector<int>{0});
  CHECK(apart.groups[1].cloths == std::vector<int>{1});
  CHECK(apart.groups[1].obstacles == std::vector<int>{0});  // every group keeps the ground

  const Grouping close = groupsOf(sheetsShot({hangingSheet("a", 0), hangingSheet("b", 0.3)}));
  REQUIRE(close.groups.size() == 1);
  CHECK(close.groups[0].cloths == std::vector<int>{0, 1});

  // Chained: a near b, b near c, so all three together; d stays apart. Groups come in shot order.
  const Grouping chain = groupsOf(sheetsShot(
      {hangingSheet("d", 3.0), hangingSheet("a", 0), hangingSheet("b", 0.3), hangingSheet("c", 0.6)}));
  REQUIRE(chain.groups.size() == 2);
  CHECK(chain.groups[0].cloths == std::vector<int>{0});
  CHECK(chain.groups[1].cloths == std::vector<int>{1, 2, 3});
}

TEST_CASE("a cloth no handle holds keeps the shot whole", "[app][farm]") {
  const std::string free = R"({"name": "free", "mesh": {"grid": {"size": [0.2, 0.2], "cells": [2, 2]}},
                               "transform": {"translate": [5, 1, 0]}})";
  const Grouping g = groupsOf(sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1.0), free}));
  REQUIRE(g.groups.size() == 1);
  CHECK(g.notSplit == "cloth \"free\" is held by no handle (it may fall anywhere)");
}

TEST_CASE("view occlusion keeps the shot whole: its depth maps see every cloth", "[app][farm]") {
  const std::string camera = "\"camera\": \"" + (sourceDir() / "cameras/drape.json").string() + "\", ";
  const std::string occluding = ", \"remeshing\": true, \"view\": {\"occlusion\": true}";
  const Grouping g = groupsOf(sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1.0, occluding)}, "", camera));
  REQUIRE(g.groups.size() == 1);
  CHECK(g.notSplit == "cloth \"b\" has view occlusion on (its depth maps see every cloth)");
}

TEST_CASE("an obstacle goes to the groups it comes near, one near none goes to the first group", "[app][farm]") {
  const std::string ball = R"(, {"name": "ball", "mesh": {"sphere": {"radius": 0.1}},
                                 "transform": {"translate": [1.1, 0.85, 0.1]}})";
  const std::string faraway = R"(, {"name": "faraway", "mesh": {"sphere": {"radius": 0.1}},
                                    "transform": {"translate": [0, 1, 9]}})";
  const Grouping g = groupsOf(sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1.0)}, ball + faraway));
  REQUIRE(g.groups.size() == 2);
  CHECK(g.groups[0].obstacles == std::vector<int>{0, 2});  // floor, faraway
  CHECK(g.groups[1].obstacles == std::vector<int>{0, 1});  // floor, ball
}

TEST_CASE("the reach of a held sheet: its length from the held edge and its rest extent", "[app][farm]") {
  const Shot shot = parseShot(sheetsShot({hangingSheet("a", 0)}), "conf/sheets.json");
  const Scene scene = buildScene(shot);
  const ClothReach reach = clothReach(scene.cloths[0]);
  CHECK(reach.held);
  // 0.2 m from the top edge to the bottom along the grid's edges, plus the longest edge (a diagonal of 0.1 m cells).
  CHECK(reach.maxDistance == Approx(0.2 + 0.1 * std::sqrt(2.0)));
  CHECK(reach.stretch == kUnlimitedStretch);
  CHECK(reach.restBelow.y() == Approx(0.2));
  CHECK(reach.restAbove.norm() == Approx(0).margin(1e-12));
  const Aabb held = heldBox(scene.cloths[0], 0.0);
  CHECK(held.lo.y() == Approx(1.2));
  CHECK(held.hi.x() - held.lo.x() == Approx(0.2));
  const Aabb conservative = reachBox(reach, held, held, ReachModel::Conservative);
  CHECK(conservative.lo.y() == Approx(1.2 - 2 * reach.maxDistance));
  CHECK(boxDistance(held, conservative) == 0);
}
