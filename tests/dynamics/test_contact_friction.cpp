// Coulomb friction of the solve's obstacle contacts (applyContactFriction, dynamics/obstacle_contact.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "assets/held_sheet.h"
#include "dynamics/obstacle_contact.h"
#include "frame_stats.h"
#include "io/obj.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

namespace {

// Two unconnected nodes of 10 g each, moving at v0.
Mesh twoNodes(const Vec3& v0) {
  Mesh mesh;
  mesh.nodes.resize(2);
  for (Node& n : mesh.nodes) n.mass = 0.01, n.v = v0;
  return mesh;
}

// Mean x (m) of a cloth's nodes in frame `frame` of a run in dir/out.
double meanX(const TempDir& dir, const std::string& cloth, int frame) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%05d.obj", cloth.c_str(), frame);
  const Mesh mesh = readObj(dir / "out" / "frames" / name);
  double sum = 0;
  for (const Node& n : mesh.nodes) sum += n.x.x();
  return sum / double(mesh.nodes.size());
}

// A 30 cm cotton sheet lying on `obstacle` (JSON) with gravity tilted by `degrees` towards +x, so that the surface is
// a slope of that angle; 24 frames (1 s).
std::string slopeShot(const std::string& obstacle, double degrees, double friction, bool remeshing) {
  const double g = 9.81, a = degrees * M_PI / 180;
  char text[1024];
  std::snprintf(text, sizeof text, R"({"name": "slope", "fps": 24, "frames": 24, "gravity": [%.17g, %.17g, 0],
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [0.3, 0.3], "cells": [12, 12]}},
                "transform": {"rotate_deg": [-90, 0, 0], "translate": [0, 0.004, 0]}, "material": "cotton",
                "remeshing": %s}],
    "obstacles": [%s], "collision": {"obstacle_friction": %.17g}})",
                g * std::sin(a), -g * std::cos(a), remeshing ? "true" : "false", obstacle.c_str(), friction);
  return text;
}

const char* kSlab =
    R"({"name": "slab", "mesh": {"box": {"size": [6, 0.1, 1]}}, "transform": {"translate": [0, -0.05, 0]}})";
const char* kGround = R"({"name": "floor", "mesh": {"ground": {"size": 6}}})";

}  // namespace

TEST_CASE("friction takes at most mu times the impulse pressing a node on the obstacle from its tangential velocity",
          "[dynamics]") {
  const double h = 0.01, mu = 0.5;
  // Springs of K = 100 N/m ending the step 1 mm compressed (a push of h K 1e-3 = 1e-3 N s), on nodes of 10 g that a
  // load of 1e-3 N s presses on the obstacle: mu / m of it is 0.05 m/s.
  const double K = 100;
  const std::vector<ObstacleContact> contacts = {{0, Vec3::UnitY(), 0.001}, {1, Vec3::UnitY(), 0.001}};
  const std::vector<double> stiffness = {K, K};
  const std::vector<Vec3> load(2, Vec3(0, -1e-3, 0));
  SECTION("sliding faster than friction can stop: slowed by mu x impulse / m, along its own direction") {
    Mesh mesh = twoNodes(Vec3(0.3, 0, 0.4));
    std::vector<Vec3> dv(2, Vec3::Zero());
    applyContactFriction(mesh, contacts, stiffness, load, h, mu, dv);
    CHECK((dv[0] - Vec3(-0.03, 0, -0.04)).norm() < 1e-12);
  }
  SECTION("sliding slower: stopped (static friction), the normal velocity left alone") {
    Mesh mesh = twoNodes(Vec3(0.02, -0.1, 0));
    std::vector<Vec3> dv(2, Vec3::Zero());
    applyContactFriction(mesh, contacts, stiffness, load, h, mu, dv);
    CHECK((mesh.nodes[0].v + dv[0] - Vec3(0, -0.1, 0)).norm() < 1e-15);
  }
  SECTION("relative to the surface: a node on a belt is brought to the belt's speed") {
    Mesh mesh = twoNodes(Vec3(0.98, 0, 0));
    std::vector<ObstacleContact> belt = contacts;
    belt[0].surfaceVelocity = Vec3(1, 0, 0);
    std::vector<Vec3> dv(2, Vec3::Zero());
    applyContactFriction(mesh, belt, stiffness, load, h, mu, dv);
    CHECK((mesh.nodes[0].v + dv[0] - Vec3(1, 0, 0)).norm() < 1e-15);
  }
  SECTION("the approach counts as pressing: a node arriving at 0.3 m/s with no load") {
    Mesh mesh = twoNodes(Vec3(1, -0.3, 0));
    std::vector<Vec3> dv(2, Vec3::Zero());
    const std::vector<Vec3> none(2, Vec3::Zero());
    const std::vector<double> stiff = {10 * K, 10 * K};  // pushes 1e-2 N s, more than the approach's 3e-3
    applyContactFriction(mesh, contacts, stiff, none, h, mu, dv);
    CHECK((dv[0] - Vec3(-0.15, 0, 0)).norm() < 1e-12);
  }
  SECTION("a push that only carries a node out of a depth does not press it: no friction") {
    Mesh mesh = twoNodes(Vec3(0.3, 0, 0));
    std::vector<Vec3> dv(2, Vec3::Zero());
    const std::vector<Vec3> none(2, Vec3::Zero());
    applyContactFriction(mesh, contacts, stiffness, none, h, mu, dv);
    CHECK(dv[0] == Vec3::Zero());
  }
  SECTION("no more than the springs push: none from a spring that ends the step stretched, none with mu 0") {
    Mesh mesh = twoNodes(Vec3(0.3, 0, 0));
    std::vector<Vec3> dv = {Vec3(0, 0.2, 0), Vec3::Zero()};  // node 0 ends 2 mm out: past the spring's rest
    applyContactFriction(mesh, contacts, stiffness, load, h, mu, dv);
    CHECK(dv[0] == Vec3(0, 0.2, 0));
    CHECK(dv[1].x() < 0);
    std::vector<Vec3> zero(2, Vec3::Zero());
    applyContactFriction(mesh, contacts, stiffness, load, h, 0.0, zero);
    CHECK(zero[1] == Vec3::Zero());
  }
  SECTION("a node's springs act as one: their net push and stiffness-weighted normal") {
    // Two springs on node 0 that disagree: one pushes 2e-3 N s, the other pulls 1e-3 N s; net 1e-3 N s.
    Mesh mesh = twoNodes(Vec3(1, 0, 0));
    const std::vector<ObstacleContact> two = {{0, Vec3::UnitY(), 0.002}, {0, Vec3::UnitY(), -0.001}};
    const std::vector<Vec3> heavy(2, Vec3(0, -1, 0));  // a load far above the push: the push bounds the impulse
    std::vector<Vec3> dv(2, Vec3::Zero());
    applyContactFriction(mesh, two, stiffness, heavy, h, mu, dv);
    CHECK((dv[0] - Vec3(-0.05, 0, 0)).norm() < 1e-12);
  }
}

TEST_CASE("friction distorts the cloth when it changes an edge's end length by more than the share", "[dynamics]") {
  assets::HeldSheet sheet = assets::makeHeldSheet(4);
  const double h = 0.01;
  const int n = int(sheet.mesh.nodes.size());
  for (Node& node : sheet.mesh.nodes) node.v = Vec3(0.5, 0, 0);
  const std::vector<Vec3> dv(n, Vec3::Zero());
  // The whole sheet slowed alike: no edge changes.
  std::vector<Vec3> target(n, Vec3(-0.3, 0, 0));
  CHECK_FALSE(frictionDistorts(sheet.mesh, h, dv, target, 0.01));
  // One node slowed alone by 0.3 m/s: 3 mm over the step against edges of 25 cm (1.2 %).
  target = dv;
  target[6] = Vec3(-0.3, 0, 0);
  CHECK(frictionDistorts(sheet.mesh, h, dv, target, 0.01));
  CHECK_FALSE(frictionDistorts(sheet.mesh, h, dv, target, 0.02));
}

TEST_CASE("friction's targets add a spring in the plane of a node's contacts towards its target", "[dynamics]") {
  assets::HeldSheet sheet = assets::makeHeldSheet(6);
  const double h = 1.0 / 96;
  ImplicitSystem sys = assets::nextStepSystem(sheet, h);
  const ImplicitSystem before = sys;
  const int node = 10, other = 11;
  REQUIRE_FALSE(sys.fixed[node]);
  const int n = int(sheet.mesh.nodes.size());
  std::vector<Vec3> dv(n, Vec3::Zero()), target(n, Vec3::Zero());
  target[node] = Vec3(0.1, 0.2, 0.3);
  // Two springs on the node along y, of unequal stiffness, and one on `other`, whose target is its dv: left alone.
  const std::vector<ObstacleContact> contacts = {{node, Vec3::UnitY(), 0.0}, {node, Vec3::UnitY(), 0.001},
                                                 {other, Vec3::UnitX(), 0.0}};
  addFrictionTargets(sys, sheet.mesh, contacts, {5.0, 1.0, 3.0}, ContactSprings{64, 4}, dv, target);
  const double m = sheet.mesh.nodes[node].mass;
  const Mat3 plane = Mat3::Identity() - Vec3::UnitY() * Vec3::UnitY().transpose();
  const double cloth = 0.5 * (before.W[node].trace() - before.W[node](1, 1)) - m;
  const double springKg = 64 * m + 4 * std::max(0.0, cloth);
  CHECK((sys.W[node] - before.W[node] - springKg * plane).norm() < 1e-12 * sys.W[node].norm());
  CHECK((sys.rhs[node] - before.rhs[node] - springKg * Vec3(0.1, 0, 0.3)).norm() < 1e-12 * springKg);
  CHECK((sys.Winv[node] * sys.W[node] - Mat3::Identity()).norm() < 1e-9);
  CHECK(sys.W[other] == before.W[other]);
  CHECK(sys.rhs[other] == before.rhs[other]);
}

TEST_CASE("a sheet on a slope sticks above the friction angle and slides at g (sin - mu cos) below it",
          "[dynamics][regression]") {
  // Before the solve's contacts had friction, the sheet resting on them slid almost freely: on the ground at 20
  // degrees with mu 0.5 it went 1.62 m in 1 s (frictionless: 1.68 m; Coulomb: it sticks); on a box with mu 0.2,
  // 1.17 m (Coulomb: 0.755 m).
  const double degrees = 20, a = degrees * M_PI / 180;
  for (const char* obstacle : {kSlab, kGround}) {
    const bool remeshing = obstacle == kSlab;
    for (const double mu : {0.5, 0.2}) {
      INFO((obstacle == kSlab ? "box" : "ground") << ", mu " << mu);
      TempDir dir("slope");
      auto run = simulateShot(dir, "slope", slopeShot(obstacle, degrees, mu, remeshing));
      INFO(run.output);
      REQUIRE(run.exitCode == 0);
      const double slid = meanX(dir, "sheet", 24) - meanX(dir, "sheet", 0);
      const double coulomb = std::max(0.0, 0.5 * 9.81 * (std::sin(a) - mu * std::cos(a)));  // m in 1 s
      INFO("slid " << slid << " m, Coulomb " << coulomb << " m");
      if (coulomb == 0) CHECK(std::abs(slid) < 0.002);
      else CHECK(std::abs(slid - coulomb) < 0.03 * coulomb);
      for (const config::Json& frame : frameStats(dir / "out")) CHECK(frame["cloths"][0]["stretch_max"] < 1.05);
    }
  }
}

TEST_CASE("a belt moving under a sheet brings it to its speed as Coulomb friction does", "[dynamics][regression]") {
  // A slab moving at 1 m/s from rest under a sheet that lies on it: friction mu g accelerates the sheet for
  // v / (mu g) seconds, and it then rides along, v^2 / (2 mu g) behind the belt. Before the solve's contacts had
  // friction relative to the obstacle's surface, the sheet lagged 1.6x that.
  const double mu = 0.5, speed = 1.0;
  TempDir dir("belt");
  auto run = simulateShot(dir, "belt", R"({"name": "belt", "fps": 24, "frames": 24,
    "cloths": [{"name": "sheet", "mesh": {"grid": {"size": [0.3, 0.3], "cells": [12, 12]}},
                "transform": {"rotate_deg": [-90, 0, 0], "translate": [0, 0.004, 0]}, "material": "cotton"}],
    "obstacles": [{"name": "belt", "mesh": {"box": {"size": [6, 0.1, 1]}}, "transform": {"translate": [0, -0.05, 0]},
                   "motion": [{"time": 0, "translate": [0, 0, 0]}, {"time": 2, "translate": [2, 0, 0]}]}],
    "collision": {"obstacle_friction": 0.5}})");
  INFO(run.output);
  REQUIRE(run.exitCode == 0);
  const double lag = speed * 1.0 - (meanX(dir, "sheet", 24) - meanX(dir, "sheet", 0));
  const double endSpeed = (meanX(dir, "sheet", 24) - meanX(dir, "sheet", 23)) * 24;
  const double coulombLag = speed * speed / (2 * mu * 9.81);
  INFO("lag " << lag << " m (Coulomb " << coulombLag << " m), speed at 1 s " << endSpeed << " m/s");
  CHECK(std::abs(endSpeed - speed) < 0.01 * speed);
  CHECK(lag > 0.7 * coulombLag);
  CHECK(lag < 1.3 * coulombLag);
}
