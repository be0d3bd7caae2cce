// The frame loop with view-dependent refinement: stats.jsonl carries visible_faces and mean_view_factor for cloths
// with `view`, and RunOptions::view = false (`simulate --no-view`) turns the refinement off.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "app/scene.h"
#include "app/simulate.h"
#include "config/shot.h"
#include "io/atomic_file.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

std::vector<config::Json> runFlag(const fs::path& folder, bool view) {
  writeFileAtomically(folder / "camera.json", R"({"width": 320, "height": 180, "keyframes": [
    {"time": 0, "eye": [1.2, 2.5, 1.0], "target": [1.2, 2.5, 0.0], "fov_y_deg": 30, "near": 0.05, "far": 20}]})");
  const std::string text = R"({"fps": 24, "frames": 3, "camera": "camera.json", "steps_per_frame": 2,
    "cloths": [{"name": "flag", "mesh": {"grid": {"size": [1.5, 1.0], "cells": [12, 8]}},
                "transform": {"translate": [0.0, 2.0, 0.0]}, "handles": [{"region": {"min": [0, 0], "max": [0, 1]}}],
                "remeshing": {"size": [0.03, 0.3]}, "view": {"f_out": 0.2, "margin": 0.1}},
               {"name": "plain", "mesh": {"grid": {"size": [0.5, 0.5], "cells": [4, 4]}},
                "transform": {"translate": [0.0, 0.0, -1.0]}, "handles": [{"nodes": [0, 4]}]}]})";
  const Shot shot = parseShot(text, folder / "shot.json");
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = folder / (view ? "with" : "without");
  options.frames = shot.frames;
  options.progress = Progress::Mode::Quiet;
  options.view = view;
  simulateShot(shot, scene, options);
  std::ifstream in(options.out / "stats.jsonl");
  std::vector<config::Json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(config::Json::parse(line));
  return lines;
}

}  // namespace

TEST_CASE("stats.jsonl reports the view per cloth with `view`, and --no-view turns it off", "[view-dependent]") {
  const fs::path folder = fs::temp_directory_path() / "adacloth_test_view_stats";
  fs::create_directories(folder);
  const std::vector<config::Json> with = runFlag(folder, true), without = runFlag(folder, false);
  REQUIRE(with.size() == 4);
  REQUIRE(without.size() == 4);
  for (size_t i = 0; i < with.size(); ++i) {
    const config::Json& flag = with[i]["cloths"][0];
    REQUIRE(flag.contains("visible_faces"));
    CHECK(flag["visible_faces"].get<int>() > 0);
    CHECK(flag["visible_faces"].get<int>() < flag["faces"].get<int>());  // the camera frames part of the flag
    CHECK(flag["mean_view_factor"].get<double>() > 0.2);
    CHECK(flag["mean_view_factor"].get<double>() < 1.0);
    CHECK_FALSE(with[i]["cloths"][1].contains("visible_faces"));  // no `view` on this cloth
    CHECK_FALSE(without[i]["cloths"][0].contains("visible_faces"));
  }
  // Coarser out of view: the view-dependent run never has more faces than the view-independent one.
  for (size_t i = 0; i < with.size(); ++i)
    CHECK(with[i]["cloths"][0]["faces"].get<int>() <= without[i]["cloths"][0]["faces"].get<int>());
  fs::remove_all(folder);
}
