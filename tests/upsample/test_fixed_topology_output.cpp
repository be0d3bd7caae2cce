// Fixed-topology output of an adaptive simulation: the blend at its two extremes, constant topology, the shot key
// and the `simulate` output files.
#include <omp.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "config/shot.h"
#include "io/atomic_file.h"
#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "test_util.h"
#include "upsample/fixed_topology_output.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// A smooth non-linear surface over material space, so that interpolations on different meshes differ.
Vec3 surface(const Vec2& u) {
  return Vec3(u.x(), u.y(), 0.1 * std::sin(3 * u.x()) * std::cos(2 * u.y()) + 0.05 * u.x() * u.y());
}

Mesh onSurface(Mesh mesh) {
  for (const Vert& v : mesh.verts) mesh.nodes[v.node].x = surface(v.u);
  mesh.updateGeometry();
  return mesh;
}

// Barycentric weights of u in triangle (a, b, c) (brute force, independent of the locator).
Vec3 baryIn(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& u) {
  auto cross = [](const Vec2& p, const Vec2& q) { return p.x() * q.y() - p.y() * q.x(); };
  const double area = cross(b - a, c - a);
  return Vec3(cross(b - u, c - u), cross(c - u, a - u), cross(a - u, b - u)) / area;
}

// An operator from `coarse` to `fine` (same material rectangle) with U = the barycentric map, mixed with a uniform
// average by `mix` (rows still sum to 1), so that upsampled positions differ from any interpolation of the
// simulation.
UpsampleOperator makeOperator(const Mesh& coarse, const Mesh& fine, double mix) {
  UpsampleOperator op;
  op.coarsePoints.resize(coarse.nodes.size());
  for (const Vert& v : coarse.verts) op.coarsePoints[v.node] = v.u;
  op.finePoints.resize(fine.nodes.size());
  for (const Vert& v : fine.verts) {
    op.fineUv.push_back(v.u);
    op.fineVertNode.push_back(v.node);
    op.finePoints[v.node] = v.u;
  }
  for (const Face& f : fine.faces) op.fineFaces.push_back(f.verts);
  const long m = long(op.coarseCount());
  op.U = Eigen::MatrixXf::Constant(long(op.fineCount()), m, float(mix / double(m)));
  for (size_t n = 0; n < op.fineCount(); ++n) {
    for (size_t f = 0; f < coarse.faces.size(); ++f) {
      const Tri& t = coarse.faces[f].verts;
      const Vec3 l = baryIn(coarse.verts[t[0]].u, coarse.verts[t[1]].u, coarse.verts[t[2]].u, op.finePoints[n]);
      if (l.minCoeff() < -1e-12) continue;
      for (int k = 0; k < 3; ++k) op.U(long(n), coarse.verts[t[k]].node) += float((1 - mix) * l[k]);
      break;
    }
  }
  return op;
}

std::shared_ptr<const UpsampleOperator> gridOperator(double mix = 0.3) {
  return std::make_shared<UpsampleOperator>(makeOperator(makeGrid(1, 1, 2, 2), makeGrid(1, 1, 8, 8), mix));
}

// The lines of an OBJ text that start with `prefix`.
std::string linesStartingWith(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.compare(0, prefix.size(), prefix) == 0) out += line + "\n";
  return out;
}

int countLines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("blend weight is 1 below the band, 0 above it and smooth between", "[upsample-output]") {
  const UpsampleBlend blend{1.0, 2.0, 2};
  CHECK(simulationWeight(0.3, blend) == 1.0);
  CHECK(simulationWeight(1.0, blend) == 1.0);
  CHECK(simulationWeight(1.5, blend) == Approx(0.5));
  CHECK(simulationWeight(2.0, blend) == 0.0);
  CHECK(simulationWeight(7.0, blend) == 0.0);
  double previous = 1.0;
  for (double r = 1.0; r <= 2.0; r += 0.01) {
    const double w = simulationWeight(r, blend);
    CHECK(w <= previous);
    CHECK(previous - w < 0.02);  // no jump: slope at most 1.5 per unit ratio
    previous = w;
  }
}

TEST_CASE("output is the simulation resampled where the simulation is finer", "[upsample-output]") {
  FixedTopologyOutput output(gridOperator(), UpsampleBlend{});
  const Mesh sim = onSurface(makeGrid(1, 1, 16, 16));  // every output node is a simulation node
  const OutputFrame frame = output.evaluate(sim, 0.0);
  REQUIRE(frame.positions.size() == output.op().fineCount());
  for (size_t n = 0; n < frame.positions.size(); ++n) {
    INFO("fine node " << n);
    CHECK(frame.weight[n] == 1.0);
    CHECK((frame.positions[n] - surface(output.op().finePoints[n])).norm() < 1e-12);
  }
  CHECK(frame.upsampledFraction == 0.0);
}

TEST_CASE("output is the upsampled coarse sample where the simulation is as coarse as the operator",
          "[upsample-output]") {
  const auto op = gridOperator();
  FixedTopologyOutput output(op, UpsampleBlend{});
  const Mesh sim = onSurface(makeGrid(1, 1, 2, 2));  // the operator's coarse mesh itself
  const OutputFrame frame = output.evaluate(sim, 0.0);
  Eigen::MatrixXd coarse(long(op->coarseCount()), 3);
  for (size_t c = 0; c < op->coarseCount(); ++c) coarse.row(long(c)) = surface(op->coarsePoints[c]).transpose();
  const Eigen::MatrixXd expected = op->U.cast<double>() * coarse;
  double offSimulation = 0;  // how far the upsampled output is from the simulation: the test must tell them apart
  for (size_t n = 0; n < frame.positions.size(); ++n) {
    INFO("fine node " << n);
    CHECK(frame.weight[n] == 0.0);
    CHECK((frame.positions[n] - expected.row(long(n)).transpose()).norm() < 1e-5);
    offSimulation = std::max(offSimulation, (frame.positions[n] - surface(op->finePoints[n])).norm());
  }
  CHECK(offSimulation > 0.01);
  CHECK(frame.upsampledFraction == 1.0);
}

TEST_CASE("blend moves smoothly from simulated to upsampled where the simulation coarsens", "[upsample-output]") {
  // Simulation ~2 cm on the left, ~50 cm on the right; output edges ~9 cm (16 x 16 cells).
  Mesh sim = makeGrid(1, 1, 4, 4);
  auto sizing = [&] {
    std::vector<Mat2> s;
    for (const Vert& v : sim.verts) {
      const double h = v.u.x() < 0.4 ? 0.02 : (v.u.x() > 0.6 ? 0.5 : 0.02 + (v.u.x() - 0.4) * 2.4);
      s.push_back(Mat2::Identity() / (h * h));
    }
    return s;
  };
  for (int round = 0; round < 3; ++round) remesh(sim, sizing(), RemeshParams(), {});
  sim = onSurface(sim);
  const auto op = std::make_shared<UpsampleOperator>(makeOperator(makeGrid(1, 1, 2, 2), makeGrid(1, 1, 16, 16), 0.3));
  FixedTopologyOutput output(op, UpsampleBlend{});
  const OutputFrame frame = output.evaluate(sim, 0.0);
  for (size_t n = 0; n < op->fineCount(); ++n) {
    const double x = op->finePoints[n].x();
    INFO("fine node " << n << " at x = " << x);
    CHECK(frame.weight[n] >= 0.0);
    CHECK(frame.weight[n] <= 1.0);
    if (x < 0.25) CHECK(frame.weight[n] == Approx(1.0));
    if (x > 0.85) CHECK(frame.weight[n] == Approx(0.0));
  }
  CHECK(frame.upsampledFraction > 0.2);
  CHECK(frame.upsampledFraction < 0.8);
  // The same bytes at any thread count.
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::string one = output.formatObj(output.evaluate(sim, 0.0).positions);
  omp_set_num_threads(2);
  const std::string two = output.formatObj(output.evaluate(sim, 0.0).positions);
  omp_set_num_threads(saved);
  CHECK(one == two);
  CHECK(one == output.formatObj(frame.positions));
}

TEST_CASE("output OBJ keeps its topology and vt whatever the simulation mesh", "[upsample-output]") {
  FixedTopologyOutput output(gridOperator(), UpsampleBlend{});
  const std::string fine = output.formatObj(output.evaluate(onSurface(makeGrid(1, 1, 16, 16)), 0.0).positions);
  const std::string coarse = output.formatObj(output.evaluate(onSurface(makeGrid(1, 1, 3, 2)), 0.5).positions);
  CHECK(countLines(linesStartingWith(fine, "v ")) == 81);
  CHECK(countLines(linesStartingWith(fine, "vt ")) == 81);
  CHECK(countLines(linesStartingWith(fine, "f ")) == 128);
  CHECK(linesStartingWith(fine, "vt ") == linesStartingWith(coarse, "vt "));
  CHECK(linesStartingWith(fine, "f ") == linesStartingWith(coarse, "f "));
  CHECK(linesStartingWith(fine, "v ") != linesStartingWith(coarse, "v "));
}

TEST_CASE("an operator over a different material domain is reported", "[upsample-output]") {
  const UpsampleOperator op = makeOperator(makeGrid(2, 1, 2, 2), makeGrid(2, 1, 8, 8), 0.0);
  CHECK(operatorMismatch(op, makeGrid(2, 1, 3, 3), 1e-6).empty());
  const std::string bad = operatorMismatch(op, makeGrid(1, 1, 3, 3), 1e-6);
  CHECK_THAT(bad, Catch::Contains("outside the cloth's panels"));
}

TEST_CASE("an operator may stray from the panels by up to half an output edge, not more", "[upsample-output]") {
  // Output mesh: 2 x 1 m in 8 x 8 cells, edges 0.25 and 0.125 m and diagonals 0.28 m: median edge 0.25 m, so the
  // allowance is 0.125 m (more than the thousandth of the panels' diagonal). A production panel whose outline
  // lies 0.1 m inside the operator's (another polygon for the same curved edge) is covered; one 0.2 m inside is not.
  const UpsampleOperator op = makeOperator(makeGrid(2, 1, 2, 2), makeGrid(2, 1, 8, 8), 0.0);
  const Mesh same = makeGrid(2, 1, 3, 3), inside = makeGrid(1.9, 1, 3, 3), smaller = makeGrid(1.8, 1, 3, 3);
  CHECK(coverageTolerance(op, same) == Approx(0.125).epsilon(1e-6));
  CHECK(operatorMismatch(op, inside, coverageTolerance(op, inside)).empty());
  CHECK_FALSE(operatorMismatch(op, inside, 1e-3 * std::sqrt(1.9 * 1.9 + 1.0)).empty());  // the old allowance
  CHECK_THAT(operatorMismatch(op, smaller, coverageTolerance(op, smaller)),
             Catch::Contains("outside the cloth's panels"));
}

TEST_CASE("upsample shot key: defaults and a bad blend band", "[upsample-output]") {
  const std::string cloth = R"({"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, "upsample": )";
  const Shot shot = parseShot(R"({"cloths": [)" + cloth + R"({"operator": "op.bin"}}]})", "conf/s.json");
  REQUIRE(shot.cloths[0].upsample);
  CHECK(shot.cloths[0].upsample->operatorFile == fs::current_path() / "conf/op.bin");
  CHECK(shot.cloths[0].upsample->blendLo == 1.0);
  CHECK(shot.cloths[0].upsample->blendHi == 2.0);
  CHECK(shot.cloths[0].upsample->smoothingPasses == 2);
  CHECK_THAT(shotErrorOf(R"({"cloths": [)" + cloth + R"({"operator": "op.bin", "blend": [2, 1]}}]})"),
             Catch::Contains("/cloths/0/upsample/blend"));
  CHECK_THAT(shotErrorOf(R"({"cloths": [)" + cloth + R"({"blend": [1, 2]}}]})"),
             Catch::Contains("/cloths/0/upsample: missing required key \"operator\""));
  const std::string clash = R"({"cloths": [)" + cloth + R"({"operator": "op.bin"}, "name": "a"},
      {"name": "a_out", "mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}]})";
  CHECK_THAT(shotErrorOf(clash), Catch::Contains("/cloths/1/name"));
}

namespace {

// A shot of a falling, remeshed 1 x 1 m sheet whose `upsample` operator is `op` (relative to the shot).
std::string upsampleShot(const std::string& op) {
  return R"({"frames": 3, "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [1, 1], "cells": [4, 4]}},
    "transform": {"rotate_deg": [-90, 0, 0]}, "handles": [{"nodes": [0]}],
    "remeshing": {"size": [0.04, 0.3]}, "upsample": {"operator": ")" + op + R"("}}]})";
}

RunResult simulate(const TempDir& dir, const fs::path& out) {
  return runAdacloth("simulate '" + (dir / "shot.json").string() + "' -o '" + out.string() + "' --quiet");
}

}  // namespace

TEST_CASE("simulate writes fixed-topology output frames with constant topology", "[upsample-output]") {
  TempDir dir("upsample-out");
  saveUpsampleOperator(makeOperator(makeGrid(1, 1, 2, 2), makeGrid(1, 1, 8, 8), 0.0), (dir / "op.bin").string());
  writeText(dir / "shot.json", upsampleShot("op.bin"));
  const fs::path out = dir / "out";
  writeText(out / "frames/sheet_out_00007.obj", "stale");
  const RunResult r = simulate(dir, out);
  INFO(r.output);
  REQUIRE(r.exitCode == 0);
  CHECK_FALSE(fs::exists(out / "frames/sheet_out_00007.obj"));
  std::string firstTopology, firstPositions;
  bool remeshed = false;  // the simulation's mesh changed while the output's did not
  for (int f = 0; f <= 3; ++f) {
    const fs::path file = out / "frames" / ("sheet_out_0000" + std::to_string(f) + ".obj");
    REQUIRE(fs::exists(file));
    const std::string text = readFile(file);
    CHECK(countLines(linesStartingWith(text, "v ")) == 81);
    const std::string topology = linesStartingWith(text, "vt ") + linesStartingWith(text, "f ");
    if (f == 0) {
      firstTopology = topology;
      firstPositions = linesStartingWith(text, "v ");
    } else {
      CHECK(topology == firstTopology);
    }
    if (f == 3) CHECK(linesStartingWith(text, "v ") != firstPositions);  // the sheet swings
    const fs::path simFile = out / "frames" / ("sheet_0000" + std::to_string(f) + ".obj");
    remeshed = remeshed || countLines(linesStartingWith(readFile(simFile), "f ")) != 32;
  }
  CHECK(countLines(firstTopology) == 81 + 128);
  CHECK(remeshed);
  std::ifstream stats(out / "stats.jsonl");
  std::string line;
  int lines = 0;
  while (std::getline(stats, line)) {
    auto j = config::Json::parse(line);
    CHECK(j["wall_ms"].contains("upsample"));
    const double fraction = j["cloths"][0]["upsampled_fraction"].get<double>();
    CHECK(fraction >= 0.0);
    CHECK(fraction <= 1.0);
    ++lines;
  }
  CHECK(lines == 4);
}

TEST_CASE("a missing, broken or mismatched operator is a one-line input error before any output", "[upsample-output]") {
  TempDir dir("upsample-bad");
  writeText(dir / "garbage.bin", "this is not an operator");
  saveUpsampleOperator(makeOperator(makeGrid(3, 3, 2, 2), makeGrid(3, 3, 8, 8), 0.0), (dir / "big.bin").string());
  for (const char* file : {"missing.bin", "garbage.bin", "big.bin"}) {
    writeText(dir / "shot.json", upsampleShot(file));
    const fs::path out = dir / "out";
    const RunResult r = simulate(dir, out);
    INFO(r.output);
    CHECK(r.exitCode == 2);
    CHECK(countLines(r.output) == 1);
    CHECK_THAT(r.output, Catch::Contains("/cloths/0/upsample/operator"));
    CHECK_THAT(r.output, Catch::Contains(file));
    CHECK_FALSE(fs::exists(out));
  }
}
