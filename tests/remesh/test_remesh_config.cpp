// The per-cloth `remeshing` key: false by default, true for every default, an object to override, checked bounds.
#include <catch2/catch.hpp>

#include "config/shot.h"
#include "io/error.h"

using namespace adacloth;

namespace {

Shot shotWith(const std::string& remeshing) {
  std::string text = R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}})" +
                     (remeshing.empty() ? std::string() : ", \"remeshing\": " + remeshing) + "}]}";
  return parseShot(text, "test.json");
}

}  // namespace

TEST_CASE("the remeshing key", "[remesh]") {
  CHECK_FALSE(shotWith("").cloths[0].remeshing);
  CHECK_FALSE(shotWith("false").cloths[0].remeshing);
  Shot on = shotWith("true");
  REQUIRE(on.cloths[0].remeshing);
  const SizingParams& r = *on.cloths[0].remeshing;
  CHECK(r.refineAngle == 0.3);
  CHECK(r.sizeMin == 0.02);
  CHECK(r.sizeMax == 0.2);
  CHECK(on.resolved["cloths"][0]["remeshing"]["aspect_min"] == 0.2);  // defaults are written out
  const std::optional<SizingParams> customOrNone =
      shotWith(R"({"size": [0.01, 0.05], "refine_velocity": 0.5})").cloths[0].remeshing;
  REQUIRE(customOrNone);
  const SizingParams& custom = *customOrNone;
  CHECK(custom.sizeMin == 0.01);
  CHECK(custom.sizeMax == 0.05);
  CHECK(custom.refineVelocity == 0.5);
  CHECK(custom.aspectMin == 0.2);
  CHECK_THROWS_WITH(shotWith(R"({"size": [0.2, 0.1]})"), Catch::Contains("/cloths/0/remeshing/size"));
  CHECK_THROWS_AS(shotWith(R"({"aspect_min": 1.5})"), InputError);
  CHECK_THROWS_AS(shotWith(R"({"refine_angle": 0})"), InputError);
}
