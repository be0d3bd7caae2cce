// The flip and collapse passes re-examine only the edges whose ends an earlier batch changed (remesh_state.h). These
// tests hold them to plain passes that examine every edge every time, and check the claim the shortcut rests on:
// an edge whose ends no batch marked answers every test as it did before.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>

#include "remesh/collapse.h"
#include "remesh/flip.h"
#include "remesh/split.h"
#include "remesh_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// The same passes with their memory of earlier batches cleared: every edge examined, every pass.
int plainFlipPass(RemeshState& s, const RemeshParams& params) {
  s.flipScanBatch = -1;
  return flipPass(s, params);
}

int plainCollapsePass(RemeshState& s, const RemeshParams& params) {
  std::fill(s.collapsesRefutedAt.begin(), s.collapsesRefutedAt.end(), -1);
  return collapsePass(s, params);
}

// The passes of remesh() in its order, with the library's passes or the plain ones; returns every pass's count.
std::vector<int> runPasses(Mesh& mesh, const std::vector<Mat2>& sizing, const RemeshParams& params,
                           const SweepCheck& check, bool plain) {
  RemeshState s(mesh);
  s.sizing = sizing;
  s.protectedNode.assign(mesh.nodes.size(), 0);
  s.protectedNode[0] = 1;
  s.originalNode.assign(mesh.nodes.size(), 0);
  s.sweepCheck = &check;
  mesh.updateGeometry();
  auto flip = [&] { return plain ? plainFlipPass(s, params) : flipPass(s, params); };
  auto collapse = [&] { return plain ? plainCollapsePass(s, params) : collapsePass(s, params); };
  std::vector<int> counts;
  auto flipsUntilDelaunay = [&] {
    for (int pass = 0; pass < params.maxFlipPasses; ++pass) {
      counts.push_back(flip());
      if (counts.back() == 0) break;
    }
  };
  flipsUntilDelaunay();
  for (int pass = 0; pass < params.maxPasses; ++pass) {
    counts.push_back(splitPass(s, RemeshParams()));
    if (counts.back() == 0) break;
    counts.push_back(flip());
  }
  for (int pass = 0; pass < params.maxPasses; ++pass) {
    counts.push_back(collapse());
    if (counts.back() == 0) break;
    counts.push_back(flip());
  }
  flipsUntilDelaunay();
  return counts;
}

// A wavy sheet (so that the dihedral and world-orientation tests take part) with an anisotropic field that refines
// one end and coarsens the other.
void makeWavy(Mesh& mesh, std::mt19937& rng) {
  std::uniform_real_distribution<double> phase(0, 2 * M_PI);
  const double p = phase(rng);
  for (Node& n : mesh.nodes) n.x.z() = 0.04 * std::sin(9.0 * n.x.x() + p) * std::cos(7.0 * n.x.y());
}

std::vector<Mat2> randomField(const Mesh& mesh, std::mt19937& rng) {
  std::uniform_real_distribution<double> size(0.03, 0.25), angle(0, M_PI);
  const double a = angle(rng), fine = size(rng), coarse = size(rng);
  std::vector<Mat2> sizing;
  for (const Vert& v : mesh.verts) {
    const Vec2 d(std::cos(a + 2 * v.u.y()), std::sin(a + 2 * v.u.y()));
    const double h0 = fine + (coarse - fine) * std::clamp(v.u.x(), 0.0, 1.0), h1 = 1.5 * h0;
    sizing.push_back(d * d.transpose() / (h0 * h0) + (Mat2::Identity() - d * d.transpose()) / (h1 * h1));
  }
  return sizing;
}

// Refuses about a fifth of the sweeps in two batches of three, by their corners and the batch only (so both runs are
// refused the same operations, and an operation refused in one batch may go ahead in a later one, as with the
// sweep guard, whose answer depends on what else changed).
struct RefusingSome {
  int batch = 0;
  SweepCheck check() {
    SweepCheck check;
    check.beginBatch = [this](const Mesh&, int finished, const std::vector<int>&) { batch = finished; };
    check.allow = [this](const std::vector<std::array<Vec3, 4>>& sweep, const std::vector<std::array<Vec3, 3>>&) {
      const double key = 7919.0 * sweep[0][0].x() + 104729.0 * sweep[0][1].y() + 31.0 * sweep[0][2].z();
      return batch % 3 == 0 || key - std::floor(key) > 0.2;
    };
    return check;
  }
};

}  // namespace

TEST_CASE("flip and collapse passes that re-examine only what changed match passes that examine every edge",
          "[remesh]") {
  std::mt19937 rng(5);
  RefusingSome refusing;
  const SweepCheck none, refusingCheck = refusing.check();
  // Default limits, and loose ones under which far more collapses pass the size and shape tests and the topology
  // tests (the link condition, which reads the other end's neighbours) decide.
  RemeshParams loose;
  loose.collapseMaxSizeSq = 4.0;
  loose.aspectMin = 0.02;
  int compared = 0, collapseBatches = 0;
  for (int round = 0; round < 8; ++round) {
    for (const Mesh& start : {makeGrid(1.0, 0.6, 24, 14), makeSeamedSheet(0.5, 0.5, 10, 10)}) {
      Mesh a = start;
      makeWavy(a, rng);
      Mesh b = a;
      const std::vector<Mat2> sizing = randomField(a, rng);
      const SweepCheck& check = round % 2 ? refusingCheck : none;
      const RemeshParams params = round % 4 < 2 ? RemeshParams() : loose;
      const std::vector<int> incremental = runPasses(a, sizing, params, check, false);
      const std::vector<int> plain = runPasses(b, sizing, params, check, true);
      INFO("round " << round);
      REQUIRE(incremental == plain);
      REQUIRE(a.faces.size() == b.faces.size());
      for (size_t f = 0; f < a.faces.size(); ++f) REQUIRE(a.faces[f].verts == b.faces[f].verts);
      for (size_t v = 0; v < a.verts.size(); ++v) REQUIRE(a.verts[v].u == b.verts[v].u);
      REQUIRE(problems(a) == "");
      ++compared;
      collapseBatches += int(std::count_if(plain.begin(), plain.end(), [](int n) { return n > 0; }));
    }
  }
  CHECK(compared == 16);
  CHECK(collapseBatches > 60);  // the sequences are long enough for later passes to reuse earlier answers
}

TEST_CASE("an edge whose ends no batch marked answers the remesher's tests as before", "[remesh]") {
  // Random single operations, each its own batch; after each, every edge still present whose ends are unmarked since
  // an earlier batch must give that batch's answers, and the geometry is as a full recomputation gives it.
  std::mt19937 rng(8);
  Mesh mesh = makeSeamedSheet(0.5, 0.5, 8, 8);
  makeWavy(mesh, rng);
  mesh.updateGeometry();
  RemeshState s(mesh);
  s.sizing.assign(mesh.verts.size(), Mat2::Identity() / (0.05 * 0.05));
  s.protectedNode.assign(mesh.nodes.size(), 0);
  s.originalNode.assign(mesh.nodes.size(), 0);
  RemeshParams params;
  params.collapseMaxSizeSq = 1e9;
  params.aspectMin = 0.02;
  struct Answers {
    int batch;
    double flip, size;
    bool collapse0, collapse1;
  };
  // Keyed by the ends' world positions, which no operation moves.
  using Key = std::array<double, 6>;
  auto keyOf = [&](int e) {
    Vec3 a = mesh.nodes[mesh.edges[e].nodes[0]].x, b = mesh.nodes[mesh.edges[e].nodes[1]].x;
    return Key{a.x(), a.y(), a.z(), b.x(), b.y(), b.z()};
  };
  std::map<Key, Answers> recorded;
  std::uniform_int_distribution<int> pick(0, 1 << 30);
  std::uniform_real_distribution<double> coin(0, 1);
  int checked = 0;
  for (int op = 0; op < 600; ++op) {
    s.beginBatch();
    for (int e = 0; e < int(mesh.edges.size()); ++e) {
      const auto& ends = mesh.edges[e].nodes;
      auto it = recorded.find(keyOf(e));
      if (it != recorded.end() && !s.changedSince(ends[0], it->second.batch) &&
          !s.changedSince(ends[1], it->second.batch)) {
        const Answers& was = it->second;
        REQUIRE(flipMeasure(s, e) == was.flip);
        REQUIRE(meshEdgeSizeSquared(s, e) == was.size);
        REQUIRE(canCollapse(s, e, ends[0], params) == was.collapse0);
        REQUIRE(canCollapse(s, e, ends[1], params) == was.collapse1);
        ++checked;
        continue;
      }
      recorded[keyOf(e)] = {s.batches, flipMeasure(s, e), meshEdgeSizeSquared(s, e),
                            canCollapse(s, e, ends[0], params), canCollapse(s, e, ends[1], params)};
    }
    const int e = pick(rng) % int(mesh.edges.size());
    const double r = coin(rng);
    if (r < 0.3 && mesh.faces.size() < 600) {
      splitEdge(s, e);
    } else if (r < 0.65) {
      if (!canFlip(s, e, params)) continue;
      flipEdge(s, e);
    } else {
      const int removed = mesh.edges[e].nodes[coin(rng) < 0.5 ? 0 : 1];
      if (!canCollapse(s, e, removed, params)) continue;
      collapseEdge(s, e, removed);
    }
    finishBatch(s);
    // finishBatch recomputes the geometry of the faces and nodes the batch marked only: as a full recomputation.
    Mesh full = mesh;
    full.updateGeometry();
    for (size_t f = 0; f < mesh.faces.size(); ++f) {
      REQUIRE(mesh.faces[f].materialArea == full.faces[f].materialArea);
      REQUIRE(mesh.faces[f].DmInv == full.faces[f].DmInv);
      REQUIRE(mesh.faces[f].worldArea == full.faces[f].worldArea);
      REQUIRE(mesh.faces[f].normal == full.faces[f].normal);
    }
    for (size_t n = 0; n < mesh.nodes.size(); ++n) REQUIRE(mesh.nodes[n].normal == full.nodes[n].normal);
  }
  CHECK(s.batches > 200);
  CHECK(checked > 10000);
}

TEST_CASE("collapse passes between random single operations match passes that examine every edge", "[remesh]") {
  // Random flips and splits between the passes make irregular neighbourhoods, where whether a collapse is valid
  // turns on the other end's neighbours (the link condition) and changes with them.
  RemeshParams params;
  params.collapseMaxSizeSq = 4.0;
  params.aspectMin = 0.02;
  params.flipMaxDihedral = M_PI;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    std::mt19937 rng(seed);
    Mesh a = seed % 2 ? makeGrid(1.0, 0.6, 16, 10) : makeSeamedSheet(0.5, 0.5, 8, 8);
    makeWavy(a, rng);
    a.updateGeometry();
    Mesh b = a;
    auto startState = [](Mesh& mesh) {
      RemeshState s(mesh);
      s.sizing.assign(mesh.verts.size(), Mat2::Identity() / (0.06 * 0.06));
      s.protectedNode.assign(mesh.nodes.size(), 0);
      s.originalNode.assign(mesh.nodes.size(), 0);
      return s;
    };
    RemeshState sa = startState(a), sb = startState(b);
    std::uniform_int_distribution<int> pick(0, 1 << 30);
    std::uniform_real_distribution<double> coin(0, 1);
    int collapses = 0;
    for (int step = 0; step < 400; ++step) {
      const double r = coin(rng);
      const int e = pick(rng) % int(a.edges.size());
      if (r < 0.15) {
        const int na = collapsePass(sa, params), nb = plainCollapsePass(sb, params);
        REQUIRE(na == nb);
        collapses += na;
      } else {
        for (RemeshState* s : {&sa, &sb}) {
          s->beginBatch();
          if (r < 0.3 && s->mesh.faces.size() < 500) splitEdge(*s, e);
          else if (r >= 0.3 && canFlip(*s, e, params)) flipEdge(*s, e);
          finishBatch(*s);
        }
      }
      INFO("seed " << seed << ", step " << step);
      REQUIRE(a.faces.size() == b.faces.size());
      for (size_t f = 0; f < a.faces.size(); ++f) REQUIRE(a.faces[f].verts == b.faces[f].verts);
    }
    CHECK(collapses > 50);
  }
}
