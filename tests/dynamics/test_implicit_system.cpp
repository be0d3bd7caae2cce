// The implicit system: the Kang-Cho update against the full solve of the same linear system (issue 3, test a), and
// the shape of its pairs that the products over a node's pairs rely on.
#include <catch2/catch.hpp>
#include <cmath>

#include "assets/held_sheet.h"
#include "dynamics/dynamics_state.h"
#include "dynamics/forces.h"
#include "dynamics/implicit_system.h"
#include "dynamics/solve_fixtures.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

struct SmallSystem {
  Mesh mesh;
  DynamicsState state;
  MaterialParams material;
};

// A 6x6-cell sheet, stretched by 5 % along x, with a smooth velocity field and the first row held still.
SmallSystem makeSmallSystem(double stretch, double bending) {
  SmallSystem s;
  s.mesh = makeGrid(0.3, 0.3, 6, 6);
  s.material.stretch = stretch;
  s.material.shear = stretch / 10;
  s.material.bending = bending;
  rebuildDynamics(s.state, s.mesh, s.material);
  for (Node& n : s.mesh.nodes) {
    n.x.x() *= 1.05;
    n.x.z() = 0.02 * std::sin(10 * n.x.x());
    n.v = Vec3(0.1 * n.x.y(), 0.0, 0.2 * n.x.x());
  }
  return s;
}

ImplicitSystem assemble(const SmallSystem& s, double h) {
  const size_t n = s.mesh.nodes.size();
  std::vector<Vec3> external(n, Vec3::Zero());
  addGravity(s.mesh, Vec3(0, -9.81, 0), external);
  std::vector<char> fixed(n, 0);
  for (size_t i = 0; i < n; ++i) fixed[i] = s.mesh.nodes[i].x.y() < 1e-9;
  return assembleSystem(s.mesh, s.state, s.material, external, fixed, std::vector<Vec3>(n, Vec3::Zero()), h);
}

// Error in the norm of the block diagonal W, in which a convergent Jacobi iteration shrinks it at every sweep
// (its iteration matrix is W-symmetric).
double errorInW(const ImplicitSystem& sys, const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]).dot(sys.W[i] * (a[i] - b[i]));
  return std::sqrt(d);
}

}  // namespace

TEST_CASE("conjugate gradient meets its tolerance on the implicit system", "[dynamics]") {
  SmallSystem s = makeSmallSystem(2000, 5e-6);
  ImplicitSystem sys = assemble(s, 1.0 / 96);
  for (double tol : {1e-4, 1e-8, 1e-12}) {
    int iterations = 0;
    double reported = 0;
    auto dv = solveConjugateGradient(sys, s.state, tol, &iterations, &reported);
    CHECK(iterations > 0);
    CHECK(reported <= tol);
    // Checked independently of Eigen, from the blocks (slack for the preconditioned residual measure).
    CHECK(relativeResidual(sys, s.state, dv) <= 10 * tol);
  }
}

TEST_CASE("more Jacobi sweeps bring the Kang-Cho update closer to the full solve", "[dynamics]") {
  // Springs only (every block positive semidefinite): Jacobi provably converges, so the error must shrink.
  for (double stretch : {20.0, 200.0, 2000.0}) {
    SmallSystem s = makeSmallSystem(stretch, 0);
    ImplicitSystem sys = assemble(s, 1.0 / 96);
    auto exact = solveConjugateGradient(sys, s.state, 1e-13);
    const double scale = errorInW(sys, exact, std::vector<Vec3>(exact.size(), Vec3::Zero()));
    double previous = errorInW(sys, solveKangCho(sys, s.state, 0), exact);
    INFO("stretch " << stretch << ", |dv| " << scale);
    for (int it : {1, 2, 4, 8, 16, 64, 256}) {
      double error = errorInW(sys, solveKangCho(sys, s.state, it), exact);
      INFO("iterations " << it << ": error " << error << " (before " << previous << ")");
      CHECK(error < previous);
      previous = error;
    }
    if (stretch <= 200) CHECK(errorInW(sys, solveKangCho(sys, s.state, 5000), exact) < 1e-6 * scale);
  }
}

TEST_CASE("held nodes get exactly their prescribed velocity change", "[dynamics]") {
  SmallSystem s = makeSmallSystem(2000, 0);
  ImplicitSystem sys = assemble(s, 1.0 / 96);
  for (size_t i = 0; i < sys.fixed.size(); ++i) sys.fixedDv[i] = Vec3(0.5, -1, 0);
  auto kc = solveKangCho(sys, s.state, 1);
  auto cg = solveConjugateGradient(sys, s.state, 1e-10);
  for (size_t i = 0; i < sys.fixed.size(); ++i)
    if (sys.fixed[i]) {
      CHECK(kc[i] == Vec3(0.5, -1, 0));
      CHECK(cg[i] == Vec3(0.5, -1, 0));
    }
}

TEST_CASE("every coupling between a hinge's opposite nodes is a multiple of the identity, as the products assume",
          "[dynamics]") {
  // The products over a node's pairs (block and ssor pcg, the Kang-Cho update, the residuals) multiply such a
  // coupling by one number (diagonalScale), so they would drop a term of any other shape on these pairs; this test
  // fails as soon as one appears.
  assets::HeldSheet s = test::movingSheet(8);
  // The strain limit's face terms on every face (onset far below any stretch), which act on the edges' pairs.
  s.state.faceStiffening = {2000, 0.5, 1.1};
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  int diagonals = 0;
  for (size_t p = 0; p < s.state.pairs.size(); ++p) {
    if (s.state.pairs[p].isEdge) continue;
    ++diagonals;
    const Mat3& J = sys.pairJ[p];
    INFO("pair " << p);
    REQUIRE(J(0, 0) != 0);
    CHECK(J == J(0, 0) * Mat3::Identity());
  }
  CHECK(diagonals > 100);
}

TEST_CASE("a node's pairs list its mesh edges first, then its hinge diagonals", "[dynamics]") {
  SmallSystem s = makeSmallSystem(1000, 1e-4);
  int diagonals = 0;
  for (size_t i = 0; i < s.mesh.nodes.size(); ++i) {
    INFO("node " << i);
    REQUIRE(s.state.incidenceDiagonal[i] >= s.state.incidenceStart[i]);
    REQUIRE(s.state.incidenceDiagonal[i] <= s.state.incidenceStart[i + 1]);
    for (int k = s.state.incidenceStart[i]; k < s.state.incidenceStart[i + 1]; ++k)
      CHECK(s.state.pairs[s.state.incidencePair[k]].isEdge == (k < s.state.incidenceDiagonal[i]));
    diagonals += s.state.incidenceStart[i + 1] - s.state.incidenceDiagonal[i];
  }
  CHECK(diagonals > 0);
}
