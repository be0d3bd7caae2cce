// The CLI contract, exercised through the real executable: exit codes, one-line messages that name the file and
// the place, and no output left behind on bad input.
#include <catch2/catch.hpp>
#include <fstream>

#include "bad_input.h"
#include "config/schema.h"
#include "io/atomic_file.h"
#include "io/obj.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

const char* kGridCloth = R"({"name": "sheet", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}}})";

std::string shotWith(const std::string& cloth, const std::string& extra = "") {
  return std::string("{\"frames\": 2, ") + extra + "\"cloths\": [" + cloth + "]}";
}

// Runs `simulate` on a shot text and checks the bad-input contract: exit 2, one line naming `place`, no output.
void requireRejected(const std::string& shotText, const std::string& place, const std::string& meshText = "") {
  TempDir dir("cli-bad");
  writeText(dir / "conf/shot.json", shotText);
  if (!meshText.empty()) writeText(dir / "meshes/cloth.obj", meshText);
  fs::path out = dir / "out";
  requireBadInput(runAdacloth("simulate '" + (dir / "conf/shot.json").string() + "' -o '" + out.string() + "'"),
                  place, out);
}

}  // namespace

TEST_CASE("adacloth --help, --version and unknown commands", "[app]") {
  CHECK(runAdacloth("--help").exitCode == 0);
  RunResult v = runAdacloth("--version");
  CHECK(v.exitCode == 0);
  CHECK_THAT(v.output, Catch::StartsWith("adacloth "));
  for (const char* cmd : {"simulate", "info", "schema"}) {
    RunResult h = runAdacloth(std::string(cmd) + " --help");
    CHECK(h.exitCode == 0);
    CHECK_THAT(h.output, Catch::StartsWith("usage: adacloth"));
  }
  RunResult bad = runAdacloth("simulat x.json");
  CHECK(bad.exitCode == 2);
  CHECK_THAT(bad.output, Catch::Contains("did you mean 'simulate'"));
  RunResult opt = runAdacloth("simulate x.json --frmes 3");
  CHECK(opt.exitCode == 2);
  CHECK_THAT(opt.output, Catch::Contains("did you mean '--frames'"));
}

TEST_CASE("adacloth info succeeds on every shot in conf/", "[app]") {
  int shots = 0;
  for (const auto& entry : fs::directory_iterator(sourceDir() / "conf")) {
    // Hidden files are not shots: tools/stress.py writes (and removes) its temporary .stress-*.json there while the
    // stress tests run beside this one.
    if (entry.path().extension() != ".json" || entry.path().filename().string()[0] == '.') continue;
    ++shots;
    RunResult r = runAdacloth("info '" + entry.path().string() + "'");
    INFO(entry.path() << "\n" << r.output);
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.output, Catch::Contains("cloths:"));
  }
  CHECK(shots >= 1);
}

TEST_CASE("simulate writes the output layout", "[app]") {
  TempDir dir("cli-ok");
  writeText(dir / "shot.json", shotWith(kGridCloth, "\"name\": \"tiny\", "));
  fs::path out = dir / "out";
  // A stale frame from an earlier, longer run must not survive.
  writeText(out / "frames/sheet_00009.obj", "stale");
  writeText(out / "movie.mp4", "stale");
  writeText(out / "notes.txt", "the user's own file");
  RunResult r = runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + out.string() + "' --quiet");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  for (int f = 0; f <= 2; ++f) CHECK(fs::exists(out / "frames" / ("sheet_0000" + std::to_string(f) + ".obj")));
  CHECK_FALSE(fs::exists(out / "frames/sheet_00009.obj"));
  CHECK_FALSE(fs::exists(out / "movie.mp4"));
  CHECK(fs::exists(out / "notes.txt"));
  std::ifstream stats(out / "stats.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(stats, line)) {
    auto j = config::Json::parse(line);
    CHECK(j["frame"] == lines);
    CHECK(j["cloths"][0]["name"] == "sheet");
    CHECK(j["cloths"][0]["faces"] == 32);
    // Every phase is timed once: they add up to no more than the frame's total.
    double phases = 0;
    for (const char* phase : {"physics", "strain_limit", "collision", "occlusion", "sizing", "remesh", "checks", "io",
                              "upsample", "measure"}) {
      REQUIRE(j["wall_ms"].contains(phase));
      CHECK(j["wall_ms"][phase].get<double>() >= 0);
      phases += j["wall_ms"][phase].get<double>();
    }
    CHECK(phases <= j["wall_ms"]["total"].get<double>() * (1 + 1e-9));
    CHECK(j["wall_ms"].size() == 11);
    // Work counters: the collision phase ran once per step (4 per frame, none at frame 0).
    CHECK(j["collision"]["steps"] == (lines == 0 ? 0 : 4));
    CHECK(j["collision"]["unresolved"] == 0);
    for (const char* counter : {"ccd_passes", "ccd_tests", "impacts", "impact_zones", "zone_passes",
                                "unresolved_steps", "held_contacts", "held_yields"})
      CHECK(j["collision"].contains(counter));
    CHECK(j["collision"]["ccd_passes"].get<int>() >= j["collision"]["steps"].get<int>());
    for (const char* counter : {"splits", "flips", "collapses"}) CHECK(j["cloths"][0][counter] == 0);  // fixed mesh
    ++lines;
  }
  CHECK(lines == 3);
  auto resolved = config::Json::parse(readFile(out / "shot.resolved.json"));
  CHECK(resolved["name"] == "tiny");
  CHECK(resolved["cloths"][0]["transform"]["scale"] == 1.0);
  for (const auto& entry : fs::recursive_directory_iterator(out))
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
}

TEST_CASE("simulate warns when a cloth starts inside an obstacle", "[app]") {
  // The sheet's middle lies 0.3 m deep inside the ball; the ball beside it touches nothing.
  TempDir dir("cli-inside");
  const auto shotAt = [&](double x) {
    return shotWith(kGridCloth, R"("obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.3}},
                                    "transform": {"translate": [)" + std::to_string(x) + R"(, 0.5, 0]}}], )");
  };
  writeText(dir / "inside.json", shotAt(0.5));
  writeText(dir / "beside.json", shotAt(2.0));
  const RunResult inside = runAdacloth("simulate '" + (dir / "inside.json").string() + "' -o '" +
                                       (dir / "out1").string() + "' --frames 1 --quiet");
  INFO(inside.output);
  // 29.86 cm: the sphere is a subdivided icosahedron.
  CHECK_THAT(inside.output, Catch::Contains("warning: cloth \"sheet\" starts 29.86 cm inside an obstacle, deeper "
                                            "than the contact thickness (0.50 cm)"));
  const RunResult beside = runAdacloth("simulate '" + (dir / "beside.json").string() + "' -o '" +
                                       (dir / "out2").string() + "' --frames 1 --quiet");
  CHECK(beside.exitCode == 0);
  CHECK(beside.output.find("warning") == std::string::npos);
  // A failure later in the run repeats it (a speed guard of 1 mm/s stops the falling sheet in its first step).
  writeText(dir / "stopped.json", shotWith(kGridCloth, R"("max_speed": 0.001, "obstacles": [{"name": "ball",
      "mesh": {"sphere": {"radius": 0.3}}, "transform": {"translate": [0.5, 0.5, 0]}}], )"));
  const RunResult stopped = runAdacloth("simulate '" + (dir / "stopped.json").string() + "' -o '" +
                                        (dir / "out3").string() + "' --frames 1 --quiet");
  INFO(stopped.output);
  CHECK(stopped.exitCode == 3);
  CHECK_THAT(stopped.output, Catch::Contains("the simulation blew up (try more steps_per_frame or a softer "
                                             "material); note: cloth \"sheet\" starts 29.86 cm inside"));
}

TEST_CASE("simulate names a handle whose keys drive held cloth into an obstacle", "[app]") {
  // The sheet hangs from its top edge, whose handle is keyed 1.3 m down over 0.4 s: into the middle of a box whose top
  // lies 1.1 m below the edge's start. Keyed 0.8 m down, the edge stops 30 cm above the box.
  TempDir dir("cli-held-inside");
  const auto shotDown = [](const std::string& drop) {
    return std::string(R"({"frames": 12, "obstacles": [{"name": "box", "mesh": {"box": {"size": [2, 0.4, 2]}},
        "transform": {"translate": [0.5, -0.3, 0]}}],
      "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}},
        "handles": [{"region": {"min": [-0.01, 0.99], "max": [1.01, 1.01]},
                     "motion": [{"time": 0, "translate": [0, 0, 0]}, {"time": 0.4, "translate": [0, )") +
           drop + ", 0]}]}]}]}";
  };
  writeText(dir / "into.json", shotDown("-1.3"));
  writeText(dir / "clear.json", shotDown("-0.8"));
  const RunResult into = runAdacloth("simulate '" + (dir / "into.json").string() + "' -o '" + (dir / "out1").string() +
                                     "' --quiet");
  INFO(into.output);
  CHECK(into.exitCode == 0);
  CHECK_THAT(into.output, Catch::Contains("cloth \"sheet\": 5 nodes held by the handle at /cloths/0/handles/0 lie "
                                          "inside obstacle \"box\""));
  CHECK_THAT(into.output, Catch::Contains("keep the handle's keys clear of the obstacle"));
  // Once per handle.
  CHECK(into.output.find("held by the handle") == into.output.rfind("held by the handle"));
  const RunResult clear = runAdacloth("simulate '" + (dir / "clear.json").string() + "' -o '" +
                                      (dir / "out2").string() + "' --quiet");
  INFO(clear.output);
  CHECK(clear.exitCode == 0);
  CHECK(clear.output.find("held by the handle") == std::string::npos);
}

TEST_CASE("simulate warns about an obstacle mesh that is open or faces inwards", "[app]") {
  // A plate of two triangles (open), the same plate closed into a flat box turned inside out, and a box generator:
  // only the first two are warned about, once each, by name.
  TempDir dir("cli-solids");
  writeText(dir / "plate.obj", "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 3 2\nf 1 4 3\n");
  writeText(dir / "inside_out.obj",
            "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nv -1 0.1 -1\nv 1 0.1 -1\nv 1 0.1 1\nv -1 0.1 1\n"
            "f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\n"
            "f 4 1 5\nf 4 5 8\n");
  writeText(dir / "shot.json", R"({"frames": 1,
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [0.5, 0.5], "cells": [4, 4]}},
                "transform": {"translate": [5, 2, 0]}}],
    "obstacles": [{"name": "plate", "mesh": "plate.obj"}, {"name": "flipped", "mesh": "inside_out.obj",
                   "transform": {"translate": [0, -3, 0]}},
                  {"name": "box", "mesh": {"box": {"size": [1, 1, 1]}}, "transform": {"translate": [0, -6, 0]}}]})");
  const RunResult run = runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + (dir / "out").string() +
                                    "' --quiet");
  INFO(run.output);
  CHECK(run.exitCode == 0);
  CHECK_THAT(run.output, Catch::Contains("obstacle \"plate\": its mesh is not closed (4 edges not shared by two "
                                         "faces)"));
  CHECK_THAT(run.output, Catch::Contains("obstacle \"flipped\": its faces point inwards"));
  CHECK(run.output.find("obstacle \"box\"") == std::string::npos);
  CHECK(run.output.find("not closed") == run.output.rfind("not closed"));
}

TEST_CASE("simulate warns once when cloths start through each other and sums up the frames they end so", "[app]") {
  // Two sheets made crossing each other along x = 0.5 m: contact cannot take them apart (it keeps cloth from
  // crossing, and they start crossed), so every frame ends with intersecting triangles. The run says so at the start,
  // naming both, instead of blaming the contact passes at frame 0.
  TempDir dir("cli-crossing");
  writeText(dir / "crossing.json", std::string(R"({"frames": 2, "cloths": [
      {"name": "a", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}}},
      {"name": "b", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}},
       "transform": {"rotate_deg": [0, 90, 0], "translate": [0.5, 0, 0.5]}}]})"));
  const RunResult run = runAdacloth("simulate '" + (dir / "crossing.json").string() + "' -o '" +
                                    (dir / "out").string() + "' --quiet");
  INFO(run.output);
  CHECK(run.exitCode == 0);
  const std::string told = "warning: cloths \"a\" and \"b\" start through each other (";
  CHECK_THAT(run.output, Catch::Contains(told));
  CHECK(run.output.find(told) == run.output.rfind(told));  // once, not every frame
  CHECK_THAT(run.output, Catch::Contains("place the cloths apart"));
  for (const char* cloth : {"a", "b"}) {
    CHECK_THAT(run.output, !Catch::Contains(std::string("cloth \"") + cloth + "\" ends the frame with "));
    CHECK_THAT(run.output, Catch::Contains(std::string("cloth \"") + cloth + "\" ended 3 frames with triangles "
                                           "through each other (first frame 0"));
  }
  CHECK_THAT(run.output, Catch::Contains("warning: over the run, "));
}

TEST_CASE("a resumed run of cloths that start through each other warns as the first run did", "[app]") {
  // The shot of the test above, run to frame 2 with a checkpoint there, then resumed to frame 4: the resumed run
  // does not pass frame 0, where the start is checked, so it checks the shot's start made again. Without that it
  // blamed the contact passes at its first frame.
  TempDir dir("cli-crossing-resume");
  writeText(dir / "crossing.json", std::string(R"({"frames": 4, "checkpoint": {"every": 2}, "cloths": [
      {"name": "a", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}}},
      {"name": "b", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}},
       "transform": {"rotate_deg": [0, 90, 0], "translate": [0.5, 0, 0.5]}}]})"));
  const std::string simulate = "simulate '" + (dir / "crossing.json").string() + "' -o '" + (dir / "out").string() +
                               "' --quiet";
  const RunResult first = runAdacloth(simulate + " --frames 2");
  REQUIRE(first.exitCode == 0);
  const RunResult resumed = runAdacloth(simulate + " --resume");
  INFO(resumed.output);
  CHECK(resumed.exitCode == 0);
  CHECK_THAT(resumed.output, Catch::Contains("(first frame 3"));  // it did resume (frames 3 and 4)
  const std::string told = "warning: cloths \"a\" and \"b\" start through each other (";
  CHECK_THAT(resumed.output, Catch::Contains(told));
  CHECK(resumed.output.find(told) == resumed.output.rfind(told));
  for (const char* cloth : {"a", "b"})
    CHECK_THAT(resumed.output, !Catch::Contains(std::string("cloth \"") + cloth + "\" ends the frame with "));
}

TEST_CASE("a pre-roll simulates frames before frame 0 and binds cloth to the rest pose", "[app]") {
  // The body's sequence starts at x = 1; its rest mesh (the pose the cloth was fitted to) lies at x = -2. A small
  // sheet 1 mm in front of the rest mesh is bound to the body.
  TempDir dir("cli-preroll");
  auto triangleAt = [](double dx) {
    auto v = [&](double x, double y) { return "v " + std::to_string(x + dx) + " " + std::to_string(y) + " 0\n"; };
    return v(0, 0) + v(1, 0) + v(0, 1) + "f 1 2 3\n";
  };
  writeText(dir / "body_0000.obj", triangleAt(1));
  writeText(dir / "rest.obj", triangleAt(-2));
  const std::string body = R"("obstacles": [{"name": "body", "mesh": {"sequence": {"pattern": "body_%04d.obj"}}}], )";
  const std::string bodyFromRest = R"("obstacles": [{"name": "body", "mesh": {"sequence": {"pattern": "body_%04d.obj",
      "rest": "rest.obj"}}}], )";
  const std::string cloth = R"({"name": "patch", "mesh": {"grid": {"size": [0.1, 0.1], "cells": [1, 1]}},
      "transform": {"translate": [-1.9, 0.1, 0.001]},
      "handles": [{"region": {"min": [0, 0], "max": [0.1, 0.1]}, "bind_to": "body"}]})";
  auto run = [&](const std::string& name, const std::string& extra) {
    writeText(dir / (name + ".json"), shotWith(cloth, extra));
    return runAdacloth("simulate '" + (dir / (name + ".json")).string() + "' -o '" + (dir / name).string() +
                       "' --frames 1 --quiet");
  };
  // Without a pre-roll the sheet is 3 m from the body's pose at time 0: bad input.
  const RunResult plain = run("plain", body);
  CHECK(plain.exitCode == 2);
  CHECK_THAT(plain.output, Catch::Contains("/cloths/0/handles/0/bind_to: node 0 is 2.9 m from the surface of obstacle "
                                           "\"body\" at frame 0"));
  // With 12 frames of pre-roll it binds to the rest mesh and rides along to the pose at time 0, which frame 0 shows.
  const RunResult preroll = run("preroll", bodyFromRest + "\"preroll_frames\": 12, ");
  INFO(preroll.output);
  REQUIRE(preroll.exitCode == 0);
  const Mesh frame0 = readObj(dir / "preroll/frames/patch_00000.obj");
  CHECK(frame0.nodes[0].x.x() == Approx(1.1).margin(1e-6));
  CHECK(frame0.nodes[0].x.y() == Approx(0.1).margin(1e-6));
  const std::string lines = readFile(dir / "preroll/stats.jsonl");
  const auto stats = config::Json::parse(lines.substr(0, lines.find('\n')));
  CHECK(stats["frame"] == 0);
  CHECK(stats["time"] == 0.0);
  CHECK_FALSE(fs::exists(dir / "preroll/frames/patch_00002.obj"));
  const RunResult info = runAdacloth("info '" + (dir / "preroll.json").string() + "'");
  CHECK(info.exitCode == 0);
  CHECK_THAT(info.output, Catch::Contains("pre-roll: 12 frames (0.500 s) before frame 0, not written"));
  CHECK_THAT(info.output, Catch::Contains("pre-roll from its rest mesh "));
}

TEST_CASE("simulate with --frames limits the run", "[app]") {
  TempDir dir("cli-frames");
  writeText(dir / "shot.json", shotWith(kGridCloth));
  RunResult r = runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + (dir / "out").string() +
                            "' --frames 1 --threads 1");
  REQUIRE(r.exitCode == 0);
  CHECK(fs::exists(dir / "out/frames/sheet_00001.obj"));
  CHECK_FALSE(fs::exists(dir / "out/frames/sheet_00002.obj"));
  CHECK_THAT(r.output, Catch::Contains("frame 1/1"));
}

TEST_CASE("bad input: exit 2, one line naming the place, nothing written", "[app]") {
  SECTION("malformed JSON") { requireRejected("{\"cloths\": [", "shot.json:1:"); }
  SECTION("unknown key") {
    requireRejected(shotWith(kGridCloth, "\"fsp\": 24, "), "shot.json: /fsp: unknown key \"fsp\" (did you mean \"fps\"?)");
  }
  SECTION("wrong type") {
    requireRejected(shotWith(R"({"mesh": "../meshes/cloth.obj", "material": {"density": "heavy"}})"),
                    "shot.json: /cloths/0/material/density: expected a number, got \"heavy\"");
  }
  SECTION("missing mesh file") {
    requireRejected(shotWith(R"({"mesh": "../meshes/none.obj"})"), "shot.json: /cloths/0/mesh: mesh file");
  }
  const std::string cloth = R"({"mesh": "../meshes/cloth.obj"})";
  SECTION("NaN in a mesh") {
    requireRejected(shotWith(cloth), "cloth.obj:2: vertex coordinate 'nan'", "v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
  }
  SECTION("degenerate face") {
    requireRejected(shotWith(cloth), "cloth.obj:4: face is degenerate", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n");
  }
  SECTION("edge shared by three faces") {
    requireRejected(shotWith(cloth), "cloth.obj:8:",
                    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0.5 0.5 0\nf 1 2 3\nf 2 1 4\nf 1 2 5\n");
  }
  SECTION("index out of range") {
    requireRejected(shotWith(cloth), "cloth.obj:4: face refers to vertex 7", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
  }
  SECTION("a broken mesh file") { requireRejected(shotWith(cloth), "cloth.obj", "this is not an obj\n"); }
}
