#include "regression/scene_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "io/atomic_file.h"
#include "io/error.h"
#include "regression/image_check.h"
#include "regression/output_identity.h"
#include "regression/summary.h"
#include "regression/summary_compare.h"
#include "render/png.h"
#include "test_util.h"

namespace adacloth::regression {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

std::string threadsLabel(int threads) { return std::to_string(threads) + (threads == 1 ? " thread" : " threads"); }

fs::path referenceDir(const SceneSpec& scene) { return regressionDir() / scene.name; }

fs::path referenceImage(const SceneSpec& scene, int frame) {
  return referenceDir(scene) / ("frame_" + std::to_string(frame) + ".png");
}

fs::path renderedImage(const fs::path& out, int frame) {
  char name[32];
  std::snprintf(name, sizeof name, "%05d.png", frame);
  return out / "render" / name;
}

// The last lines of a command's output, for a failure message.
std::string tail(const std::string& output) {
  const size_t keep = 600;
  return output.size() <= keep ? output : "..." + output.substr(output.size() - keep);
}

// Runs adacloth; a non-zero exit is a failure naming the scene and what was run. Returns whether it succeeded.
bool run(const SceneSpec& scene, const std::string& what, const std::string& args, SceneOutcome& outcome) {
  const auto start = Clock::now();
  const test::RunResult r = test::runAdacloth(args);
  char took[64];
  std::snprintf(took, sizeof took, " (%.1f s)", secondsSince(start));
  if (r.exitCode == 0) {
    outcome.notes.push_back(scene.name + ": " + what + took);
    return true;
  }
  outcome.failures.push_back(scene.name + ": " + what + " failed with exit code " + std::to_string(r.exitCode) +
                             ": " + tail(r.output));
  return false;
}

bool simulate(const SceneSpec& scene, const fs::path& out, int threads, SceneOutcome& outcome) {
  return run(scene, "simulate " + std::to_string(scene.frames) + " frames with " + threadsLabel(threads),
             "simulate " + quoted(scene.shot) + " -o " + quoted(out) + " --frames " + std::to_string(scene.frames) +
                 " --threads " + std::to_string(threads) + " --quiet",
             outcome);
}

bool render(const SceneSpec& scene, const fs::path& out, SceneOutcome& outcome) {
  for (int frame : scene.renderFrames) {
    const std::string f = std::to_string(frame);
    if (!run(scene, "render frame " + f,
             "render " + quoted(out) + " --frames " + f + ":" + f + " --width " + std::to_string(scene.width) +
                 " --height " + std::to_string(scene.height) + " --quiet",
             outcome))
      return false;
  }
  return true;
}

struct SceneRun {
  bool ok = false;
  Summary summary;
};

// Everything both modes share: the runs at every thread count, the summary with its NaN check, the determinism
// check and the renders. The output folders live in `tmp`; the first run's is tmp/run0.
SceneRun runScene(const SceneSpec& scene, const fs::path& tmp, SceneOutcome& outcome) {
  SceneRun result;
  std::vector<fs::path> outs;
  for (size_t i = 0; i < scene.threads.size(); ++i) {
    outs.push_back(tmp / ("run" + std::to_string(i)));
    if (!simulate(scene, outs.back(), scene.threads[i], outcome)) return result;
  }
  std::vector<std::string> problems;
  result.summary = summarizeOutput(outs[0], scene.name, problems);
  for (const std::string& p : problems) outcome.failures.push_back(scene.name + ": " + p);
  for (size_t i = 1; i < outs.size(); ++i)
    for (std::string& f : compareOutputs(scene.name, outs[0], threadsLabel(scene.threads[0]), outs[i],
                                         threadsLabel(scene.threads[i])))
      outcome.failures.push_back(std::move(f));
  result.ok = render(scene, outs[0], outcome);
  return result;
}

std::optional<Summary> readReference(const SceneSpec& scene, SceneOutcome& outcome) {
  const fs::path file = referenceDir(scene) / "summary.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    outcome.failures.push_back(scene.name + ": no reference summary " + file.string() +
                               " (run tools/refresh-regression.sh " + scene.name + ")");
    return std::nullopt;
  }
  return fromSummaryJson(readFile(file), file.string());
}

// In refresh mode: the old reference PNG (if any) against the new render, as a note, then the new one in its place
// (recompressed at the highest zlib level to keep the checked-in files small).
void replaceImage(const SceneSpec& scene, int frame, const fs::path& rendered, SceneOutcome& outcome) {
  const fs::path reference = referenceImage(scene, frame);
  std::error_code ec;
  if (!fs::is_regular_file(reference, ec)) outcome.notes.push_back(scene.name + ": new " + reference.string());
  else if (auto moved = checkFrameImage(scene.name, frame, reference, rendered, scene.tolerances))
    outcome.notes.push_back("changed: " + *moved);
  writePng(readPng(rendered), reference, 9);
}

// Frame PNGs in the reference folder that the scene no longer renders.
void removeStaleImages(const SceneSpec& scene, SceneOutcome& outcome) {
  std::vector<fs::path> keep;
  for (int f : scene.renderFrames) keep.push_back(referenceImage(scene, f));
  for (const auto& entry : fs::directory_iterator(referenceDir(scene))) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("frame_", 0) != 0 || entry.path().extension() != ".png") continue;
    if (std::find(keep.begin(), keep.end(), entry.path()) != keep.end()) continue;
    fs::remove(entry.path());
    outcome.notes.push_back(scene.name + ": removed " + entry.path().string());
  }
}

// The scenes run while other tests run (ctest -j), so a 2-thread run rarely has both cores: with OpenMP's default
// spinning barriers it then takes up to 10 times longer (measured on drape). Sleeping at barriers changes timing
// only, never results. A value set by the caller is kept.
void preferPassiveOpenMPWaits() { ::setenv("OMP_WAIT_POLICY", "PASSIVE", 0); }

}  // namespace

bool refreshRequested() {
  const char* v = std::getenv("ADACLOTH_REFRESH_REGRESSION");
  return v && std::string(v) == "1";
}

SceneOutcome checkScene(const SceneSpec& scene) {
  SceneOutcome outcome;
  preferPassiveOpenMPWaits();
  const auto start = Clock::now();
  test::TempDir tmp("regression-" + scene.name);
  const SceneRun run = runScene(scene, tmp.path(), outcome);
  if (!run.ok) return outcome;
  if (auto reference = readReference(scene, outcome))
    for (std::string& f : compareSummaries(*reference, run.summary, scene.tolerances, clothWeightsOf(scene.shot)))
      outcome.failures.push_back(std::move(f));
  for (int frame : scene.renderFrames)
    if (auto f = checkFrameImage(scene.name, frame, referenceImage(scene, frame),
                                 renderedImage(tmp.path() / "run0", frame), scene.tolerances))
      outcome.failures.push_back(*f);
  char took[64];
  std::snprintf(took, sizeof took, ": checked in %.1f s", secondsSince(start));
  outcome.notes.push_back(scene.name + took);
  return outcome;
}

SceneOutcome refreshScene(const SceneSpec& scene) {
  SceneOutcome outcome;
  preferPassiveOpenMPWaits();
  test::TempDir tmp("regression-" + scene.name);
  const SceneRun run = runScene(scene, tmp.path(), outcome);
  if (!run.ok || !outcome.failures.empty()) {
    outcome.failures.push_back(scene.name + ": references left unchanged (the run above is unfit to be one)");
    return outcome;
  }
  fs::create_directories(referenceDir(scene));
  const fs::path summaryFile = referenceDir(scene) / "summary.json";
  std::error_code ec;
  if (fs::is_regular_file(summaryFile, ec)) {
    const Summary old = fromSummaryJson(readFile(summaryFile), summaryFile.string());
    const std::vector<std::string> moved =
        compareSummaries(old, run.summary, scene.tolerances, clothWeightsOf(scene.shot));
    for (const std::string& m : moved) outcome.notes.push_back("changed: " + m);
    if (moved.empty()) outcome.notes.push_back(scene.name + ": summary within the tolerances of the old reference");
  }
  writeFileAtomically(summaryFile, toSummaryJson(run.summary));
  for (int frame : scene.renderFrames) replaceImage(scene, frame, renderedImage(tmp.path() / "run0", frame), outcome);
  removeStaleImages(scene, outcome);
  outcome.notes.push_back(scene.name + ": wrote " + referenceDir(scene).string());
  return outcome;
}

}  // namespace adacloth::regression
