#include <regex>

#include <catch2/catch.hpp>

#include "app/tracked_shot.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "test_util.h"
#include "upsample/tracking.h"

using namespace adacloth;

namespace {

// A small flag: a 4 x 3 grid held along its left edge, in wind.
std::string flagShot(const std::string& handle) {
  return R"({"name": "t", "fps": 24, "frames": 3, "steps_per_frame": 4,
    "wind": {"velocity": [5, 0, 1]},
    "cloths": [{"name": "flag", "mesh": {"grid": {"size": [0.6, 0.4], "cells": [4, 3]}},
                "material": "silk", "handles": [)" + handle + R"(]}]})";
}

// `adacloth upsample track` of `shot` into `out` (both in `dir`): one subdivision level, 4 harmonics, 3 frames.
void trackTiny(const std::string& dir, const std::string& shot, const std::string& out) {
  const test::RunResult r = test::runAdacloth("upsample track '" + dir + "/" + shot + "' -o '" + dir + "/" + out +
                                              "' --levels 1 --test-functions 4 --frames 3 --quiet");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
}

}  // namespace

TEST_CASE("tracked shot: fine run follows the coarse one through its lowest harmonics", "[upsample]") {
  const Shot shot = parseShot(flagShot(R"({"region": {"min": [0, 0], "max": [0, 0.4]}})"), "conf/s.json");
  TrackOptions options;
  options.levels = 1;
  options.testFunctions = 6;
  options.progress = Progress::Mode::Quiet;
  const TrackedData data = runTrackedShot(shot, options);
  REQUIRE(data.frames.coarse.size() == 4);
  const Subdivision sub = subdivide(data.coarse, 1);
  const TrackingConstraint c = makeTracking(lowestHarmonics(sub.fine, 6), 6, sub.midpoint);
  for (size_t f = 0; f < 4; ++f) {
    CHECK(data.frames.fine[f].rows() == long(sub.fine.nodes.size()));  // constant output topology
    CHECK(trackingViolation(c, data.frames.coarse[f], data.frames.fine[f]) < 1e-6);
  }
  // The cloth moved (wind, gravity), so the check above is not trivially about a rest pose.
  CHECK((data.frames.coarse[3] - data.frames.coarse[0]).cwiseAbs().maxCoeff() > 1e-3);
  // The written folder reads back the same frames (float precision).
  test::TempDir dir("uptrack");
  writeTrackedData(data, dir.path());
  const TrackedData back = readTrackedData(dir.path());
  CHECK(back.levels == 1);
  CHECK(back.frames.time == data.frames.time);
  CHECK((back.frames.fine[3] - data.frames.fine[3]).cwiseAbs().maxCoeff() < 1e-6);
  // A fine-only perturbation leaves the coarse run bit for bit and moves the fine one (the twin of a run whose coarse
  // motion never parts from it).
  options.finePerturbation = 1e-4;
  const TrackedData twin = runTrackedShot(shot, options);
  for (size_t f = 0; f < 4; ++f) CHECK(twin.frames.coarse[f] == data.frames.coarse[f]);
  CHECK((twin.frames.fine[3] - data.frames.fine[3]).cwiseAbs().maxCoeff() > 1e-7);
}

TEST_CASE("tracked shot: a pre-roll runs before frame 0, which comes at time 0", "[upsample]") {
  std::string text = flagShot(R"({"region": {"min": [0, 0], "max": [0, 0.4]}})");
  text.insert(1, R"("preroll_frames": 6, )");
  const Shot withPreroll = parseShot(text, "conf/s.json");
  const Shot plain = parseShot(flagShot(R"({"region": {"min": [0, 0], "max": [0, 0.4]}})"), "conf/s.json");
  TrackOptions options;
  options.levels = 1;
  options.testFunctions = 6;
  options.frames = 1;
  options.progress = Progress::Mode::Quiet;
  const TrackedData a = runTrackedShot(withPreroll, options), b = runTrackedShot(plain, options);
  REQUIRE(a.frames.time.size() == 2);
  CHECK(a.frames.time[0] == 0.0);
  CHECK(a.frames.time[1] == b.frames.time[1]);
  // Frame 0 is the cloth after a quarter second in the wind, not at rest.
  CHECK((a.frames.coarse[0] - b.frames.coarse[0]).cwiseAbs().maxCoeff() > 1e-3);
  const Subdivision sub = subdivide(a.coarse, 1);
  const TrackingConstraint c = makeTracking(lowestHarmonics(sub.fine, 6), 6, sub.midpoint);
  CHECK(trackingViolation(c, a.frames.coarse[0], a.frames.fine[0]) < 1e-6);
}

TEST_CASE("tracked shot rejects handles by node index", "[upsample]") {
  const Shot shot = parseShot(flagShot(R"({"nodes": [0, 4]})"), "conf/s.json");
  TrackOptions options;
  options.progress = Progress::Mode::Quiet;
  CHECK_THROWS_WITH(runTrackedShot(shot, options), Catch::Contains("handles by node index"));
}

TEST_CASE("adacloth upsample track, train and eval end to end on a tiny flag", "[upsample]") {
  test::TempDir dir("upcli");
  test::writeText(dir / "flag.json", flagShot(R"({"region": {"min": [0, 0], "max": [0, 0.4]}})"));
  const std::string d = dir.path().string();
  for (const char* name : {"a", "b"}) trackTiny(d, "flag.json", name);
  test::RunResult r = test::runAdacloth("upsample train '" + d + "/a' -o '" + d + "/op.bin' --K 20 --gamma1 0.01");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  r = test::runAdacloth("upsample eval '" + d + "/op.bin' --training '" + d + "/a' --heldout '" + d + "/b' --json '" +
                        d + "/eval.json'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_THAT(r.output, Catch::Contains("barycentric") && Catch::Contains("loop") && Catch::Contains("linear"));
  const std::string json = readFile(dir / "eval.json");
  for (const char* key : {"\"heldout\"", "\"training\"", "\"ms_per_frame\"", "\"barycentric\"", "\"linear\"", "\"curvature_ratio\""})
    CHECK_THAT(json, Catch::Contains(key));
  // A regularization scan trains one operator per listed profile and writes the one with the lowest validation
  // error, which `eval` then reproduces on the same folder.
  r = test::runAdacloth("upsample train '" + d + "/a' -o '" + d + "/scan.bin' --K 20 --gamma1 0.01,100 --gammaN 1e6 "
                        "--validate '" + d + "/b'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  const std::regex validationLine("validation error ([0-9.]+) mm");
  std::vector<double> errors;
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), validationLine); it != std::sregex_iterator();
       ++it)
    errors.push_back(std::stod((*it)[1]));
  REQUIRE(errors.size() == 2);
  r = test::runAdacloth("upsample eval '" + d + "/scan.bin' --training '" + d + "/a' --heldout '" + d + "/b'");
  std::smatch learned;
  REQUIRE(std::regex_search(r.output, learned, std::regex("linear +[0-9.]+ +([0-9.]+)")));
  CHECK(std::stod(learned[1]) == Approx(std::min(errors[0], errors[1])).margin(1.5e-3));
  CHECK(test::runAdacloth("upsample train '" + d + "/a' -o x.bin --gamma1 0.01,100").exitCode == 2);
  // Wrinkles by example from the same folders; eval takes every kind of model file at once, one row each.
  r = test::runAdacloth("upsample train --method wrinkles '" + d + "/a' -o '" + d + "/w.bin' --poses 3");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  r = test::runAdacloth("upsample eval '" + d + "/op.bin' '" + d + "/w.bin' --training '" + d + "/a' --heldout '" + d +
                        "/b'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK(std::regex_search(r.output, std::regex("\\nwrinkles +[0-9.]+ +[0-9.]+")));
  CHECK(std::regex_search(r.output, std::regex("\\nlinear +[0-9.]+ +[0-9.]+")));
  // Options of one method given to another, and an unknown method, are bad input.
  CHECK(test::runAdacloth("upsample train --method wrinkles '" + d + "/a' -o x.bin --K 20").exitCode == 2);
  CHECK(test::runAdacloth("upsample train '" + d + "/a' -o x.bin --poses 3").exitCode == 2);
  CHECK(test::runAdacloth("upsample train --method cubic '" + d + "/a' -o x.bin").exitCode == 2);
  // Usage errors and a broken operator file are bad input (exit 2).
  CHECK(test::runAdacloth("upsample frobnicate").exitCode == 2);
  CHECK_THAT(test::runAdacloth("upsample --help").output, Catch::StartsWith("usage: adacloth upsample"));
  CHECK(test::runAdacloth("upsample train '" + d + "/a' -o x.bin --gamma1 -3").exitCode == 2);
  test::writeText(dir / "bad.bin", "not an operator");
  r = test::runAdacloth("upsample eval '" + d + "/bad.bin' --training '" + d + "/a' --heldout '" + d + "/b'");
  CHECK(r.exitCode == 2);
  CHECK_THAT(r.output, Catch::Contains("bad.bin"));
}

TEST_CASE("adacloth upsample twin bounds a predictor from two runs a hair apart", "[upsample]") {
  test::TempDir dir("uptwin");
  const std::string d = dir.path().string();
  const std::string held = R"({"region": {"min": [0, 0], "max": [0, 0.4]}})";
  test::writeText(dir / "a.json", flagShot(held));
  std::string twin = flagShot(held);
  twin.replace(twin.find("[5, 0, 1]"), 9, "[5.001, 0, 1]");
  test::writeText(dir / "b.json", twin);
  for (const std::string name : {"a", "b"}) trackTiny(d, name + ".json", name);
  // A run against itself: the fine runs never part, nothing to bound.
  test::RunResult r = test::runAdacloth("upsample twin '" + d + "/a' '" + d + "/a'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_THAT(r.output, Catch::Contains("nothing to bound"));
  // Two runs: a row per frame, and the summary in JSON (the tolerance is loose: 3 frames are not enough for the
  // coarse runs to agree much better than the fine ones).
  r = test::runAdacloth("upsample twin '" + d + "/a' '" + d + "/b' --tolerance 1000 --json '" + d + "/twin.json'");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_THAT(r.output, Catch::Contains("residual divergence"));
  const std::string json = readFile(dir / "twin.json");
  for (const char* key : {"\"frames_used\": 3", "\"bound_ratio\"", "\"estimate_ratio\"", "\"frames\""})
    CHECK_THAT(json, Catch::Contains(key));
  // Bad input: one folder, a missing folder, a bad number.
  CHECK(test::runAdacloth("upsample twin '" + d + "/a'").exitCode == 2);
  r = test::runAdacloth("upsample twin '" + d + "/a' '" + d + "/missing'");
  CHECK(r.exitCode == 2);
  CHECK_THAT(r.output, Catch::Contains("missing"));
  CHECK(test::runAdacloth("upsample twin '" + d + "/a' '" + d + "/b' --from -1").exitCode == 2);
}
