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
//        bench_view --film [frames] [SHOT.json ...]   (default: each shot's full length; conf/skirt_walk, cape_run,
//        crowd): each character shot seen by its film camera (cameras/<shot>_film.json: a wide establishing shot, a
//        medium shot, a close-up and a cut to the back) run three ways: view-dependent, --no-view, and uniform at the
//        shot's size_min (the remesher with size [min, min]). Per run: faces and ms per frame, and the visible
//        fidelity: the median on-screen length (pixels) of the cloth edges in the frustum, the same over the cloth
//        nothing hides (a depth map of the frame's obstacles and cloth: a garment's back behind its front does not
//        count), and the difference of material renders (every 6th frame) from the --no-view run. Then per shot,
//        for the view-dependent and the --no-view run: the largest frame-to-frame change of the faces in view
//        (counted on the written meshes) outside the camera's cuts and how many exceed 5 %; and the worst visible
//        edge length at a cut against --no-view, of all the cloth in view, of the cloth nothing hides and of the
//        cloth that enters the view at the cut (issue 17 (c): cloth that enters at a jump cut is refined at the
//        cut). Last, the ceiling of the saving: in the --no-view run, all
//        faces over the faces the camera sees (in the frustum; then also facing it and not hidden behind the body or
//        other cloth), summed over frames: what a view-dependent run could save at most if it kept the visible cloth
//        as fine as --no-view (issue 17 (c)) and the cloth out of view cost nothing.
//        bench_view --cuts --reference DIR... --runs DIR...   runs already written (e.g. two ensembles of
//        tools/ensemble.py, one with --no-view as the reference): a single run's edges at a cut move by 10-20 % from
//        one trajectory to the next, so this compares means. Per cut of the runs' camera: the mean over runs of the
//        median on-screen edge of the cloth in the frustum and of the cloth nothing hides, against the references'
//        mean; and per set, the frames per run whose faces in the frustum change by more than 5 % outside the cuts.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>
#include <unistd.h>

#include "app/memory_policy.h"
#include "app/scene.h"
#include "app/simulate.h"
#include "config/camera_file.h"
#include "config/shot.h"
#include "config/shot_output.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "io/obj.h"
#include "render/compare.h"
#include "render/frame_scene.h"
#include "view/occlusion.h"
#include "view/view_factor_field.h"

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

// Runs `shot` through the real frame loop into `out` for `frames` frames, view-dependently or not, quietly.
void simulateQuietly(const Shot& shot, const fs::path& out, int frames, bool view) {
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = out;
  options.frames = frames;
  options.progress = Progress::Mode::Quiet;
  options.view = view;
  simulateShot(shot, scene, options);
}

Figures run(const std::string& text, const fs::path& folder, bool view) {
  const Shot shot = parseShot(text, folder / "shot.json");
  const fs::path out = folder / (view ? "out_view" : "out_plain");
  simulateQuietly(shot, out, shot.frames, view);
  return readStats(out / "stats.jsonl");
}

// One conf/ shot, view-dependent or not, for `frames` frames.
Figures runShotFile(const fs::path& file, int frames, const fs::path& folder, bool view) {
  const Shot shot = loadShot(file);
  const fs::path out = folder / (shot.name + (view ? "_view" : "_plain"));
  simulateQuietly(shot, out, frames, view);
  return readStats(out / "stats.jsonl", true);
}

// Where the runs write their frames (kept for a look afterwards): one folder per process under the temp folder, so
// that two benchmarks run side by side do not overwrite each other's outputs.
fs::path outputFolder(const std::string& name) {
  const fs::path folder = fs::temp_directory_path() / (name + "_" + std::to_string(getpid()));
  std::fprintf(stderr, "bench_view: the runs write to %s\n", folder.c_str());
  return folder;
}

// The arguments after "--shots" / "--film": an optional frame count (else `frames`), then shot files (else the
// conf/ shots named in `defaults`).
std::vector<fs::path> shotArguments(int argc, char** argv, std::initializer_list<const char*> defaults, int& frames) {
  int first = 2;
  if (argc > 2 && std::atoi(argv[2]) > 0) frames = std::atoi(argv[2]), first = 3;
  std::vector<fs::path> shots;
  for (int i = first; i < argc; ++i) shots.emplace_back(argv[i]);
  if (shots.empty())
    for (const char* name : defaults)
      shots.push_back(fs::path(ADACLOTH_SOURCE_DIR) / "conf" / (std::string(name) + ".json"));
  return shots;
}

int benchShots(int argc, char** argv) {
  int frames = 24;
  const std::vector<fs::path> shots =
      shotArguments(argc, argv, {"skirt_walk", "cape_run", "crowd", "jump_cut"}, frames);
  const fs::path folder = outputFolder("adacloth_bench_view_shots");
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

// --film: what the camera sees of each run.

// The on-screen lengths (pixels) of the cloth edges that `camera` sees in frame `frame` of `out` (an edge is seen
// when one of its faces reaches into the frustum and both its ends lie beyond the near plane). Adds the number of
// faces in view to `seenFaces`. With `before` (the camera of the frame before a cut), only the faces that it does not
// see count: the cloth that enters the view at the cut. With `unhidden` (a window of `camera` alone with the frame's
// depth maps, frameDepthWindow), a face must also have a node that nothing hides: the cloth in the image, whichever
// side of it shows (a skirt's back behind its front does not count; its inside seen under the hem does).
std::vector<double> visibleEdgePixels(const fs::path& out, const Shot& shot, const Camera& camera, int frame,
                                      int& seenFaces, const Camera* before = nullptr,
                                      const ViewWindow* unhidden = nullptr) {
  ViewParams occludedOnly;
  occludedOnly.occlusion = true;
  std::vector<double> lengths;
  for (const ClothSpec& cloth : shot.cloths) {
    const Mesh mesh = readObj(clothFrameFile(out, cloth.name, frame));
    std::vector<char> seen(mesh.faces.size(), 0);
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
      const Tri n = mesh.faceNodes(int(f));
      const Vec3 &a = mesh.nodes[n[0]].x, &b = mesh.nodes[n[1]].x, &c = mesh.nodes[n[2]].x;
      seen[f] = (unhidden ? faceInView(*unhidden, a, b, c, occludedOnly) : faceInView(camera, a, b, c, ViewParams{})) &&
                !(before && faceInView(*before, a, b, c, ViewParams{}));
      seenFaces += seen[f];
    }
    for (const Edge& e : mesh.edges) {
      if (!seen[e.faces[0]] && !(e.faces[1] >= 0 && seen[e.faces[1]])) continue;
      const Vec3 &a = mesh.nodes[e.nodes[0]].x, &b = mesh.nodes[e.nodes[1]].x;
      if (camera.depth(a) <= camera.near || camera.depth(b) <= camera.near) continue;
      lengths.push_back((camera.project(a) - camera.project(b)).head<2>().norm());
    }
  }
  return lengths;
}

// Frame `frame` of `out` drawn as `adacloth render` draws it in material colours (ground 1 mm below the lowest point).
Image renderFrame(const fs::path& out, const Shot& shot, const Camera& camera, int frame) {
  std::vector<RenderMesh> meshes;
  double lowest = 0.0;
  for (size_t c = 0; c < shot.cloths.size(); ++c) {
    const Mesh mesh = readObj(clothFrameFile(out, shot.cloths[c].name, frame));
    for (const Node& n : mesh.nodes) lowest = std::min(lowest, n.x.y());
    meshes.push_back(clothRenderMesh(mesh, int(c), FrameStyle{}));
  }
  for (const fs::path& file : obstacleFrameFiles(out, frame)) meshes.push_back(obstacleRenderMesh(file));
  meshes.push_back(groundPlane(lowest - 1e-3, camera.eye, camera.far, 0.5, srgb(186, 184, 176)));
  return rasterize(meshes, camera);
}

struct FilmRun {
  Figures figures;
  double edgePixels = 0;              // median over frames of the median visible edge length (px)
  std::vector<double> edgePerFrame;   // per frame 0..N: the median visible edge length (px), -1 when none is seen
  std::vector<double> enteringPerFrame;  // at each cut frame: the same over the cloth entering the view, -1: none
  std::vector<double> visiblePerFrame;  // per frame 0..N: faces in the camera's view, summed over cloths (-1: frame 0)
  double unhiddenEdgePixels = 0;         // the same as edgePixels over the faces nothing hides (visibleEdgePixels)
  std::vector<double> unhiddenPerFrame;  // per frame 0..N: the median edge length of those faces (px), -1: none
  double imageMean = 0, imageShare = 0;  // against the --no-view run: mean pixel difference (0..255), share > 16
};

// The frames at which the camera path cuts: the first frame whose time is at or after a `cut` keyframe's time.
std::vector<int> cutFrames(const CameraPath& path, double fps, int frames) {
  std::vector<int> cuts;
  for (const CameraKeyframe& key : path.keyframes) {
    const int frame = int(std::ceil(key.time * fps - 1e-9));
    if (key.cut && frame >= 1 && frame <= frames) cuts.push_back(frame);
  }
  return cuts;
}

// Issue 17 (c), the second half: how the count of faces in view changes from one frame to the next outside the
// camera's cuts (popping), and at each cut the visible edges of the view-dependent run against the --no-view run's
// (cloth that comes into view at a cut must already be refined there).
struct Jumps {
  double largest = 0;  // |V_f - V_f-1| / V_f-1 over frames 2..N not at a cut (V: faces in view)
  int frame = 0;       // where the largest is
  int above5 = 0;      // changes above 5 %
  int transitions = 0;
};

Jumps faceCountJumps(const std::vector<double>& v, const std::vector<int>& cuts) {
  Jumps j;
  for (size_t f = 2; f < v.size(); ++f) {
    if (std::find(cuts.begin(), cuts.end(), int(f)) != cuts.end() || v[f - 1] <= 0 || v[f] < 0) continue;
    const double jump = std::abs(v[f] - v[f - 1]) / v[f - 1];
    ++j.transitions;
    if (jump > 0.05) ++j.above5;
    if (jump > j.largest) j.largest = jump, j.frame = int(f);
  }
  return j;
}

// The largest (view / --no-view - 1) of the median visible edge length over the cut frames, and its frame (0: no
// cut with cloth in view).
std::pair<double, int> worstEdgeAtCuts(const std::vector<double>& view, const std::vector<double>& plain,
                                       const std::vector<int>& cuts) {
  std::pair<double, int> worst{0.0, 0};
  for (int f : cuts) {
    const double a = view[f], b = plain[f];
    if (a <= 0 || b <= 0) continue;
    if (worst.second == 0 || a / b - 1 > worst.first) worst = {a / b - 1, f};
  }
  return worst;
}

// A window of the camera of frame `frame` alone, with a depth map of everything in the frame of `out` that can hide
// cloth (its obstacles and every cloth, as the `occlusion` key renders them).
ViewWindow frameDepthWindow(const fs::path& out, const Shot& shot, const CameraPath& path, int frame) {
  Occluders occluders;
  for (const ClothSpec& cloth : shot.cloths) occluders.add(readObj(clothFrameFile(out, cloth.name, frame)));
  for (const fs::path& file : obstacleFrameFiles(out, frame)) {
    const RenderMesh obstacle = obstacleRenderMesh(file);
    occluders.add(obstacle.positions, obstacle.triangles);
  }
  ViewParams currentOnly;
  currentOnly.anticipationFrames = currentOnly.fullFrames = 0;
  ViewWindow window = makeViewWindow(path, frame / shot.fps, 1.0 / shot.fps, currentOnly);
  addOcclusion(window, occluders);
  return window;
}

// Issue 17 (a) against (c): how much a view-dependent run could save at most. Counted on the --no-view run's written
// meshes, per frame: all faces, the faces reaching into the frustum, and of those the ones facing the camera and not
// hidden (a depth map of the frame's obstacles and cloth, as `occlusion` renders it). Back faces count as hidden
// here even on a cape, whose lining the camera may see, so the last ratio is an upper bound.
struct SavingCeiling {
  double faces = 0, inFrustum = 0, seen = 0;  // sums over frames 1..N and cloths
};

SavingCeiling savingCeiling(const fs::path& out, const Shot& shot, const CameraPath& path, int frames) {
  SavingCeiling sum;
  ViewParams frustumOnly, seenOnly;
  seenOnly.backface = seenOnly.occlusion = true;
  for (int frame = 1; frame <= frames; ++frame) {
    const ViewWindow window = frameDepthWindow(out, shot, path, frame);
    for (const ClothSpec& cloth : shot.cloths) {
      const Mesh mesh = readObj(clothFrameFile(out, cloth.name, frame));
      for (size_t f = 0; f < mesh.faces.size(); ++f) {
        const Tri n = mesh.faceNodes(int(f));
        const Vec3 &a = mesh.nodes[n[0]].x, &b = mesh.nodes[n[1]].x, &c = mesh.nodes[n[2]].x;
        sum.faces += 1;
        sum.inFrustum += faceInView(window.cameras[window.current], a, b, c, frustumOnly);
        sum.seen += faceInView(window, a, b, c, seenOnly);
      }
    }
  }
  return sum;
}

enum class FilmMode { View, NoView, Uniform };

// Fewer faces entering the view at a cut than this are not measured (a median over a sliver of cloth at the frame's
// border says little).
constexpr int kFewestEntering = 20;

FilmRun runFilm(const fs::path& file, const fs::path& camera, int frames, const fs::path& folder, FilmMode mode) {
  Shot shot = loadShot(file);
  shot.camera = camera;
  if (mode == FilmMode::Uniform)
    for (ClothSpec& cloth : shot.cloths) {
      if (cloth.remeshing) cloth.remeshing->sizeMax = cloth.remeshing->sizeMin;
      cloth.view.reset();
    }
  const char* suffix = mode == FilmMode::View ? "_view" : mode == FilmMode::NoView ? "_plain" : "_uniform";
  const fs::path out = folder / (shot.name + suffix);
  simulateQuietly(shot, out, frames, mode == FilmMode::View);
  FilmRun run;
  run.figures = readStats(out / "stats.jsonl", true);
  const CameraPath path = loadCameraPath(camera);
  std::vector<double> perFrame;
  run.edgePerFrame.assign(frames + 1, -1.0);
  run.enteringPerFrame.assign(frames + 1, -1.0);
  run.visiblePerFrame.assign(frames + 1, -1.0);
  run.unhiddenPerFrame.assign(frames + 1, -1.0);
  std::vector<double> unhiddenPerFrame;
  const std::vector<int> cuts = cutFrames(path, shot.fps, frames);
  for (int frame = 1; frame <= frames; ++frame) {
    int seenFaces = 0, unhiddenFaces = 0;
    std::vector<double> lengths = visibleEdgePixels(out, shot, path.at(frame / shot.fps), frame, seenFaces);
    run.visiblePerFrame[frame] = seenFaces;
    const ViewWindow depth = frameDepthWindow(out, shot, path, frame);
    const std::vector<double> unhidden =
        visibleEdgePixels(out, shot, path.at(frame / shot.fps), frame, unhiddenFaces, nullptr, &depth);
    if (!unhidden.empty()) unhiddenPerFrame.push_back(run.unhiddenPerFrame[frame] = median(unhidden));
    if (lengths.empty()) continue;
    run.edgePerFrame[frame] = median(lengths);
    perFrame.push_back(run.edgePerFrame[frame]);
    if (std::find(cuts.begin(), cuts.end(), frame) == cuts.end()) continue;
    int entering = 0;
    const Camera before = path.at((frame - 1) / shot.fps);
    const std::vector<double> fresh = visibleEdgePixels(out, shot, path.at(frame / shot.fps), frame, entering, &before);
    if (entering >= kFewestEntering) run.enteringPerFrame[frame] = median(fresh);
  }
  run.edgePixels = median(perFrame);
  run.unhiddenEdgePixels = median(unhiddenPerFrame);
  return run;
}

// Mean pixel difference and share of pixels differing by more than 16, over every 6th frame, of two runs' renders.
std::pair<double, double> imageDifference(const fs::path& a, const fs::path& b, const Shot& shot,
                                          const fs::path& camera, int frames) {
  const CameraPath path = loadCameraPath(camera);
  double mean = 0, share = 0;
  int count = 0;
  for (int frame = 6; frame <= frames; frame += 6, ++count) {
    const Camera cam = path.at(frame / shot.fps);
    const ImageDifference d = compareImages(renderFrame(a, shot, cam, frame), renderFrame(b, shot, cam, frame), 16);
    mean += d.meanDifference;
    share += d.shareAbove;
  }
  return count ? std::make_pair(mean / count, share / count) : std::make_pair(0.0, 0.0);
}

int benchFilm(int argc, char** argv) {
  int frames = 0;  // 0: each shot's own length
  const std::vector<fs::path> shots = shotArguments(argc, argv, {"skirt_walk", "cape_run", "crowd"}, frames);
  const fs::path folder = outputFolder("adacloth_bench_view_film");
  std::printf("character shots seen by their film cameras (medians over frames 1..N of sums over cloths)\n\n");
  std::printf("| shot | run | frames | faces | ms / frame | visible edge (px) | unhidden edge (px) | image difference "
              "from --no-view (mean, share > 16) |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
  std::vector<std::string> poppingRows, ceilingRows;
  for (const fs::path& file : shots) {
    const Shot shot = loadShot(file);
    const fs::path camera = fs::path(ADACLOTH_SOURCE_DIR) / "cameras" / (shot.name + "_film.json");
    const int n = frames > 0 ? frames : shot.frames;
    const FilmRun plain = runFilm(file, camera, n, folder, FilmMode::NoView);
    FilmRun view = runFilm(file, camera, n, folder, FilmMode::View);
    FilmRun uniform = runFilm(file, camera, n, folder, FilmMode::Uniform);
    std::tie(view.imageMean, view.imageShare) =
        imageDifference(folder / (shot.name + "_view"), folder / (shot.name + "_plain"), shot, camera, n);
    std::tie(uniform.imageMean, uniform.imageShare) =
        imageDifference(folder / (shot.name + "_uniform"), folder / (shot.name + "_plain"), shot, camera, n);
    auto row = [&](const char* name, const FilmRun& r, bool compared) {
      char diff[64] = "–";
      if (compared) std::snprintf(diff, sizeof diff, "%.1f, %.1f %%", r.imageMean, 100 * r.imageShare);
      std::printf("| %s | %s | %d | %.0f | %.0f | %.1f | %.1f | %s |\n", shot.name.c_str(), name, n, r.figures.faces,
                  r.figures.msPerFrame, r.edgePixels, r.unhiddenEdgePixels, diff);
    };
    row("view-dependent", view, true);
    row("--no-view", plain, false);
    row("uniform at size_min", uniform, true);
    std::printf("| %s | time --no-view / view | | %.2fx faces | %.2fx | | | |\n", shot.name.c_str(),
                plain.figures.faces / view.figures.faces, plain.figures.msPerFrame / view.figures.msPerFrame);
    std::printf("| %s | time uniform / view | | %.2fx faces | %.2fx | | | |\n", shot.name.c_str(),
                uniform.figures.faces / view.figures.faces, uniform.figures.msPerFrame / view.figures.msPerFrame);
    std::fflush(stdout);
    const std::vector<int> cuts = cutFrames(loadCameraPath(camera), shot.fps, n);
    const Jumps jv = faceCountJumps(view.visiblePerFrame, cuts), jp = faceCountJumps(plain.visiblePerFrame, cuts);
    const auto [edge, edgeFrame] = worstEdgeAtCuts(view.edgePerFrame, plain.edgePerFrame, cuts);
    const auto [fresh, freshFrame] = worstEdgeAtCuts(view.enteringPerFrame, plain.enteringPerFrame, cuts);
    const auto [shown, shownFrame] = worstEdgeAtCuts(view.unhiddenPerFrame, plain.unhiddenPerFrame, cuts);
    char text[400], atCuts[64] = "no cut", unhiddenAtCuts[64] = "no cut", entering[64] = "none enters";
    if (edgeFrame > 0) std::snprintf(atCuts, sizeof atCuts, "%+.1f %% (frame %d)", 100 * edge, edgeFrame);
    if (shownFrame > 0)
      std::snprintf(unhiddenAtCuts, sizeof unhiddenAtCuts, "%+.1f %% (frame %d)", 100 * shown, shownFrame);
    if (freshFrame > 0) std::snprintf(entering, sizeof entering, "%+.1f %% (frame %d)", 100 * fresh, freshFrame);
    std::snprintf(text, sizeof text,
                  "| %s | %zu | %.1f %% (frame %d), %d of %d | %.1f %% (frame %d), %d of %d | %s | %s | %s |",
                  shot.name.c_str(), cuts.size(), 100 * jv.largest, jv.frame, jv.above5, jv.transitions,
                  100 * jp.largest, jp.frame, jp.above5, jp.transitions, atCuts, unhiddenAtCuts, entering);
    poppingRows.push_back(text);
    const SavingCeiling most = savingCeiling(folder / (shot.name + "_plain"), shot, loadCameraPath(camera), n);
    std::snprintf(text, sizeof text, "| %s | %.2fx | %.2fx | %.2fx faces, %.2fx time | %.1fx | %.2fx faces |",
                  shot.name.c_str(), most.faces / std::max(most.inFrustum, 1.0), most.faces / std::max(most.seen, 1.0),
                  plain.figures.faces / view.figures.faces, plain.figures.msPerFrame / view.figures.msPerFrame,
                  uniform.figures.faces * n / std::max(most.seen, 1.0), uniform.figures.faces / view.figures.faces);
    ceilingRows.push_back(text);
  }
  std::printf("\nfaces in view from frame to frame outside the cuts (largest change, changes above 5 %%), and the "
              "visible edges at the cuts, view-dependent vs --no-view: of all the cloth in view, of the cloth nothing "
              "hides, and of the cloth that enters the view at the cut (in view after it, not in the view of the frame "
              "before)\n\n| shot | cuts | "
              "view-dependent: largest change, above 5 %% | --no-view: largest change, above 5 %% | visible edge at a "
              "cut, worst | unhidden edge at a cut, worst | entering cloth's edge at a cut, worst |\n"
              "|---|---:|---:|---:|---:|---:|---:|\n");
  for (const std::string& row : poppingRows) std::printf("%s\n", row.c_str());
  std::printf("\nthe ceiling of the saving: --no-view faces over the faces its camera sees, summed over frames (what a "
              "view-dependent run keeping the visible cloth as fine would save if cloth out of view cost nothing), "
              "against what the view-dependent run saved; and the same for the uniform run at size_min (its faces "
              "over the --no-view faces seen)\n\n| shot | --no-view / in the frustum | --no-view / in the frustum, "
              "facing the camera, not hidden | --no-view / view-dependent | uniform / seen | uniform / "
              "view-dependent |\n|---|---:|---:|---:|---:|---:|\n");
  for (const std::string& row : ceilingRows) std::printf("%s\n", row.c_str());
  return 0;
}

// --cuts: one written run as the film benchmark measures it.
struct WrittenRun {
  std::vector<int> cuts;
  std::vector<double> frustumEdge, unhiddenEdge;  // per cut: the median edge (px), -1 when nothing is seen
  int above5 = 0;                                 // frames whose faces in the frustum change by more than 5 %
};

WrittenRun measureWrittenRun(const fs::path& out) {
  const ShotOutput output = readShotOutput(out);
  if (!output.camera) throw InputError(out.string() + ": the shot has no camera");
  Shot shot;
  shot.fps = output.fps;
  for (const std::string& name : output.cloths) shot.cloths.emplace_back().name = name;
  const CameraPath path = loadCameraPath(*output.camera);
  const int last = output.frames.back();
  WrittenRun run;
  run.cuts = cutFrames(path, shot.fps, last);
  std::vector<double> visible(last + 1, -1.0);
  for (int frame = 1; frame <= last; ++frame) {
    int seen = 0;
    const Camera camera = path.at(frame / shot.fps);
    const std::vector<double> lengths = visibleEdgePixels(out, shot, camera, frame, seen);
    visible[frame] = seen;
    if (std::find(run.cuts.begin(), run.cuts.end(), frame) == run.cuts.end()) continue;
    const ViewWindow depth = frameDepthWindow(out, shot, path, frame);
    const std::vector<double> unhidden = visibleEdgePixels(out, shot, camera, frame, seen, nullptr, &depth);
    run.frustumEdge.push_back(lengths.empty() ? -1.0 : median(lengths));
    run.unhiddenEdge.push_back(unhidden.empty() ? -1.0 : median(unhidden));
  }
  run.above5 = faceCountJumps(visible, run.cuts).above5;
  return run;
}

// The mean of the cut-th value over the runs that see cloth there (0 when none does).
double meanAtCut(const std::vector<WrittenRun>& runs, size_t cut, bool unhidden) {
  double sum = 0;
  int count = 0;
  for (const WrittenRun& r : runs) {
    const double v = unhidden ? r.unhiddenEdge[cut] : r.frustumEdge[cut];
    if (v > 0) sum += v, ++count;
  }
  return count ? sum / count : 0.0;
}

int benchCuts(int argc, char** argv) {
  std::vector<fs::path> reference, runs;
  std::vector<fs::path>* into = nullptr;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reference") into = &reference;
    else if (a == "--runs") into = &runs;
    else if (into) into->emplace_back(a);
    else throw InputError("bench_view --cuts: expected --reference DIR... --runs DIR..., got '" + a + "'");
  }
  if (reference.empty() || runs.empty())
    throw InputError("bench_view --cuts: expected --reference DIR... --runs DIR... (at least one of each)");
  auto measureAll = [](const std::vector<fs::path>& dirs) {
    std::vector<WrittenRun> all;
    for (const fs::path& dir : dirs) all.push_back(measureWrittenRun(dir));
    for (const WrittenRun& r : all)
      if (r.cuts != all.front().cuts) throw InputError("bench_view --cuts: the runs do not share their cuts");
    return all;
  };
  const std::vector<WrittenRun> ref = measureAll(reference), view = measureAll(runs);
  if (ref.front().cuts != view.front().cuts)
    throw InputError("bench_view --cuts: the reference and the runs do not share their cuts");
  std::printf("median on-screen edge (px) at the cuts, mean over %zu runs against %zu reference runs\n\n| cut frame | "
              "in the frustum: reference | runs | change | nothing hides it: reference | runs | change |\n"
              "|---:|---:|---:|---:|---:|---:|---:|\n", view.size(), ref.size());
  for (size_t k = 0; k < view.front().cuts.size(); ++k) {
    const double rf = meanAtCut(ref, k, false), vf = meanAtCut(view, k, false);
    const double ru = meanAtCut(ref, k, true), vu = meanAtCut(view, k, true);
    std::printf("| %d | %.2f | %.2f | %+.1f %% | %.2f | %.2f | %+.1f %% |\n", view.front().cuts[k], rf, vf,
                rf > 0 ? 100 * (vf / rf - 1) : 0.0, ru, vu, ru > 0 ? 100 * (vu / ru - 1) : 0.0);
  }
  auto meanAbove5 = [](const std::vector<WrittenRun>& all) {
    double sum = 0;
    for (const WrittenRun& r : all) sum += r.above5;
    return sum / all.size();
  };
  std::printf("\nframes per run whose faces in the frustum change by more than 5 %% outside the cuts: reference "
              "%.1f, runs %.1f\n", meanAbove5(ref), meanAbove5(view));
  return 0;
}

void printRow(const char* name, const Figures& f) {
  std::printf("| %s | %.0f | %s | %.1f | %.1f | %.1f |\n", name, f.faces,
              f.visible >= 0 ? std::to_string(int(f.visible)).c_str() : "–", f.msPerFrame, f.sizingMs, f.remeshMs);
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  if (argc > 1 && std::string(argv[1]) == "--shots") return benchShots(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "--film") return benchFilm(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "--cuts") {
    try {
      return benchCuts(argc, argv);
    } catch (const InputError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 2;
    }
  }
  if (argc > 2 || (argc == 2 && std::atoi(argv[1]) <= 0)) {
    std::fprintf(stderr, "usage: bench_view [FRAMES] | --shots [FRAMES] [SHOT.json ...] | --film [FRAMES] "
                         "[SHOT.json ...] | --cuts --reference DIR... --runs DIR... (see the comment at the top of "
                         "tools/bench_view.cpp)\n");
    return 2;
  }
  const int frames = argc > 1 ? std::atoi(argv[1]) : 48;
  const fs::path folder = outputFolder("adacloth_bench_view");
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
