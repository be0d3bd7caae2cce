#include "app/simulate.h"

#include <chrono>
#include <cstdio>
#include <fstream>

#include "io/atomic_file.h"
#include "io/error.h"
#include "io/obj.h"

namespace adacloth {
namespace {

using Clock = std::chrono::steady_clock;
using config::Json;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Stops the run with a message naming frame, cloth and node when a position or velocity is not finite.
void checkFinite(const Scene& scene, int frame) {
  for (const Cloth& cloth : scene.cloths)
    for (size_t i = 0; i < cloth.mesh.nodes.size(); ++i) {
      const Node& n = cloth.mesh.nodes[i];
      if (!n.x.allFinite() || !n.v.allFinite())
        throw SimulationError("frame " + std::to_string(frame) + ": cloth \"" + cloth.spec.name + "\" node " +
                              std::to_string(i) + " has a non-finite position or velocity; the simulation blew up");
    }
}

// One frame of simulated time. The physics phase is where the dynamics step runs (issue: dynamics); until it lands
// cloths keep their initial state.
void advanceFrame(const Shot& shot, Scene& scene, PhaseTimes& times) {
  auto start = Clock::now();
  scene.time += shot.frameTime();
  times.physics += msSince(start);
}

void writeFrame(const Scene& scene, const std::filesystem::path& out, int frame) {
  for (const Cloth& cloth : scene.cloths) writeObj(cloth.mesh, frameFile(out, cloth.spec.name, frame));
}

Json statsLine(const Scene& scene, int frame, const PhaseTimes& t, double totalMs) {
  Json line;
  line["frame"] = frame;
  line["time"] = scene.time;
  line["wall_ms"] = {{"total", totalMs}, {"sizing", t.sizing}, {"remesh", t.remesh}, {"physics", t.physics},
                     {"collision", t.collision}, {"io", t.io}};
  Json cloths = Json::array();
  for (const Cloth& cloth : scene.cloths) {
    auto [minEdge, maxEdge] = edgeLengthRange(cloth.mesh);
    cloths.push_back({{"name", cloth.spec.name}, {"nodes", cloth.mesh.nodes.size()},
                      {"faces", cloth.mesh.faces.size()}, {"min_edge", minEdge}, {"max_edge", maxEdge}});
  }
  line["cloths"] = cloths;
  return line;
}

// One JSON object per line, appended with a single write so a crash loses at most the line being written.
void appendLine(const std::filesystem::path& file, const Json& line) {
  std::ofstream out(file, std::ios::app | std::ios::binary);
  std::string text = line.dump() + "\n";
  out.write(text.data(), std::streamsize(text.size()));
  if (!out) throw std::runtime_error(file.string() + ": cannot write");
}

std::string progressDetail(const Scene& scene) {
  size_t faces = 0;
  for (const Cloth& c : scene.cloths) faces += c.mesh.faces.size();
  char buf[96];
  std::snprintf(buf, sizeof buf, "t=%.3f s, %zu faces", scene.time, faces);
  return buf;
}

}  // namespace

void prepareOutputFolder(const std::filesystem::path& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw InputError(out.string() + ": the output folder is a file");
  for (const char* sub : {"frames", "render", "obstacles"}) {
    if (!fs::is_directory(out / sub, ec)) continue;
    for (const auto& entry : fs::directory_iterator(out / sub)) {
      auto ext = entry.path().extension();
      if (ext == ".obj" || ext == ".png") fs::remove(entry.path());
    }
  }
  fs::remove(out / "stats.jsonl", ec);
  fs::create_directories(out / "frames", ec);
  if (ec) throw std::runtime_error(out.string() + ": cannot create the output folder (" + ec.message() + ")");
}

std::filesystem::path frameFile(const std::filesystem::path& out, const std::string& cloth, int frame) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "_%05d.obj", frame);
  return out / "frames" / (cloth + buf);
}

void simulateShot(const Shot& shot, Scene& scene, const RunOptions& options) {
  prepareOutputFolder(options.out);
  writeFileAtomically(options.out / "shot.resolved.json", shot.resolved.dump(2) + "\n");
  const auto statsFile = options.out / "stats.jsonl";
  Progress progress("frame", options.progress);
  for (int frame = 0; frame <= options.frames; ++frame) {
    auto start = Clock::now();
    PhaseTimes times;
    if (frame > 0) advanceFrame(shot, scene, times);
    checkFinite(scene, frame);
    auto ioStart = Clock::now();
    writeFrame(scene, options.out, frame);
    times.io = msSince(ioStart);
    appendLine(statsFile, statsLine(scene, frame, times, msSince(start)));
    progress.update(frame, options.frames, progressDetail(scene));
  }
  progress.finish();
}

}  // namespace adacloth
