// `adacloth render OUT`: draws the frames of a simulation output folder to OUT/render/<frame:05d>.png (or into the
// folder given by --output).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "app/args.h"
#include "app/commands.h"
#include "app/progress.h"
#include "config/camera_file.h"
#include "config/shot_output.h"
#include "io/error.h"
#include "io/obj.h"
#include "render/frame_scene.h"
#include "render/png.h"
#include "view/camera_path.h"

namespace adacloth {

namespace fs = std::filesystem;
namespace {

ColorMode parseColorMode(const Args& args) {
  const std::string mode = args.value("--color").value_or("material");
  if (mode == "material") return ColorMode::Material;
  if (mode == "view") return ColorMode::View;
  if (mode == "sizing") return ColorMode::Sizing;
  throw InputError("adacloth render: --color: expected material, view or sizing, got '" + mode + "'");
}

int parseFrameNumber(const std::string& text, const std::string& spec) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || v < 0 || v > 99999)
    throw InputError("adacloth render: --frames: expected A:B or A-B with frame numbers 0..99999 (A: and :B "
                     "allowed), got '" + spec + "'");
  return int(v);
}

// "--frames A:B" or "A-B" (inclusive; either end may be left out; "A" alone is one frame) -> the frames of `all`
// inside.
std::vector<int> selectFrames(const Args& args, const ShotOutput& output) {
  const auto spec = args.value("--frames");
  if (!spec) return output.frames;
  const size_t colon = spec->find_first_of(":-");
  const std::string a = spec->substr(0, colon), b = colon == std::string::npos ? a : spec->substr(colon + 1);
  const int first = a.empty() ? 0 : parseFrameNumber(a, *spec), last = b.empty() ? 99999 : parseFrameNumber(b, *spec);
  std::vector<int> frames;
  for (int f : output.frames)
    if (f >= first && f <= last) frames.push_back(f);
  if (frames.empty())
    throw InputError("adacloth render: --frames " + *spec + ": no such frames in " + output.folder.string() +
                     "/frames (it has " + std::to_string(output.frames.front()) + ".." +
                     std::to_string(output.frames.back()) + ")");
  return frames;
}

CameraPath loadRenderCamera(const Args& args, const ShotOutput& output) {
  fs::path file;
  if (auto given = args.value("--camera")) file = *given;
  else if (output.camera) file = *output.camera;
  else
    throw InputError(output.folder.string() + ": no camera: the shot names none (key \"camera\") and no --camera "
                     "FILE was given");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw InputError(file.string() + ": camera file does not exist");
  CameraPath path = loadCameraPath(file);
  const auto w = args.integer("--width", 1, 16384), h = args.integer("--height", 1, 16384);
  // One of the two alone keeps the camera file's aspect ratio.
  if (w && !h) path.height = std::max(1, int(std::lround(double(*w) * path.height / path.width)));
  if (h && !w) path.width = std::max(1, int(std::lround(double(*h) * path.width / path.height)));
  if (w) path.width = *w;
  if (h) path.height = *h;
  return path;
}

struct FrameMeshes {
  std::vector<Mesh> cloths;
  std::vector<RenderMesh> obstacles;
};

// Every cloth has every frame to render (checked before drawing anything, so that a gap is reported at once).
void checkFramesExist(const ShotOutput& output, const std::vector<int>& frames) {
  for (int frame : frames)
    for (const std::string& cloth : output.cloths) {
      const fs::path file = clothFrameFile(output.folder, cloth, frame);
      std::error_code ec;
      if (!fs::is_regular_file(file, ec)) throw InputError(file.string() + ": missing frame of cloth '" + cloth + "'");
    }
}

FrameMeshes loadFrame(const ShotOutput& output, int frame) {
  FrameMeshes m;
  for (const std::string& cloth : output.cloths) m.cloths.push_back(readObj(clothFrameFile(output.folder, cloth, frame)));
  for (const fs::path& file : obstacleFrameFiles(output.folder, frame)) m.obstacles.push_back(obstacleRenderMesh(file));
  return m;
}

// Lowest point of a frame (m), for placing the ground under everything.
double lowestPoint(const FrameMeshes& m) {
  double y = 0.0;
  for (const Mesh& mesh : m.cloths)
    for (const Node& n : mesh.nodes) y = std::min(y, n.x.y());
  for (const RenderMesh& r : m.obstacles)
    for (const Vec3& p : r.positions) y = std::min(y, p.y());
  return y;
}

struct GroundSetting {
  bool enabled = true;
  std::optional<double> height;  // m; unset: 1 mm below y = 0 or below the lowest point of OUT's first frame
};

GroundSetting parseGround(const Args& args) {
  GroundSetting g;
  if (args.has("--no-ground")) g.enabled = false;
  if (auto text = args.value("--ground")) {
    char* end = nullptr;
    const double y = std::strtod(text->c_str(), &end);
    if (text->empty() || *end || !std::isfinite(y))
      throw InputError("adacloth render: --ground: expected a height in metres, got '" + *text + "'");
    g.height = y;
  }
  return g;
}

// Draws `frames` of `output` into `folder` (NNNNN.png).
void renderFrames(const ShotOutput& output, const fs::path& folder, const CameraPath& camera,
                  const std::optional<CameraPath>& viewPath, const std::vector<int>& frames, FrameStyle style,
                  GroundSetting ground, Progress::Mode mode) {
  fs::create_directories(folder);
  Progress progress("render", mode);
  for (size_t i = 0; i < frames.size(); ++i) {
    const int frame = frames[i];
    const double t = frame / output.fps;
    FrameMeshes m = loadFrame(output, frame);
    // 1 mm below everything: a floor obstacle at y = 0 then draws over the ground plane instead of z-fighting it.
    // Measured on the output's first frame whatever --frames selects, so that renders of chunks of frames (farm
    // render tasks) match one render of them all.
    if (!ground.height)
      ground.height =
          lowestPoint(frame == output.frames.front() ? m : loadFrame(output, output.frames.front())) - 1e-3;
    const Camera cam = camera.at(t);
    if (viewPath) style.viewCamera = viewPath->at(t);
    std::vector<RenderMesh> meshes;
    size_t faces = 0;
    for (size_t c = 0; c < m.cloths.size(); ++c) {
      style.viewFactor = c < output.clothViews.size() ? output.clothViews[c] : ViewFactorOptions{};
      meshes.push_back(clothRenderMesh(m.cloths[c], int(c), style));
      faces += m.cloths[c].faces.size();
    }
    for (RenderMesh& r : m.obstacles) meshes.push_back(std::move(r));
    if (ground.enabled) meshes.push_back(groundPlane(*ground.height, cam.eye, cam.far, 0.5, srgb(186, 184, 176)));
    writePng(rasterize(meshes, cam), folder / renderFrameFile(output.folder, frame).filename());
    progress.update(int(i + 1), int(frames.size()), "frame " + std::to_string(frame) + ", " + std::to_string(faces) +
                                                         " cloth faces");
  }
  progress.finish();
}

}  // namespace

int runRenderCommand(int argc, char** argv) {
  Args args("render",
            {{"--camera", "", true}, {"--width", "", true}, {"--height", "", true}, {"--color", "", true},
             {"--wireframe", "", false}, {"--frames", "", true}, {"--threads", "", true}, {"--quiet", "-q", false},
             {"--ground", "", true}, {"--no-ground", "", false}, {"--camera-schema", "", false},
             {"--output", "-o", true}},
            argc, argv, 2);
  if (args.has("--camera-schema")) {
    std::fputs(config::toMarkdown(cameraPathSchema(), "Camera path format").c_str(), stdout);
    return 0;
  }
  args.expectPositionals(1, "one output folder");
  const ColorMode color = parseColorMode(args);
  const GroundSetting ground = parseGround(args);
  if (auto threads = args.integer("--threads", 1, 1024)) omp_set_num_threads(*threads);

  // Everything is read and checked before anything is drawn.
  const ShotOutput output = readShotOutput(args.positionals()[0]);
  const std::vector<int> frames = selectFrames(args, output);
  checkFramesExist(output, frames);
  const CameraPath camera = loadRenderCamera(args, output);
  FrameStyle style;
  style.color = color;
  style.wireframe = args.has("--wireframe");
  std::optional<CameraPath> viewPath;
  if (color == ColorMode::View) {
    // The view factor is the simulation camera's (the shot's), even when drawing from another --camera: that is
    // how one inspects what the view-dependent refinement will see from a witness camera.
    viewPath = output.camera && fs::is_regular_file(*output.camera) ? loadCameraPath(*output.camera) : camera;
  }
  if (color == ColorMode::Sizing) style.edgeRange = edgeLengthRangeFromStats(output.folder, frames.front(), frames.back());

  // Another folder than OUT/render lets one output keep several renderings side by side (e.g. material colours and
  // --color view, as tools/quickstart.sh does).
  const fs::path folder = args.value("--output").value_or((output.folder / "render").string());
  if (folder.empty()) throw InputError("adacloth render: --output: expected a folder, got ''");
  renderFrames(output, folder, camera, viewPath, frames, style, ground,
               args.has("--quiet") ? Progress::Mode::Quiet : Progress::Mode::Auto);
  if (!args.has("--quiet"))
    std::fprintf(stderr, "render: %zu frame(s) in %s\n", frames.size(), folder.string().c_str());
  return 0;
}

}  // namespace adacloth
