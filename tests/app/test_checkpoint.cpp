// Checkpoints: the state they hold restores exactly, and a damaged or foreign checkpoint is a clear error that leaves
// the output folder as it was. The kill-and-resume runs of whole shots are in tests/regression/test_resume.cpp.
// Also the fixed-topology outputs of the upsampling methods, whose history a resume must restore.
#include <catch2/catch.hpp>
#include <random>

#include "app/checkpoint.h"
#include "app/simulate.h"
#include "io/atomic_file.h"
#include "io/binary_stream.h"
#include "io/error.h"
#include "io/obj.h"
#include "mesh/generators.h"
#include "upsample/patch_mlp.h"
#include "upsample/wrinkle_file.h"
#include "frame_stats.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// An adaptive sheet held at one corner that moves, falling onto a ball: remeshing, handles, obstacle contacts and
// the solver's warm start all carry state from frame to frame.
const char* kShot = R"({
  "name": "ck", "frames": 4, "steps_per_frame": 2, "checkpoint": {"every": 2},
  "cloths": [{
    "name": "sheet", "mesh": {"grid": {"size": [0.6, 0.6], "cells": [6, 6]}},
    "transform": {"translate": [-0.3, 0.75, 0.3], "rotate_deg": [-90, 0, 0]},
    "material": "cotton", "remeshing": {"size": [0.03, 0.3]}, "strain_limit": {},
    "handles": [{"nodes": [0], "motion": [{"time": 0, "translate": [0, 0, 0]}, {"time": 1, "translate": [0, 0.2, 0]}]}]
  }],
  "obstacles": [{"name": "ball", "mesh": {"sphere": {"radius": 0.2, "subdivisions": 2}},
                 "transform": {"translate": [0, 0.5, 0]}}],
  "collision": {"thickness": 0.005}
})";

struct Run {
  Shot shot;
  Scene scene;
};

Run runShot(const fs::path& shotFile, const fs::path& out, int frames, bool resume = false) {
  Run run{loadShot(shotFile), Scene()};
  run.scene = buildScene(run.shot);
  RunOptions options;
  options.out = out;
  options.frames = frames;
  options.progress = Progress::Mode::Quiet;
  options.resume = resume;
  simulateShot(run.shot, run.scene, options);
  return run;
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// `simulate --resume` of the shot into `out`, on one thread.
RunResult resumeShot(const fs::path& shotFile, const fs::path& out) {
  return runAdacloth("simulate '" + shotFile.string() + "' -o '" + out.string() + "' --threads 1 --quiet --resume");
}

// Checks that frames 0..last of `pattern` (e.g. "flag_%05d.obj") are the same bytes in dir/whole and dir/part.
void checkSameFrames(const fs::path& dir, const char* pattern, int last) {
  for (int frame = 0; frame <= last; ++frame) {
    char name[64];
    std::snprintf(name, sizeof name, pattern, frame);
    INFO(name);
    CHECK(readFile(dir / "whole/frames" / name) == readFile(dir / "part/frames" / name));
  }
}

}  // namespace

TEST_CASE("a checkpoint holds the whole state: restored and written again, it is the same bytes", "[app]") {
  TempDir dir("ckpt-exact");
  writeText(dir / "shot.json", kShot);
  Run run = runShot(dir / "shot.json", dir / "out", 4);
  const auto checkpoints = listCheckpoints(dir / "out");
  REQUIRE(checkpoints.size() == 2);  // frames 2 and 4 (every 2, keep 2)
  CHECK(checkpoints[0].first == 2);
  CHECK(checkpoints[1].first == 4);
  const std::string bytes = readFile(checkpoints[1].second);
  // The run's own state after its last frame is what the file holds.
  Scene asBuilt = buildScene(run.shot);
  const uint64_t fingerprint = simulationFingerprint(run.shot, asBuilt, true);
  CHECK(encodeCheckpoint(run.scene, 4, fingerprint) == bytes);

  Shot shot = loadShot(dir / "shot.json");
  Scene fresh = buildScene(shot);
  CHECK(simulationFingerprint(shot, fresh, true) == fingerprint);
  CHECK(restoreCheckpoint(bytes, "frame_00004.ckpt", fingerprint, fresh) == 4);
  CHECK(encodeCheckpoint(fresh, 4, fingerprint) == bytes);
  CHECK(fresh.time == run.scene.time);
  REQUIRE(fresh.cloths[0].mesh.faces.size() == run.scene.cloths[0].mesh.faces.size());
  CHECK(fresh.cloths[0].mesh.faces.size() != 72);  // remeshed away from the 6 x 6 grid
  for (size_t i = 0; i < fresh.cloths[0].mesh.nodes.size(); ++i) {
    const Node &a = fresh.cloths[0].mesh.nodes[i], &b = run.scene.cloths[0].mesh.nodes[i];
    REQUIRE(a.mass == b.mass);
    REQUIRE(a.normal == b.normal);
  }
  CHECK(fresh.cloths[0].dynamics.pairs.size() == run.scene.cloths[0].dynamics.pairs.size());
  CHECK(fresh.cloths[0].strainLimits.edges.size() == run.scene.cloths[0].strainLimits.edges.size());
  CHECK(fresh.contactField.has_value());
}

TEST_CASE("a rigid bound handle's rest places are in the checkpoint: restored, the same state and bytes", "[app]") {
  // The sheet's middle bound to a ball that moves and turns, kept rigid (the default, written out): every held node
  // has a rest place.
  TempDir dir("ckpt-rigid");
  std::string text = kShot;
  const std::string handle = R"("handles": [{"nodes": [0], "motion": [{"time": 0, "translate": [0, 0, 0]}, )"
                             R"({"time": 1, "translate": [0, 0.2, 0]}]}])";
  REQUIRE(text.find(handle) != std::string::npos);
  text.replace(text.find(handle), handle.size(),
               R"("handles": [{"region": {"min": [0.2, 0.2], "max": [0.4, 0.4]}, "bind_to": "ball", )"
               R"("max_distance": 0.1, "bind_rigidity": 1}])");
  text.replace(text.find("0.75"), 4, "0.71");  // 1 cm over the ball's top
  const std::string ball = R"("transform": {"translate": [0, 0.5, 0]})";
  text.replace(text.find(ball), ball.size(), ball + R"(, "motion": [{"time": 0}, )"
               R"({"time": 1, "translate": [0.2, 0, 0], "rotate_deg": [0, 30, 0]}])");
  writeText(dir / "shot.json", text);
  Run run = runShot(dir / "shot.json", dir / "out", 4);
  const HandleState& held = run.scene.cloths[0].dynamics.handles[0];
  REQUIRE(held.rigidRest.size() == held.nodes.size());
  REQUIRE(held.nodes.size() > 1);
  const std::string bytes = readFile(checkpointFile(dir / "out", 4));
  Shot shot = loadShot(dir / "shot.json");
  Scene fresh = buildScene(shot);
  const uint64_t fingerprint = simulationFingerprint(shot, fresh, true);
  CHECK(restoreCheckpoint(bytes, "frame_00004.ckpt", fingerprint, fresh) == 4);
  CHECK(fresh.cloths[0].dynamics.handles[0].rigidRest == held.rigidRest);
  CHECK(encodeCheckpoint(fresh, 4, fingerprint) == bytes);
  // At bind_rigidity 0 the handle has none, and the fingerprint tells the two simulations apart.
  std::string soft = text;
  const std::string rigidity = R"("bind_rigidity": 1)";
  soft.replace(soft.find(rigidity), rigidity.size(), R"("bind_rigidity": 0)");
  writeText(dir / "soft.json", soft);
  Shot softShot = loadShot(dir / "soft.json");
  Scene softScene = buildScene(softShot);
  CHECK(softScene.cloths[0].dynamics.handles[0].rigidRest.empty());
  CHECK(simulationFingerprint(softShot, softScene, true) != fingerprint);
  CHECK_THAT(errorOf([&] { restoreCheckpoint(bytes, "c.ckpt", fingerprint, softScene); }),
             Catch::Contains("rigid rest places do not match"));
}

TEST_CASE("a damaged, foreign or unknown checkpoint is refused with its file named", "[app]") {
  TempDir dir("ckpt-bad");
  writeText(dir / "shot.json", kShot);
  Run run = runShot(dir / "shot.json", dir / "out", 2);
  const std::string good = readFile(checkpointFile(dir / "out", 2));
  Shot shot = loadShot(dir / "shot.json");
  Scene scene = buildScene(shot);
  const uint64_t fingerprint = simulationFingerprint(shot, scene, true);
  auto restore = [&](const std::string& bytes, uint64_t fp) {
    Scene s = buildScene(shot);
    return errorOf([&] { restoreCheckpoint(bytes, "c.ckpt", fp, s); });
  };
  CHECK(restore(good, fingerprint).empty());
  CHECK_THAT(restore("{\"frame\": 2}", fingerprint), Catch::Contains("c.ckpt: not an adacloth checkpoint"));
  std::string flipped = good;
  flipped[good.size() / 2] = char(flipped[good.size() / 2] ^ 0x10);
  CHECK_THAT(restore(flipped, fingerprint), Catch::Contains("c.ckpt: corrupt checkpoint"));
  CHECK_THAT(restore(good.substr(0, good.size() - 9), fingerprint), Catch::Contains("corrupt checkpoint"));
  std::string version = good;
  version[8] = 9;
  CHECK_THAT(restore(version, fingerprint), Catch::Contains("checkpoint format version 9"));
  CHECK_THAT(restore(good, fingerprint + 1), Catch::Contains("checkpoint of another simulation"));
  // The fingerprint changes with anything that changes the simulation, not with `frames` or `checkpoint`.
  auto fingerprintOf = [&](const std::string& from, const std::string& to, bool view = true) {
    std::string text = kShot;
    text.replace(text.find(from), from.size(), to);
    writeText(dir / "other.json", text);
    Shot other = loadShot(dir / "other.json");
    Scene s = buildScene(other);
    return simulationFingerprint(other, s, view);
  };
  CHECK(fingerprintOf("\"frames\": 4", "\"frames\": 40") == fingerprint);
  CHECK(fingerprintOf("\"every\": 2", "\"every\": 3") == fingerprint);
  CHECK(fingerprintOf("\"radius\": 0.2", "\"radius\": 0.21") != fingerprint);
  CHECK(fingerprintOf("\"cells\": [6, 6]", "\"cells\": [6, 7]") != fingerprint);
  CHECK(fingerprintOf("\"frames\": 4", "\"frames\": 4", false) != fingerprint);
}

TEST_CASE("any damage to a checkpoint's payload is an error, never a crash", "[app]") {
  TempDir dir("ckpt-fuzz");
  writeText(dir / "shot.json", kShot);
  runShot(dir / "shot.json", dir / "out", 2);
  const std::string good = readFile(checkpointFile(dir / "out", 2));
  const size_t payload = 8 + 4 + 8 + 4 + 8 + 8;
  Shot shot = loadShot(dir / "shot.json");
  std::mt19937 random(7);
  int refused = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string bytes = good;
    if (trial % 3 == 0) {
      bytes.resize(payload + random() % (good.size() - payload));
    } else {
      for (int k = 0; k < 1 + trial % 4; ++k)
        bytes[payload + random() % (good.size() - payload)] = char(random());
    }
    Scene scene = buildScene(shot);
    try {
      restorePayload(bytes, payload, "c.ckpt", scene);
    } catch (const BinaryFormatError&) {
      ++refused;
    } catch (const InputError&) {
      ++refused;
    }
  }
  // Flipped bytes inside positions and velocities are still a readable state; cuts and counts are not.
  CHECK(refused >= 100);
}

TEST_CASE("simulate --resume continues after the newest checkpoint with the same bytes", "[app]") {
  TempDir dir("ckpt-resume");
  writeText(dir / "shot.json", kShot);
  runShot(dir / "shot.json", dir / "whole", 4);
  // A run stopped after frame 3 (its newest checkpoint is frame 2), with frame 3's output to be redone.
  runShot(dir / "shot.json", dir / "part", 3);
  fs::remove(checkpointFile(dir / "part", 3));
  writeText(dir / "part/render/00003.png", "stale render");
  RunResult r = resumeShot(dir / "shot.json", dir / "part");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_FALSE(fs::exists(dir / "part/render/00003.png"));
  checkSameFrames(dir.path(), "sheet_%05d.obj", 4);
  CHECK(listCheckpoints(dir / "part").back().first == 4);
}

TEST_CASE("a resumed run makes solver auto's choices as the uninterrupted one: the same bytes", "[app]") {
  // A stiff flag in wind under a tight strain limit: solver auto turns to the factorization after frame 1 and checks
  // back by pcg at frame 7.
  const char* stiffShot = R"({
    "name": "stiff", "frames": 9, "steps_per_frame": 8, "checkpoint": {"every": 3},
    "wind": {"velocity": [0, 0, 12]},
    "cloths": [{
      "name": "flag", "mesh": {"grid": {"size": [1.0, 0.6], "cells": [30, 18]}},
      "transform": {"translate": [0, 2, 0]},
      "material": {"density": 0.15, "stretch": 20000, "shear": 2000, "bending": 5e-6, "damping": 0.002},
      "handles": [{"region": {"min": [-0.001, -0.001], "max": [0.001, 0.001]}},
                  {"region": {"min": [-0.001, 0.599], "max": [0.001, 0.601]}}],
      "strain_limit": {"max": 1.05}
    }]
  })";
  TempDir dir("ckpt-auto");
  writeText(dir / "shot.json", stiffShot);
  runShot(dir / "shot.json", dir / "whole", 9);
  std::vector<int> directSolves;
  for (const auto& row : frameStats(dir / "whole"))
    directSolves.push_back(row["cloths"][0]["solver_direct_solves"].get<int>());
  INFO("direct solves per frame: " << ::Catch::Detail::stringify(directSolves));
  REQUIRE(directSolves.size() == 10);
  CHECK(directSolves[1] == 0);  // pcg, and costly
  CHECK(directSolves[2] == 8);  // so the factorization from the next frame on
  CHECK(directSolves[7] == 0);  // a check frame
  // Stopped after frame 4: it resumes from frame 3, in direct mode, and must count its way to the check frame.
  runShot(dir / "shot.json", dir / "part", 4);
  RunResult r = resumeShot(dir / "shot.json", dir / "part");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  checkSameFrames(dir.path(), "flag_%05d.obj", 9);
}

TEST_CASE("simulate --resume on bad checkpoints: exit 2, one line, the folder untouched", "[app]") {
  TempDir dir("ckpt-cli");
  writeText(dir / "shot.json", kShot);
  runShot(dir / "shot.json", dir / "out", 4);
  const fs::path newest = checkpointFile(dir / "out", 4);
  const std::string stats = readFile(dir / "out/stats.jsonl");
  const std::string resume = "simulate '" + (dir / "shot.json").string() + "' -o '" + (dir / "out").string() +
                             "' --resume --quiet";
  auto requireRefused = [&](const std::string& args, const std::string& message) {
    RunResult r = runAdacloth(args);
    INFO(r.output);
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.output, Catch::StartsWith("adacloth: error: ") && Catch::Contains(message));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK(readFile(dir / "out/stats.jsonl") == stats);
    CHECK(fs::exists(dir / "out/frames/sheet_00004.obj"));
  };
  SECTION("corrupt") {
    std::string bytes = readFile(newest);
    bytes[bytes.size() - 3] = char(bytes[bytes.size() - 3] ^ 1);
    writeText(newest, bytes);
    requireRefused(resume, newest.string() + ": corrupt checkpoint");
  }
  SECTION("of another shot") {
    std::string text = kShot;
    text.replace(text.find("\"radius\": 0.2"), 13, "\"radius\": 0.25");
    writeText(dir / "other.json", text);
    requireRefused("simulate '" + (dir / "other.json").string() + "' -o '" + (dir / "out").string() +
                       "' --resume --quiet",
                   "checkpoint of another simulation");
  }
  SECTION("with --no-view where the run had the view") {
    requireRefused(resume + " --no-view", "checkpoint of another simulation");
  }
  SECTION("beyond the frames asked for") {
    requireRefused(resume + " --frames 3", "the checkpoint is after frame 3");
  }
  SECTION("stats that do not reach the checkpoint") {
    writeText(dir / "out/stats.jsonl", stats.substr(0, stats.find('\n') + 1));
    RunResult r = runAdacloth(resume);
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.output, Catch::Contains("stats.jsonl: has no stats line for frame 1"));
  }
}

TEST_CASE("simulate --resume without a checkpoint starts at frame 0; a new run clears old checkpoints", "[app]") {
  TempDir dir("ckpt-none");
  writeText(dir / "shot.json", kShot);
  RunResult r = runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + (dir / "out").string() +
                            "' --resume --frames 2");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_THAT(r.output, Catch::Contains("no checkpoint"));
  CHECK(fs::exists(dir / "out/frames/sheet_00002.obj"));
  CHECK(listCheckpoints(dir / "out").back().first == 2);
  writeText(checkpointFile(dir / "out", 8), "an old run's");
  r = runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + (dir / "out").string() +
                  "' --frames 1 --checkpoint-every 0 --quiet");
  REQUIRE(r.exitCode == 0);
  CHECK(listCheckpoints(dir / "out").empty());
}

TEST_CASE("a resumed run gives the patch MLP output its earlier frames back: the same bytes", "[app][upsample]") {
  TempDir dir("ckpt-mlp");
  // A random network over the sheet's material space (3 x 3 cells, one level): every input, the two earlier frames'
  // included, moves the output, so a resume that lost them would write other bytes.
  PatchMlp mlp = makePatchMlp(makeMeshPair(makeGrid(0.6, 0.6, 3, 3), 1), {8});
  std::mt19937 random(7);
  std::uniform_real_distribution<float> weight(-0.3f, 0.3f);
  for (PatchMlpLayer& layer : mlp.layers) {
    for (Eigen::Index i = 0; i < layer.W.size(); ++i) layer.W.data()[i] = weight(random);
    for (Eigen::Index i = 0; i < layer.b.size(); ++i) layer.b.data()[i] = weight(random);
  }
  mlp.outputStd.setConstant(0.01f);
  savePatchMlp(mlp, (dir / "mlp.bin").string());
  std::string shot = kShot;
  const std::string handles = "\"handles\"";
  shot.insert(shot.find(handles), R"("upsample": {"method": "mlp", "operator": "mlp.bin"}, )");
  writeText(dir / "shot.json", shot);
  runShot(dir / "shot.json", dir / "whole", 4);
  runShot(dir / "shot.json", dir / "part", 3);
  fs::remove(checkpointFile(dir / "part", 3));
  RunResult r = resumeShot(dir / "shot.json", dir / "part");
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  checkSameFrames(dir.path(), "sheet_out_%05d.obj", 4);
  // Without the earlier frames (the history of a fresh start at frame 3) the output differs: the check above can fail.
  Shot s = loadShot(dir / "shot.json");
  Scene scene = buildScene(s);
  const Mesh frame3 = readObj(dir / "whole/frames/sheet_00003.obj");
  const Mesh frame2 = readObj(dir / "whole/frames/sheet_00002.obj");
  scene.cloths[0].output->primeHistory(frame2);
  scene.cloths[0].output->primeHistory(frame3);
  const std::string resumed = scene.cloths[0].output->formatObj(scene.cloths[0].output->evaluate(frame3, 0.125).positions);
  Scene fresh = buildScene(s);
  const std::string cold = fresh.cloths[0].output->formatObj(fresh.cloths[0].output->evaluate(frame3, 0.125).positions);
  CHECK(resumed != cold);
  // The method must match the file's kind.
  writeText(dir / "linear.json", std::string(shot).replace(shot.find("\"mlp\""), 5, "\"linear\""));
  CHECK_THAT(errorOf([&] { buildScene(loadShot(dir / "linear.json")); }),
             Catch::Contains("mlp.bin is a \"mlp\" model, but upsample/method is \"linear\""));
}

TEST_CASE("a shot with upsample method wrinkles writes the wrinkle model's output mesh", "[app][upsample]") {
  TempDir dir("wrinkle-out");
  // The rest pose alone: the output is the sheet's own resampling plus the model's (zero) rest displacements.
  const MeshPair pair = makeMeshPair(makeGrid(0.6, 0.6, 3, 3), 1);
  TrainingSequence rest;
  rest.coarse.push_back(nodePositions(pair.coarse));
  rest.fine.push_back(nodePositions(pair.sub.fine));
  rest.time.push_back(0);
  WrinkleParams params;
  params.poses = 1;
  saveWrinkleModel(trainWrinkles(pair, params, {rest}, {}).model, (dir / "w.bin").string());
  std::string shot = kShot;
  shot.insert(shot.find("\"handles\""), R"("upsample": {"method": "wrinkles", "operator": "w.bin"}, )");
  writeText(dir / "shot.json", shot);
  runShot(dir / "shot.json", dir / "out", 2);
  const std::string obj = readFile(dir / "out/frames/sheet_out_00002.obj");
  CHECK(size_t(std::count(obj.begin(), obj.end(), 'v')) >= pair.sub.fine.nodes.size());
  const Mesh out = readObj(dir / "out/frames/sheet_out_00002.obj");
  CHECK(out.nodes.size() == pair.sub.fine.nodes.size());
  for (const Node& n : out.nodes) CHECK(n.x.allFinite());
}
