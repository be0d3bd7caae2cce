// Obstacle contacts inside the implicit step (dynamics/obstacle_contact.h).
#include <catch2/catch.hpp>

#include "assets/held_sheet.h"
#include "dynamics/obstacle_contact.h"
#include "dynamics/step.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::test;

TEST_CASE("a contact adds a spring of stiffness x m / h^2 along its normal to its node's block", "[dynamics]") {
  assets::HeldSheet sheet = assets::makeHeldSheet(6);
  const double h = 1.0 / 96;
  ImplicitSystem sys = assets::nextStepSystem(sheet, h);
  const ImplicitSystem before = sys;
  int held = -1;
  for (size_t i = 0; i < sys.fixed.size(); ++i)
    if (sys.fixed[i]) held = int(i);
  REQUIRE(held >= 0);
  const Vec3 normal = Vec3(1, 2, 2) / 3;
  const int node = 10;
  REQUIRE_FALSE(sys.fixed[node]);
  addObstacleContacts(sys, sheet.mesh, {{node, normal, 0.004}, {held, normal, 0.004}, {11, normal, -0.001}}, 64);
  const double m = sheet.mesh.nodes[node].mass;
  CHECK((sys.W[node] - before.W[node] - 64 * m * normal * normal.transpose()).norm() < 1e-12 * sys.W[node].norm());
  CHECK((sys.rhs[node] - before.rhs[node] - 64 * m * 0.004 / h * normal).norm() < 1e-12);
  CHECK((sys.Winv[node] * sys.W[node] - Mat3::Identity()).norm() < 1e-9);
  // Held nodes are left alone.
  CHECK(sys.W[held] == before.W[held]);
  // A negative depth (a contact found after a solve moved the node in, step.h) is a spring whose rest lies that far
  // on the obstacle's side of the node's unconstrained end.
  const double m11 = sheet.mesh.nodes[11].mass;
  CHECK((sys.W[11] - before.W[11] - 64 * m11 * normal * normal.transpose()).norm() < 1e-12 * sys.W[11].norm());
  CHECK((sys.rhs[11] - before.rhs[11] + 64 * m11 * 0.001 / h * normal).norm() < 1e-12);
}

TEST_CASE("a falling sheet in contact everywhere keeps 1 / (1 + stiffness) of its approach", "[dynamics]") {
  // An unpinned sheet falls rigidly (the springs do nothing on a translation), so every node's step solves
  // (m + k m) dv = m h g + k m depth / h along the normal: dv = (h g + k depth / h) / (1 + k).
  for (const StepSolver solver : {StepSolver::Direct, StepSolver::Pcg}) {
    assets::HeldSheet sheet = assets::makeHeldSheet(8);
    sheet.state.handles.clear();
    StepSettings settings;
    settings.solver = solver;
    settings.wind.density = 0;
    settings.pcg.tolerance = 1e-10;
    const double h = 1.0 / 96, depth = 0.003;
    std::vector<ObstacleContact> contacts;
    for (int i = 0; i < int(sheet.mesh.nodes.size()); ++i) contacts.push_back({i, Vec3::UnitY(), depth});
    stepCloth(sheet.mesh, sheet.state, sheet.material, settings, h, contacts);
    const double k = settings.contactStiffness;
    const double expected = (h * settings.gravity.y() + k * depth / h) / (1 + k);
    for (const Node& n : sheet.mesh.nodes) {
      CHECK(n.v.y() == Approx(expected).epsilon(1e-6));
      CHECK(std::abs(n.v.x()) < 1e-9);
    }
  }
}

namespace {

// A floor at y = floor (m) that the falling sheet's step is not told about; `check` finds it after the solve: every
// node without a contact that ends within `thickness` of it, its depth measured from the node's unconstrained end.
ContactCheck floorCheck(double floor, double thickness, int& calls) {
  return [=, &calls](const Mesh& mesh, double h, const std::vector<Vec3>& solvedEnd,
                     const std::vector<ObstacleContact>& known) {
    ++calls;
    std::vector<char> has(mesh.nodes.size(), 0);
    for (const ObstacleContact& c : known) has[c.node] = 1;
    std::vector<ObstacleContact> missing;
    for (int i = 0; i < int(mesh.nodes.size()); ++i) {
      const double freeEnd = mesh.nodes[i].x.y() + h * mesh.nodes[i].v.y();
      if (!has[i] && solvedEnd[i].y() < floor + thickness)
        missing.push_back({i, Vec3::UnitY(), floor + thickness - freeEnd});
    }
    return missing;
  };
}

}  // namespace

TEST_CASE("a step whose solve ends nodes in an obstacle it was not told of is solved again with their contacts",
          "[dynamics]") {
  // The sheet falls rigidly at 1 m/s onto a floor 4 mm below it (thickness 5 mm). Told of the contacts beforehand,
  // every node ends with dv = (h g + k depth / h) / (1 + k); found by the check after a first solve without them,
  // the step is solved again with them and must end the same, from whichever solver.
  for (const StepSolver solver : {StepSolver::Direct, StepSolver::Pcg}) {
    const double h = 1.0 / 96, floor = -0.004, thickness = 0.005;
    StepSettings settings;
    settings.solver = solver;
    settings.wind.density = 0;
    settings.pcg.tolerance = 1e-10;
    auto fallingSheet = [] {
      assets::HeldSheet sheet = assets::makeHeldSheet(8);
      sheet.state.handles.clear();
      for (Node& n : sheet.mesh.nodes) n.x.y() = 0, n.v = Vec3(0, -1, 0);
      return sheet;
    };
    assets::HeldSheet told = fallingSheet(), found = fallingSheet(), untold = fallingSheet();
    std::vector<ObstacleContact> contacts;
    for (int i = 0; i < int(told.mesh.nodes.size()); ++i)
      contacts.push_back({i, Vec3::UnitY(), floor + thickness - (0 - h * 1.0)});
    stepCloth(told.mesh, told.state, told.material, settings, h, contacts);
    int calls = 0;
    const SolveReport report =
        stepCloth(found.mesh, found.state, found.material, settings, h, {}, floorCheck(floor, thickness, calls));
    stepCloth(untold.mesh, untold.state, untold.material, settings, h, {});
    // One check found every node; the second found nothing more.
    CHECK(calls == 2);
    for (size_t i = 0; i < told.mesh.nodes.size(); ++i) {
      CHECK(found.mesh.nodes[i].v.y() == Approx(told.mesh.nodes[i].v.y()).epsilon(1e-6));
      CHECK(found.mesh.nodes[i].x.y() > floor + 0.9 * thickness);
      CHECK(untold.mesh.nodes[i].x.y() < floor);
    }
    if (solver == StepSolver::Pcg) CHECK(report.iterations > 0);
  }
}

TEST_CASE("a check that finds nothing leaves the step as it was", "[dynamics]") {
  assets::HeldSheet a = assets::makeHeldSheet(8), b = assets::makeHeldSheet(8);
  StepSettings settings;
  int calls = 0;
  const double h = 1.0 / 96;
  const SolveReport plain = stepCloth(a.mesh, a.state, a.material, settings, h, {});
  const SolveReport checked = stepCloth(b.mesh, b.state, b.material, settings, h, {}, floorCheck(-10, 0.005, calls));
  CHECK(calls == 1);
  CHECK(plain.iterations == checked.iterations);
  for (size_t i = 0; i < a.mesh.nodes.size(); ++i) {
    CHECK(a.mesh.nodes[i].x == b.mesh.nodes[i].x);
    CHECK(a.mesh.nodes[i].v == b.mesh.nodes[i].v);
  }
}
