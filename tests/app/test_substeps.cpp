// Substeps (`max_obstacle_step`): a step in which an obstacle near a cloth moves farther than that is split, through
// the real executable (the frame's `collision.steps` in stats.jsonl counts the collision phases run).
#include <catch2/catch.hpp>
#include <fstream>

#include "config/schema.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// A 1 x 1 m sheet turned 45 degrees about X (its box spans y and z in [0, 0.71]) and a 5 cm ball that crosses the
// sheet's box along X during the first frame, 0.35 m from the sheet's plane (it never touches the sheet): it starts at
// (startX, ballY, ballZ) and goes `travel` (m) along X in the frame. One step per frame.
std::string shotWithBall(double startX, double ballY, double ballZ, double travel, const std::string& extra) {
  const std::string t = std::to_string(1.0 / 24);
  return R"({"frames": 2, "steps_per_frame": 1, )" + extra + R"("cloths": [{"name": "sheet",
      "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}}, "transform": {"rotate_deg": [45, 0, 0]}}],
    "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.05}},
      "transform": {"translate": [)" + std::to_string(startX) + ", " + std::to_string(ballY) + ", " +
         std::to_string(ballZ) + R"(]},
      "motion": [{"time": 0, "translate": [0, 0, 0]}, {"time": )" + t + R"(, "translate": [)" +
         std::to_string(travel) + R"(, 0, 0]}]}]})";
}

// The collision phases run in frame 1 of the shot.
int stepsOfFrameOne(const TempDir& dir, const std::string& name, const std::string& shot) {
  writeText(dir / (name + ".json"), shot);
  const RunResult run = runAdacloth("simulate '" + (dir / (name + ".json")).string() + "' -o '" +
                                    (dir / name).string() + "' --quiet");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  std::ifstream stats(dir / name / "stats.jsonl");
  std::string line;
  std::getline(stats, line);  // frame 0
  std::getline(stats, line);
  const auto frame = config::Json::parse(line);
  REQUIRE(frame["frame"] == 1);
  return frame["collision"]["steps"].get<int>();
}

}  // namespace

TEST_CASE("a step in which an obstacle near the cloth moves far is split into substeps", "[app]") {
  TempDir dir("substeps");
  // Across the sheet's box, 2 m in the frame's one step: 2 / (6 x 5 mm) -> 67 substeps, capped at 16.
  CHECK(stepsOfFrameOne(dir, "fast", shotWithBall(-0.5, 0.6, 0.1, 2.0, "")) == 16);
  // Inside the box, 0.1 m: ceil(0.1 / 0.03) = 4.
  CHECK(stepsOfFrameOne(dir, "medium", shotWithBall(0.45, 0.6, 0.1, 0.1, "")) == 4);
  // A larger limit splits less: 8 thicknesses of 5 mm, ceil(0.1 / 0.04) = 3; so does a thicker contact.
  CHECK(stepsOfFrameOne(dir, "limit", shotWithBall(0.45, 0.6, 0.1, 0.1, R"("max_obstacle_step": 8, )")) == 3);
  CHECK(stepsOfFrameOne(dir, "thick",
                        shotWithBall(0.45, 0.6, 0.1, 0.1, R"("collision": {"thickness": 0.01}, )")) == 2);
  // 0 turns substeps off.
  CHECK(stepsOfFrameOne(dir, "off", shotWithBall(-0.5, 0.6, 0.1, 2.0, R"("max_obstacle_step": 0, )")) == 1);
  // Far from the cloth's box, speed does not matter.
  CHECK(stepsOfFrameOne(dir, "far", shotWithBall(-0.5, 3.0, 3.0, 2.0, "")) == 1);
  // Without collisions nothing is split (and the frame counts no collision phase at all).
  CHECK(stepsOfFrameOne(dir, "nocontact",
                        shotWithBall(-0.5, 0.6, 0.1, 2.0, R"("collision": {"enabled": false}, )")) == 0);
}
