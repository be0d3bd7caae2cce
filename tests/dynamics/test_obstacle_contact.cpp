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
  // Held nodes and contacts with no depth are left alone.
  CHECK(sys.W[held] == before.W[held]);
  CHECK(sys.rhs[11] == before.rhs[11]);
  CHECK(sys.W[11] == before.W[11]);
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
