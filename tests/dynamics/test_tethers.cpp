// Tethers to the held nodes (dynamics/tethers.h): their lengths follow the panel's shape, the pass moves only the
// tethered node and adds no speed, and they let a few limiter passes hold a sheet hanging from two corners.
#include <catch2/catch.hpp>

#include <cmath>

#include "assets/held_sheet.h"
#include "dynamics/handles.h"
#include "dynamics/step.h"
#include "dynamics/strain_limit.h"
#include "dynamics/tethers.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

// An L-shaped panel of unit cells: makeGrid's square [0, n]^2 (diagonals alternating, flat in the XY plane) without
// its upper right quarter (n even).
Mesh makeLPanel(int n) {
  const Mesh square = makeGrid(n, n, n, n);
  std::vector<int> index(square.verts.size(), -1);
  std::vector<Vec2> u;
  std::vector<Vec3> x;
  std::vector<int> vertNode;
  std::vector<Tri> faces;
  for (const Face& f : square.faces) {
    const Vec2 centroid = (square.verts[f.verts[0]].u + square.verts[f.verts[1]].u + square.verts[f.verts[2]].u) / 3;
    if (centroid.x() > n / 2 && centroid.y() > n / 2) continue;
    Tri kept;
    for (int k = 0; k < 3; ++k) {
      int& i = index[size_t(f.verts[k])];
      if (i < 0) {
        i = int(u.size());
        u.push_back(square.verts[f.verts[k]].u);
        x.push_back(square.nodes[size_t(square.verts[f.verts[k]].node)].x);
        vertNode.push_back(i);
      }
      kept[k] = i;
    }
    faces.push_back(kept);
  }
  return makeMesh(u, vertNode, x, faces);
}

int nodeAt(const Mesh& mesh, double ux, double uy) {
  for (const Vert& v : mesh.verts)
    if (v.u == Vec2(ux, uy)) return v.node;
  return -1;
}

double tetherLength(const std::vector<Tether>& all, int node) {
  for (const Tether& t : all)
    if (t.node == node) return t.maxDistance;
  return -1;
}

}  // namespace

TEST_CASE("a tether is the straight material distance where the panel allows, the way around its corner elsewhere",
          "[dynamics]") {
  const int n = 8;
  Mesh mesh = makeLPanel(n);
  DynamicsState state;
  rebuildDynamics(state, mesh, MaterialParams());
  std::vector<char> held(mesh.nodes.size(), 0);
  held[size_t(nodeAt(mesh, n, 0))] = 1;  // the tip of the lower arm
  const std::vector<Tether> all = tethers(mesh, state, held, 1.1);
  CHECK(all.size() == mesh.nodes.size() - 1);  // one group of held nodes: one tether per free node
  // (0, n/2) sees (n, 0) along a line inside the lower arm: the straight distance, though no edge path is straight.
  CHECK(tetherLength(all, nodeAt(mesh, 0, n / 2)) == Approx(1.1 * std::hypot(n, n / 2)));
  // (n/2, n) is hidden behind the concave corner (n/2, n/2): at least the way around it, not the straight line.
  const double around = std::hypot(n / 2, n / 2) + n / 2;
  const double hidden = tetherLength(all, nodeAt(mesh, n / 2, n));
  CHECK(hidden >= 1.1 * around * (1 - 1e-12));
  CHECK(hidden > 1.1 * std::hypot(n / 2, n) * 1.05);
}

TEST_CASE("the tethers reach the nearest node of each group of held nodes", "[dynamics]") {
  assets::HeldSheet sheet = assets::makeHeldSheet(8);  // held at its two far corners, two groups
  const std::vector<char> held = pinnedMask(sheet.state.handles, sheet.mesh.nodes.size());
  const std::vector<Tether> all = tethers(sheet.mesh, sheet.state, held, 1.0);
  size_t free = 0;
  for (char h : held) free += h ? 0 : 1;
  REQUIRE(all.size() == 2 * free);
  for (const Tether& t : all) {
    CHECK(held[size_t(t.anchor)]);
    // A flat square: every distance is the straight one.
    CHECK(t.maxDistance == Approx((sheet.mesh.nodes[size_t(t.node)].x - sheet.mesh.nodes[size_t(t.anchor)].x).norm()));
  }
}

TEST_CASE("a tether pass pulls only the tethered node back and removes only its speed away from the anchor",
          "[dynamics]") {
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 0.5, 0)};
  std::vector<Vec3> v = {Vec3(0, 0, 0), Vec3(3, 1, 0), Vec3(0, 5, 0)};
  const std::vector<double> invMass = {0, 1, 1};
  const std::vector<Tether> all = {{1, 0, 1.5}, {2, 0, 1.0}};  // node 1 too far, node 2 within
  CHECK_FALSE(tetherPass(x.data(), v.data(), invMass.data(), all, 1e-3));
  CHECK(x[0] == Vec3(0, 0, 0));
  CHECK(x[1].isApprox(Vec3(1.5, 0, 0)));
  CHECK(v[1].isApprox(Vec3(0, 1, 0)));  // the speed away is gone, the sideways speed kept
  CHECK(x[2] == Vec3(0, 0.5, 0));       // within its tether: untouched, although moving away
  CHECK(v[2] == Vec3(0, 5, 0));
  CHECK(tetherPass(x.data(), v.data(), invMass.data(), all, 1e-3));
}

TEST_CASE("tethers let four limiter passes hold a soft sheet hanging from two corners far better", "[dynamics]") {
  // Soft enough that gravity alone stretches it far past the limit; 24 x 24 cells, so that edge passes alone would
  // need about as many passes as the sheet is edges across to carry the corners' pull. Measured (p99 / max stretch
  // after 48 steps): without tethers 1.33 / 1.47 (1.47 / 1.58 before the shock pass kept the far end's stop only
  // where it takes energy out), with 1.12 / 1.17. Tethers bound each node's distance to the corners, not the stretch
  // across the sheet, so four passes still do not reach the 1.05 limit (64 passes: 1.054 / 1.115); the bounds below
  // say how much the tethers win.
  MaterialParams soft;
  soft.stretch = 5;
  soft.shear = 0.5;
  StepSettings settings;
  const StrainLimitParams limit{true, 0.9, 1.05, 4, true};
  auto hang = [&](bool withTethers) {
    assets::HeldSheet sheet = assets::makeHeldSheet(24, soft);
    const std::vector<char> held = pinnedMask(sheet.state.handles, sheet.mesh.nodes.size());
    StrainLimits limits = strainLimits(sheet.mesh, sheet.state, limit, held);
    if (!withTethers) limits.tethers.clear();
    std::vector<double> invMass;
    for (size_t i = 0; i < sheet.mesh.nodes.size(); ++i) invMass.push_back(held[i] ? 0 : 1 / sheet.mesh.nodes[i].mass);
    for (int k = 0; k < 48; ++k) {
      stepCloth(sheet.mesh, sheet.state, sheet.material, settings, 1.0 / 96);
      std::vector<Vec3> x, v;
      for (const Node& node : sheet.mesh.nodes) x.push_back(node.x), v.push_back(node.v);
      limitStrain(x, v, invMass, limits, 1e-3);
      for (size_t i = 0; i < x.size(); ++i) sheet.mesh.nodes[i].x = x[i], sheet.mesh.nodes[i].v = v[i];
    }
    return edgeStretch(sheet.mesh, sheet.state);
  };
  const StretchSummary without = hang(false), with = hang(true);
  INFO("without tethers p99 " << without.p99 << " max " << without.max << "; with " << with.p99 << " " << with.max);
  CHECK(without.p99 > 1.25);
  CHECK(without.p99 - with.p99 > 0.15);
  CHECK(with.p99 < 1.13);
  CHECK(with.max < 1.2);
}
