// Energies reported in stats.jsonl (dynamics/energy.h): zero where they must be, and the elastic energy's gradient
// is the pair force the implicit step uses.
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/dynamics_state.h"
#include "dynamics/energy.h"
#include "dynamics/implicit_system.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

struct Sheet {
  Mesh mesh;
  DynamicsState state;
  MaterialParams material;
};

Sheet flatSheet() {
  Sheet s;
  s.mesh = makeGrid(0.3, 0.2, 6, 4);
  s.material.stretch = 800;
  s.material.shear = 80;
  s.material.bending = 1e-4;
  rebuildDynamics(s.state, s.mesh, s.material);
  return s;
}

// A stretched, folded placement of the sheet (material coordinates unchanged).
void deform(Mesh& mesh) {
  for (Node& n : mesh.nodes) {
    n.x.x() *= 1.04;
    n.x.z() = 0.03 * std::sin(12 * n.x.x()) + 0.01 * n.x.y();
  }
}

// The internal force on each node (N) as the implicit system assembles it (at rest, no external force).
std::vector<Vec3> pairForces(const Sheet& s) {
  const size_t n = s.mesh.nodes.size();
  const double h = 1.0;
  std::vector<Vec3> zero(n, Vec3::Zero());
  const ImplicitSystem sys = assembleSystem(s.mesh, s.state, s.material, zero, std::vector<char>(n, 0), zero, h);
  return sys.rhs;  // h f~ with v = 0 and h = 1 is the force itself
}

}  // namespace

TEST_CASE("a flat sheet at rest has no elastic energy; gravity's energy is m g y", "[dynamics][energy]") {
  Sheet s = flatSheet();
  CHECK(std::abs(elasticEnergy(s.mesh, s.state)) < 1e-15);
  double mass = 0;
  for (Node& n : s.mesh.nodes) n.x.y() += 2.0, mass += n.mass;
  CHECK(std::abs(elasticEnergy(s.mesh, s.state)) < 1e-12);  // a rigid motion stores nothing
  // Grid y spans 0..0.2 (mean 0.1 for the area-weighted masses), shifted to 2.0..2.2.
  CHECK(potentialEnergy(s.mesh, Vec3(0, -9.81, 0)) == Approx(mass * 9.81 * 2.1).epsilon(1e-9));
  CHECK(potentialEnergy(s.mesh, Vec3::Zero()) == 0.0);
}

TEST_CASE("the elastic energy's negative gradient is the spring and bending force", "[dynamics][energy]") {
  Sheet s = flatSheet();
  deform(s.mesh);
  const double e0 = elasticEnergy(s.mesh, s.state);
  CHECK(e0 > 0);
  const std::vector<Vec3> force = pairForces(s);
  const double eps = 1e-7;
  for (int node : {0, 9, 17, 34}) {
    for (int k = 0; k < 3; ++k) {
      Mesh plus = s.mesh, minus = s.mesh;
      plus.nodes[node].x[k] += eps;
      minus.nodes[node].x[k] -= eps;
      const double gradient = (elasticEnergy(plus, s.state) - elasticEnergy(minus, s.state)) / (2 * eps);
      INFO("node " << node << " axis " << k);
      CHECK(-gradient == Approx(force[node][k]).margin(1e-6 * (1 + force[node].norm())));
    }
  }
}
