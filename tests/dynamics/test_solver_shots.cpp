// Whole shots on the default solve (issue 15): it follows the exact solve on the drape, and a cape trails its runner.
#include <catch2/catch.hpp>
#include <algorithm>
#include <limits>
#include <sstream>

#include "config/schema.h"
#include "io/atomic_file.h"
#include "io/obj.h"
#include "frame_stats.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// conf/drape.json with `steps` steps per frame and `solver`, without its camera.
std::string drapeWith(int steps, const std::string& solver) {
  std::string shot = readFile(sourceDir() / "conf" / "drape.json");
  auto replace = [&](const std::string& from, const std::string& to) {
    auto at = shot.find(from);
    REQUIRE(at != std::string::npos);
    shot.replace(at, from.size(), to);
  };
  replace("\"camera\": \"../cameras/drape.json\",", "\"solver\": \"" + solver + "\",");
  replace("\"steps_per_frame\": 8,", "\"steps_per_frame\": " + std::to_string(steps) + ",");
  return shot;
}

// The lowest point (m) of the sheet at frames 1..frames of a run.
std::vector<double> lowestPoints(const fs::path& out, int frames) {
  std::vector<double> lowest;
  for (int frame = 1; frame <= frames; ++frame) {
    char name[32];
    std::snprintf(name, sizeof name, "sheet_%05d.obj", frame);
    const Mesh mesh = readObj(out / "frames" / name);
    double y = std::numeric_limits<double>::infinity();
    for (const Node& n : mesh.nodes) y = std::min(y, n.x.y());
    lowest.push_back(y);
  }
  return lowest;
}

// The `v` positions of an OBJ file (obstacles have no material coordinates, so readObj does not take them).
std::vector<Vec3> objPositions(const fs::path& file) {
  std::vector<Vec3> x;
  std::istringstream lines(readFile(file));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream v(line.substr(2));
    Vec3 p;
    v >> p.x() >> p.y() >> p.z();
    x.push_back(p);
  }
  return x;
}

// Runs conf/<shot>.json for `frames` frames on one thread into dir/<shot> and returns that folder.
fs::path runConfShot(const TempDir& dir, const std::string& shot, int frames) {
  const fs::path out = dir / shot;
  auto run = runAdacloth("simulate " + (sourceDir() / "conf" / (shot + ".json")).string() + " -o " + out.string() +
                         " --frames " + std::to_string(frames) + " --quiet --threads 1");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  return out;
}

// Area-weighted centroid of a mesh's faces (m).
Vec3 centroid(const Mesh& mesh) {
  Vec3 sum = Vec3::Zero();
  double area = 0;
  for (const Face& f : mesh.faces) {
    const Vec3 &a = mesh.nodes[mesh.verts[f.verts[0]].node].x, &b = mesh.nodes[mesh.verts[f.verts[1]].node].x,
               &c = mesh.nodes[mesh.verts[f.verts[2]].node].x;
    const double w = 0.5 * (b - a).cross(c - a).norm();
    sum += w * (a + b + c) / 3;
    area += w;
  }
  return sum / area;
}

}  // namespace

TEST_CASE("the default solve follows the direct solve on the drape at 8 and 2 steps per frame",
          "[dynamics][regression]") {
  TempDir dir("solver-drape");
  const int frames = 48;
  for (int steps : {8, 2}) {
    std::vector<std::vector<double>> lowest;
    for (const std::string solver : {"pcg", "direct"}) {
      const std::string name = solver + std::to_string(steps);
      writeText(dir / (name + ".json"), drapeWith(steps, solver));
      auto run = runAdacloth("simulate " + (dir / (name + ".json")).string() + " -o " + (dir / name).string() +
                             " --frames " + std::to_string(frames) + " --quiet --threads 1");
      INFO(run.output);
      REQUIRE(run.exitCode == 0);
      lowest.push_back(lowestPoints(dir / name, frames));
    }
    for (int f = 0; f < frames; ++f) {
      INFO(steps << " steps per frame, frame " << f + 1 << ": pcg " << lowest[0][f] << " m, direct " << lowest[1][f]);
      CHECK(std::abs(lowest[0][f] - lowest[1][f]) < 0.01);
    }
    CHECK(lowest[1].back() < 1.0);  // it fell from 1.5 m
  }
}

TEST_CASE("the cape trails behind the runner's shoulders", "[dynamics][regression]") {
  // conf/cape_run.json runs along +z; the cape's centroid must stay behind (lower z than) the runner's shoulders.
  TempDir dir("solver-cape");
  const int frames = 72;
  const fs::path out = runConfShot(dir, "cape_run", frames);
  int counted = 0, behind = 0;
  for (int frame = 13; frame <= frames; ++frame) {
    char cape[32], runner[32];
    std::snprintf(cape, sizeof cape, "cape_%05d.obj", frame);
    std::snprintf(runner, sizeof runner, "runner_%05d.obj", frame);
    // The shoulders: the body's vertices between 1.30 and 1.50 m high, averaged.
    double shoulderZ = 0;
    int n = 0;
    for (const Vec3& x : objPositions(out / "obstacles" / runner))
      if (x.y() > 1.30 && x.y() < 1.50) shoulderZ += x.z(), ++n;
    REQUIRE(n > 0);
    shoulderZ /= n;
    const double capeZ = centroid(readObj(out / "frames" / cape)).z();
    ++counted;
    if (capeZ < shoulderZ) ++behind;
    UNSCOPED_INFO("frame " << frame << ": cape centroid z " << capeZ << " m, shoulders z " << shoulderZ << " m");
  }
  CHECK(behind >= 0.9 * counted);
}

TEST_CASE("a sheet dropped on the ball never holds more energy than it started with", "[dynamics][regression]") {
  // Issue 16 (c): kinetic + gravitational + elastic energy at every frame end stays within 2 % of the start (no
  // handles, no wind work: the shot has neither moving obstacles nor air that pushes). It used to reach 14 J from
  // 2.1 J: the contact pass pushed cloth faces and edges off the ball's corners and edges against the solve.
  TempDir dir("sphere-energy");
  const int frames = 48;
  const fs::path out = runConfShot(dir, "sheet_on_sphere", frames);
  const std::vector<config::Json> stats = frameStats(out);
  REQUIRE(stats.size() == size_t(frames + 1));
  const double start = totalEnergy(stats[0]["cloths"][0]);
  for (const config::Json& frame : stats) {
    const double total = totalEnergy(frame["cloths"][0]);
    INFO("frame " << frame["frame"].get<int>() << ": total energy " << total << " J, start " << start << " J");
    CHECK(total <= 1.02 * start);
  }
}
