// View-dependent refinement: what it saves (docs/design.md §4, docs/view-dependent.md).
// The flag of conf/flag.json (silk, wind, one pinned edge) with `remeshing: {size: [0.02, 0.2]}`, seen by a still
// close-up camera that frames the pinned half of the flag (x < 1 m at rest; the free end flaps in and out of the
// frame), run three ways through the real frame loop
// (simulateShot): view-dependent adaptive (`view` with its defaults), view-independent adaptive (the same shot with
// --no-view) and a fixed uniform 75 x 50 grid (edge = size_min). Prints median faces, visible faces and wall ms per
// frame over frames 1..N, and the ratios.
// Usage: bench_view [frames]   (default 48)
//        bench_view --shots [frames] [SHOT.json ...]   (default 24 frames; conf/skirt_walk, cape_run, crowd,
//        jump_cut): each shot of the view-dependent benchmark run view-dependently and with --no-view; faces and
//        ms per frame summed over the shot's cloths, medians over frames 1..N.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/scene.h"
#include "app/simulate.h"
#include "config/shot.h"
#include "io/atomic_file.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

const char* kCamera = R"({"width": 960, "height": 540, "interpolation": "linear", "keyframes": [
  {"time": 0, "eye": [0.4, 2.5, 1.3], "target": [0.4, 2.5, 0.0], "up": [0, 1, 0], "fov_y_deg": 30,
   "near": 0.05, "far": 50}]})";

// The flag shot; `cloth` is the mesh / remeshing / view part of the cloth object.
std::string flagShot(const fs::path& camera, int frames, const std::string& cloth) {
  return R"({"name": "bench_view", "fps": 24, "frames": )" + std::to_string(frames) + R"(, "camera": ")" +
         camera.string() + R"(", "steps_per_frame": 8,
    "wind": {"velocity": [6.0, 0.0, 1.5], "density": 1.2, "drag": 1.0, "lift": 0.3},
    "cloths": [{"name": "flag", "transform": {"translate": [0.0, 2.0, 0.0]}, "material": "silk",
                "handles": [{"region": {"min": [0.0, 0.0], "max": [0.0, 1.0]}}], "strain_limit": {"max": 1.1}, )" +
         cloth + "}]}";
}

struct Figures {
  double faces = 0, visible = -1, msPerFrame = 0, sizingMs = 0, remeshMs = 0;  // visible < 0: not reported
};

// Medians over frames 1..N of stats.jsonl (frame 0 holds the initial refinement): faces and visible faces of the
// first cloth, or with `allCloths` their sums over every cloth (a cloth without `view` counts all its faces as
// visible), and the frame time and its sizing and remesh phases.
Figures readStats(const fs::path& file, bool allCloths = false) {
  std::ifstream in(file);
  std::string line;
  std::vector<double> faces, visible, total, sizing, remesh;
  while (std::getline(in, line)) {
    const config::Json j = config::Json::parse(line);
    if (j["frame"].get<int>() == 0) continue;
    double f = 0, v = 0;
    bool anyVisible = false;
    for (const config::Json& c : j["cloths"]) {
      f += c["faces"].get<double>();
      anyVisible = anyVisible || c.contains("visible_faces");
      v += c.contains("visible_faces") ? c["visible_faces"].get<double>() : c["faces"].get<double>();
      if (!allCloths) break;
    }
    faces.push_back(f);
    if (anyVisible || allCloths) visible.push_back(v);
    total.push_back(j["wall_ms"]["total"].get<double>());
    sizing.push_back(j["wall_ms"]["sizing"].get<double>());
    remesh.push_back(j["wall_ms"]["remesh"].get<double>());
  }
  return {median(faces), visible.empty() ? -1.0 : median(visible), median(total), median(sizing), median(remesh)};
}

Figures run(const std::string& text, const fs::path& folder, bool view) {
  const Shot shot = parseShot(text, folder / "shot.json");
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = folder / (view ? "out_view" : "out_plain");
  options.frames = shot.frames;
  options.progress = Progress::Mode::Quiet;
  options.view = view;
  simulateShot(shot, scene, options);
  return readStats(options.out / "stats.jsonl");
}

// One conf/ shot, view-dependent or not, for `frames` frames.
Figures runShotFile(const fs::path& file, int frames, const fs::path& folder, bool view) {
  const Shot shot = loadShot(file);
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = folder / (shot.name + (view ? "_view" : "_plain"));
  options.frames = frames;
  options.progress = Progress::Mode::Quiet;
  options.view = view;
  simulateShot(shot, scene, options);
  return readStats(options.out / "stats.jsonl", true);
}

int benchShots(int argc, char** argv) {
  int frames = 24, first = 2;
  if (argc > 2 && std::atoi(argv[2]) > 0) frames = std::atoi(argv[2]), first = 3;
  std::vector<fs::path> shots;
  for (int i = first; i < argc; ++i) shots.emplace_back(argv[i]);
  if (shots.empty())
    for (const char* name : {"skirt_walk", "cape_run", "crowd", "jump_cut"})
      shots.push_back(fs::path(ADACLOTH_SOURCE_DIR) / "conf" / (std::string(name) + ".json"));
  const fs::path folder = fs::temp_directory_path() / "adacloth_bench_view_shots";
  std::printf("view-dependent benchmark shots, %d frames (medians over frames 1..%d of sums over cloths)\n\n", frames,
              frames);
  std::printf("| shot | faces (view) | faces (--no-view) | ms/frame (view) | ms/frame (--no-view) | faces ratio | "
              "time ratio |\n|---|---:|---:|---:|---:|---:|---:|\n");
  for (const fs::path& file : shots) {
    const Figures vd = runShotFile(file, frames, folder, true);
    const Figures vi = runShotFile(file, frames, folder, false);
    std::printf("| %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n", file.stem().c_str(), vd.faces, vi.faces,
                vd.msPerFrame, vi.msPerFrame, vi.faces / vd.faces, vi.msPerFrame / vd.msPerFrame);
    std::fflush(stdout);
  }
  return 0;
}

void printRow(const char* name, const Figures& f) {
  std::printf("| %s | %.0f | %s | %.1f | %.1f | %.1f |\n", name, f.faces,
              f.visible >= 0 ? std::to_string(int(f.visible)).c_str() : "–", f.msPerFrame, f.sizingMs, f.remeshMs);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--shots") return benchShots(argc, argv);
  const int frames = argc > 1 ? std::atoi(argv[1]) : 48;
  const fs::path folder = fs::temp_directory_path() / "adacloth_bench_view";
  fs::create_directories(folder);
  writeFileAtomically(folder / "camera.json", kCamera);
  const std::string adaptive = R"("mesh": {"grid": {"size": [1.5, 1.0], "cells": [15, 10]}},
      "remeshing": {"size": [0.02, 0.2]}, "view": {})";
  const std::string uniform = R"("mesh": {"grid": {"size": [1.5, 1.0], "cells": [75, 50]}})";
  const Figures vd = run(flagShot(folder / "camera.json", frames, adaptive), folder, true);
  const Figures vi = run(flagShot(folder / "camera.json", frames, adaptive), folder, false);
  const Figures un = run(flagShot(folder / "camera.json", frames, uniform), folder / "uniform", false);
  std::printf("flag, close-up camera on the pinned half, %d frames (medians over frames 1..%d)\n\n", frames, frames);
  std::printf("| run | faces | visible faces | ms / frame | sizing ms | remesh ms |\n|---|---:|---:|---:|---:|---:|\n");
  printRow("view-dependent adaptive", vd);
  printRow("view-independent adaptive (--no-view)", vi);
  printRow("uniform 75 x 50", un);
  std::printf("\n| ratio | faces | ms / frame |\n|---|---:|---:|\n");
  std::printf("| view-independent / view-dependent | %.2f | %.2f |\n", vi.faces / vd.faces,
              vi.msPerFrame / vd.msPerFrame);
  std::printf("| uniform / view-dependent | %.2f | %.2f |\n", un.faces / vd.faces, un.msPerFrame / vd.msPerFrame);
  return 0;
}
