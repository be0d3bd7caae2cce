// `simulate --cloths` and `adacloth merge`: group runs joined into the output of the whole shot, byte for byte, and
// every way the groups can fail to fit (docs/farm.md).
#include <catch2/catch.hpp>
#include <fstream>

#include "bad_input.h"
#include "config/schema.h"
#include "farm_fixtures.h"
#include "io/atomic_file.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

RunResult simulate(const fs::path& shot, const fs::path& out, const std::string& options = "") {
  return runAdacloth("simulate " + quoted(shot) + " -o " + quoted(out) + " --quiet " + options);
}

RunResult merge(const fs::path& out, const std::vector<fs::path>& groups) {
  std::string args = "merge " + quoted(out) + " --quiet";
  for (const fs::path& g : groups) args += " " + quoted(g);
  return runAdacloth(args);
}

// A shot of two sheets `gap` metres apart (edge to edge) run whole and as two groups, one sheet each.
struct SplitRun {
  TempDir dir{"merge"};
  fs::path shot = dir / "sheets.json";
  fs::path whole = dir / "whole", a = dir / "a", b = dir / "b", out = dir / "out";

  explicit SplitRun(double gap) {
    writeText(shot, sheetsShot({hangingSheet("a", 0), hangingSheet("b", 0.2 + gap)}));
    REQUIRE(simulate(shot, whole).exitCode == 0);
    REQUIRE(simulate(shot, a, "--cloths a --obstacles floor").exitCode == 0);
    REQUIRE(simulate(shot, b, "--cloths b").exitCode == 0);
  }
};

}  // namespace

TEST_CASE("simulate --cloths runs part of a shot and records the group", "[app][farm]") {
  SplitRun run(0.8);
  const config::Json part = config::Json::parse(readFile(run.a / "shot.resolved.json"));
  CHECK(part["cloths"].size() == 1);
  CHECK(part["obstacles"][0]["name"] == "floor");
  const config::Json record = config::Json::parse(readFile(run.a / "group.json"));
  CHECK(record["cloths"] == config::Json::array({"a"}));
  CHECK(record["obstacles"] == config::Json::array({"floor"}));
  CHECK(record["shot"] == config::Json::parse(readFile(run.whole / "shot.resolved.json")));
  CHECK_FALSE(fs::exists(run.a / "frames/b_00000.obj"));
  // A later run of the whole shot into the same folder drops the stale record.
  REQUIRE(simulate(run.shot, run.a).exitCode == 0);
  CHECK_FALSE(fs::exists(run.a / "group.json"));
}

TEST_CASE("simulate --cloths and --obstacles reject names the shot does not have", "[app][farm]") {
  TempDir dir("part-bad");
  writeText(dir / "sheets.json", sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1)}));
  requireBadInput(simulate(dir / "sheets.json", dir / "out", "--cloths a,c"),
                  "--cloths: " + (dir / "sheets.json").string() + " has no cloth \"c\"", dir / "out");
  requireBadInput(simulate(dir / "sheets.json", dir / "out", "--cloths a --obstacles flor"),
                  "has no obstacle \"flor\" (did you mean \"floor\"?)", dir / "out");
  requireBadInput(simulate(dir / "sheets.json", dir / "out", "--cloths a,a"), "\"a\" is named twice", dir / "out");
  requireBadInput(simulate(dir / "sheets.json", dir / "out", "--cloths a,"), "expected names separated by commas",
                  dir / "out");
  requireBadInput(simulate(sourceDir() / "conf/crowd.json", dir / "out", "--cloths skirt1 --obstacles floor"),
                  "cloth \"skirt1\" is bound to obstacle \"walker1\"", dir / "out");
}

TEST_CASE("merge joins group runs into the frames of the whole shot, byte for byte", "[app][farm]") {
  SplitRun run(0.8);
  RunResult r = merge(run.out, {run.a, run.b});
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(run.whole / "frames")) {
    ++files;
    CHECK(readFile(entry.path()) == readFile(run.out / "frames" / entry.path().filename()));
  }
  CHECK(files == 6);
  CHECK(readFile(run.out / "obstacles/floor_00000.obj") == readFile(run.whole / "obstacles/floor_00000.obj"));
  CHECK(readFile(run.out / "shot.resolved.json") == readFile(run.whole / "shot.resolved.json"));
  CHECK_FALSE(fs::exists(run.out / "group.json"));
  std::ifstream stats(run.out / "stats.jsonl");
  std::string line;
  int frame = 0;
  while (std::getline(stats, line)) {
    const config::Json merged = config::Json::parse(line);
    CHECK(merged["frame"] == frame);
    REQUIRE(merged["cloths"].size() == 2);
    CHECK(merged["cloths"][0]["name"] == "a");
    CHECK(merged["cloths"][1]["name"] == "b");
    CHECK(merged["collision"]["steps"] == (frame == 0 ? 0 : 4));  // the same steps in both groups, not their sum
    CHECK(merged["wall_ms"]["total"].get<double>() > 0);
    ++frame;
  }
  CHECK(frame == 3);
  // Merged again into the same folder: the earlier merge's files are replaced, the user's kept.
  writeText(run.out / "notes.txt", "mine");
  REQUIRE(merge(run.out, {run.b, run.a}).exitCode == 0);
  CHECK(fs::exists(run.out / "notes.txt"));
  CHECK(readFile(run.out / "frames/b_00002.obj") == readFile(run.whole / "frames/b_00002.obj"));
}

TEST_CASE("merge refuses groups that do not fit together, and writes nothing", "[app][farm]") {
  SplitRun run(0.8);
  SECTION("a folder that is no group run") {
    requireBadInput(merge(run.out, {run.a, run.whole}), run.whole.string() + ": no group.json", run.out);
  }
  SECTION("a cloth missing") {
    requireBadInput(merge(run.out, {run.a}), "no group holds cloth \"b\"", run.out);
  }
  SECTION("a cloth twice") {
    requireBadInput(merge(run.out, {run.a, run.b, run.a}), "cloth \"a\" is also in", run.out);
  }
  SECTION("groups of different lengths") {
    REQUIRE(simulate(run.shot, run.b, "--cloths b --frames 1").exitCode == 0);
    requireBadInput(merge(run.out, {run.a, run.b}), "has frames 0..1 (2 frames), expected 0..2 (3 frames)", run.out);
  }
  SECTION("groups of different shots") {
    writeText(run.dir / "other.json", sheetsShot({hangingSheet("a", 0), hangingSheet("b", 2.0)}));
    REQUIRE(simulate(run.dir / "other.json", run.b, "--cloths b").exitCode == 0);
    requireBadInput(merge(run.out, {run.a, run.b}), "group.json /shot differs", run.out);
  }
  SECTION("an obstacle that differs between groups") {
    writeText(run.b / "obstacles/floor_00000.obj", "v 0 0 0\n");
    requireBadInput(merge(run.out, {run.a, run.b}), "floor_00000.obj: differs from", run.out);
  }
  SECTION("a missing frame") {
    fs::remove(run.b / "frames/b_00001.obj");
    requireBadInput(merge(run.out, {run.a, run.b}), "stats.jsonl: has a line for frame 1, which frames/ lacks",
                    run.out);
  }
  SECTION("merging into a group folder") {
    RunResult r = merge(run.a, {run.a, run.b});
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.output, Catch::Contains("OUT is one of the group folders"));
  }
}

TEST_CASE("merge's safety net: groups that came near each other fail with exit 3", "[app][farm]") {
  SplitRun run(0.05);  // 5 cm apart: within the interaction distance (10 x 5 mm + 5 cm)
  RunResult r = merge(run.out, {run.a, run.b});
  INFO(r.output);
  CHECK(r.exitCode == 3);
  CHECK_THAT(r.output, Catch::Contains("frame 0: cloth \"a\" of " + run.a.string() + " came within 0.050 m"));
  CHECK_THAT(r.output, Catch::Contains("of cloth \"b\" of " + run.b.string()));
  CHECK_THAT(r.output, Catch::Contains("rerun the shot unsplit"));
  CHECK_FALSE(fs::exists(run.out));
}

TEST_CASE("merge's safety net: a cloth near an obstacle its group did not simulate", "[app][farm]") {
  TempDir dir("merge-obstacle");
  const std::string ball = R"(, {"name": "ball", "mesh": {"sphere": {"radius": 0.1}},
                                 "transform": {"translate": [1.1, 0.85, 0.1]}})";
  writeText(dir / "s.json", sheetsShot({hangingSheet("a", 0), hangingSheet("b", 1.0)}, ball));
  REQUIRE(simulate(dir / "s.json", dir / "a", "--cloths a --obstacles floor,ball").exitCode == 0);
  REQUIRE(simulate(dir / "s.json", dir / "b", "--cloths b --obstacles floor").exitCode == 0);
  RunResult r = merge(dir / "out", {dir / "a", dir / "b"});
  INFO(r.output);
  CHECK(r.exitCode == 3);
  CHECK_THAT(r.output, Catch::Contains("cloth \"b\" of " + (dir / "b").string()));
  CHECK_THAT(r.output, Catch::Contains("obstacle \"ball\" (simulated only by " + (dir / "a").string() + ")"));
  CHECK_FALSE(fs::exists(dir / "out"));
}
