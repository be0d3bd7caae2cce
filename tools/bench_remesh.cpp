// Remeshing cost and benefit.
//  1. Remeshing alone on a moving, curving sheet (a travelling wave imposed on a 1.5 x 1 m panel, positions and
//     velocities set from material coordinates every frame): sizing and remesh ms per frame and per 1k faces.
//  2. The flag shot (conf/flag.json) run adaptively (`remeshing` defaults unless --size) next to the same shot on a
//     fixed uniform grid at the adaptive run's size minimum, through the real frame loop (simulateShot): median
//     faces, wall ms per frame, their ratios, and remeshing's share of the frame time.
// Usage: bench_remesh [frames] [shot]   (default 48 frames, conf/flag.json; prints tables)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/memory_policy.h"
#include "app/scene.h"
#include "app/simulate.h"
#include "config/shot.h"
#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "sizing/sizing_field.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// A wave travelling along u0 with amplitude growing from the fixed edge u0 = 0: z = a(u0) sin(k u0 - w t).
void imposeWave(Mesh& mesh, double t) {
  const double k = 2 * M_PI / 0.6, w = 2 * M_PI * 1.5;
  for (Node& n : mesh.nodes) {
    const Vec2& u = mesh.verts[n.verts[0]].u;
    double a = 0.12 * u.x() / 1.5;
    n.x = Vec3(u.x(), u.y(), a * std::sin(k * u.x() - w * t));
    n.v = Vec3(0, 0, -a * w * std::cos(k * u.x() - w * t));
  }
  mesh.updateGeometry();
}

void benchMovingSheet(int frames) {
  Mesh mesh = makeGrid(1.5, 1.0, 30, 20);
  SizingParams sizing;
  RemeshParams params;
  params.aspectMin = sizing.aspectMin;
  std::vector<double> faces, sizingMs, remeshMs, perK;
  int splits = 0, collapses = 0, flips = 0, batches = 0;
  for (int f = 0; f <= frames; ++f) {
    imposeWave(mesh, f / 24.0);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<Mat2> vs = computeVertexSizing(mesh, sizing, NoObstacles());
    double s = msSince(t0);
    auto t1 = std::chrono::steady_clock::now();
    RemeshResult r = remesh(mesh, vs, params, {});
    double m = msSince(t1);
    if (f == 0) continue;  // the first call refines the initial grid: not a steady frame
    faces.push_back(double(mesh.faces.size()));
    sizingMs.push_back(s);
    remeshMs.push_back(m);
    perK.push_back((s + m) / (mesh.faces.size() / 1000.0));
    splits += r.splits, collapses += r.collapses, flips += r.flips, batches += r.batches;
  }
  std::printf("Remeshing alone, moving curving sheet (1.5 x 1 m, size [%g, %g] m), %d frames, medians:\n",
              sizing.sizeMin, sizing.sizeMax, frames);
  std::printf("%8s %10s %10s %14s %10s %10s %10s %10s\n", "faces", "sizing ms", "remesh ms", "ms / 1k faces",
              "splits/f", "collap/f", "flips/f", "batches/f");
  std::printf("%8.0f %10.2f %10.2f %14.2f %10.1f %10.1f %10.1f %10.1f\n\n", median(faces), median(sizingMs),
              median(remeshMs), median(perK), double(splits) / frames, double(collapses) / frames,
              double(flips) / frames, double(batches) / frames);
}

struct RunFigures {
  double faces = 0, frameMs = 0, remeshShare = 0, sizingMs = 0, remeshMs = 0, physicsMs = 0;
};

// Median figures over frames 1..N of a run's stats.jsonl (frame 0 holds the initial refinement).
RunFigures readStats(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::vector<double> faces, total, share, sizing, remesh, physics;
  while (std::getline(in, line)) {
    config::Json j = config::Json::parse(line);
    if (j["frame"].get<int>() == 0) continue;
    const config::Json& w = j["wall_ms"];
    double t = w["total"].get<double>(), s = w["sizing"].get<double>(), r = w["remesh"].get<double>();
    faces.push_back(j["cloths"][0]["faces"].get<double>());
    total.push_back(t);
    share.push_back(t > 0 ? (s + r) / t : 0);
    sizing.push_back(s);
    remesh.push_back(r);
    physics.push_back(w["physics"].get<double>());
  }
  return {median(faces), median(total), median(share), median(sizing), median(remesh), median(physics)};
}

RunFigures runShot(const Shot& shot, int frames, const std::string& tag) {
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = fs::temp_directory_path() / ("adacloth_bench_remesh_" + tag);
  options.frames = frames;
  options.progress = Progress::Mode::Quiet;
  simulateShot(shot, scene, options);
  RunFigures r = readStats(options.out / "stats.jsonl");
  fs::remove_all(options.out);
  return r;
}

// A cloth read from an OBJ that is one flat rectangular panel lying as the grid generator lays it (world = material
// coordinates in the XY plane, corner at the origin; conf/flag.json's meshes/flag.obj) as the grid spec that makes
// the same panel. Throws when the mesh is anything else.
MeshSpec flatPanelAsGrid(const ClothSpec& cloth, const Shot& shot) {
  ClothSpec untransformed = cloth;
  untransformed.transform = TransformSpec();
  const Mesh mesh = buildClothMesh(untransformed, shot);
  Vec2 lo = mesh.verts.front().u, hi = lo;
  for (const Vert& v : mesh.verts) lo = lo.cwiseMin(v.u), hi = hi.cwiseMax(v.u);
  for (const Vert& v : mesh.verts)
    if ((mesh.nodes[v.node].x - Vec3(v.u.x(), v.u.y(), 0)).norm() > 1e-9 || lo.norm() > 1e-9)
      throw std::runtime_error("bench_remesh: " + cloth.mesh.file.string() + " is not a flat panel laid out as a grid");
  MeshSpec grid;
  grid.type = MeshSpec::Type::Grid;
  grid.size = hi - lo;
  return grid;
}

void benchShot(const fs::path& file, int frames) {
  Shot adaptive = loadShot(file);
  Shot uniform = loadShot(file);
  for (ClothSpec& c : adaptive.cloths)
    if (!c.remeshing) c.remeshing = SizingParams();
  for (ClothSpec& c : uniform.cloths) {
    c.remeshing.reset();
    if (c.mesh.type == MeshSpec::Type::File) c.mesh = flatPanelAsGrid(c, uniform);
    if (c.mesh.type != MeshSpec::Type::Grid)
      throw std::runtime_error("bench_remesh: the shot's cloth must be a grid or a flat rectangular panel");
    const double h = adaptive.cloths[0].remeshing->sizeMin;
    c.mesh.cellsX = std::max(1, int(std::lround(c.mesh.size.x() / h)));
    c.mesh.cellsY = std::max(1, int(std::lround(c.mesh.size.y() / h)));
  }
  RunFigures a = runShot(adaptive, frames, "adaptive"), u = runShot(uniform, frames, "uniform");
  std::printf("%s, %d frames, adaptive (size [%g, %g] m) vs uniform grid %dx%d (edge = size min), medians:\n",
              file.string().c_str(), frames, adaptive.cloths[0].remeshing->sizeMin,
              adaptive.cloths[0].remeshing->sizeMax, uniform.cloths[0].mesh.cellsX, uniform.cloths[0].mesh.cellsY);
  std::printf("%10s %8s %10s %10s %10s %10s %22s\n", "run", "faces", "ms/frame", "physics", "sizing", "remesh",
              "sizing+remesh share");
  for (auto [name, r] : {std::pair<const char*, RunFigures>{"adaptive", a}, {"uniform", u}})
    std::printf("%10s %8.0f %10.1f %10.1f %10.2f %10.2f %21.1f%%\n", name, r.faces, r.frameMs, r.physicsMs,
                r.sizingMs, r.remeshMs, 100 * r.remeshShare);
  std::printf("%10s %8.2f %10.2f   (adaptive / uniform)\n", "ratio", a.faces / u.faces, a.frameMs / u.frameMs);
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  const int frames = argc > 1 ? std::atoi(argv[1]) : 48;
  const fs::path shot = argc > 2 ? fs::path(argv[2]) : fs::path(ADACLOTH_SOURCE_DIR) / "conf" / "flag.json";
  benchMovingSheet(frames);
  benchShot(shot, frames);
  return 0;
}
