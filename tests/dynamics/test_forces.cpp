// External forces: gravity and the per-face aerodynamic model.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "dynamics/dynamics_state.h"
#include "dynamics/forces.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

Vec3 total(const std::vector<Vec3>& f) {
  Vec3 sum = Vec3::Zero();
  for (const Vec3& v : f) sum += v;
  return sum;
}

}  // namespace

TEST_CASE("wind drag on a still sheet facing the flow is 0.5 rho C_d A v^2 along the flow", "[dynamics]") {
  Mesh mesh = makeGrid(2, 1, 4, 2);  // 2 m^2 in the XY plane, normal +Z
  WindParams wind;
  wind.velocity = Vec3(0, 0, -5);
  wind.density = 1.2;
  wind.drag = 1.1;
  std::vector<Vec3> force(mesh.nodes.size(), Vec3::Zero());
  addWind(mesh, wind, force);
  CHECK(total(force).isApprox(Vec3(0, 0, -0.5 * 1.2 * 1.1 * 2.0 * 25), 1e-12));
  // Flow along the sheet: no drag; lift needs a normal component too.
  wind.velocity = Vec3(5, 0, 0);
  wind.lift = 0.5;
  std::fill(force.begin(), force.end(), Vec3::Zero());
  addWind(mesh, wind, force);
  CHECK(total(force).norm() < 1e-12);
}

TEST_CASE("lift acts across the flow, towards the side the flow pushes", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 2, 2);  // normal +Z
  WindParams wind;
  wind.velocity = Vec3(4, 0, 4);  // 45 degrees: pushes the sheet towards +Z
  wind.drag = 0;
  wind.lift = 1.0;
  std::vector<Vec3> force(mesh.nodes.size(), Vec3::Zero());
  addWind(mesh, wind, force);
  Vec3 f = total(force);
  CHECK(std::abs(f.dot(wind.velocity)) < 1e-12);  // perpendicular to the flow
  CHECK(f.z() > 0);
  // 0.5 rho C_l A |v|^2 cos(a) sin(a) with a = 45 degrees.
  CHECK(f.norm() == Approx(0.5 * 1.2 * 1.0 * 1.0 * 32 * 0.5));
}

TEST_CASE("gravity is mass times g", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 3, 3);
  DynamicsState state;
  MaterialParams m;
  m.density = 0.2;
  rebuildDynamics(state, mesh, m);
  std::vector<Vec3> force(mesh.nodes.size(), Vec3::Zero());
  addGravity(mesh, Vec3(0, -9.81, 0), force);
  CHECK(total(force).isApprox(Vec3(0, -0.2 * 9.81, 0), 1e-12));
}
