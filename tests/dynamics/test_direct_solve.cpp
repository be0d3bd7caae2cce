// The exact solve: CHOLMOD's factorization, with the symbolic analysis kept while the sparsity pattern is.
#include <omp.h>

#include <catch2/catch.hpp>

#include <Eigen/SparseCholesky>

#include "dynamics/direct_solve.h"
#include "dynamics/free_node_system.h"
#include "dynamics/step.h"
#include "assets/held_sheet.h"
#include "solve_fixtures.h"

using namespace adacloth;

TEST_CASE("the direct solve is exact and holds the held nodes", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(20);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  DirectSolver direct;
  const std::vector<Vec3> dv = direct.solve(sys, s.state);
  CHECK(relativeResidual(sys, s.state, dv) < 1e-10);
  for (size_t i = 0; i < dv.size(); ++i)
    if (sys.fixed[i]) CHECK(dv[i] == sys.fixedDv[i]);
}

TEST_CASE("the direct solve analyses a sparsity pattern once", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(12);
  StepSettings settings;
  settings.solver = StepSolver::Direct;
  for (int k = 0; k < 5; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
  REQUIRE(s.state.solver.direct);
  CHECK(s.state.solver.direct->analyses() == 1);
  // Letting go of the corners adds them to the system: a new pattern, analysed once more.
  s.state.handles.clear();
  for (int k = 0; k < 3; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
  CHECK(s.state.solver.direct->analyses() == 2);
}

TEST_CASE("the direct solve gives the dv of a factorization in node order", "[dynamics]") {
  // The solver assembles the system in its own elimination order; the answer must not depend on it. Reference:
  // Eigen's LDL^T of the same system with the free nodes in node order, no fill-reducing order at all.
  const assets::HeldSheet s = test::movingSheet(10);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  const FreeNodeSystem natural = assembleFreeNodeSystem(sys, s.state);
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>> reference(natural.A);
  REQUIRE(reference.info() == Eigen::Success);
  const std::vector<Vec3> expected = scatterFreeSolution(sys, natural.slot, reference.solve(natural.b));
  DirectSolver direct;
  const std::vector<Vec3> dv = direct.solve(sys, s.state);
  CHECK(test::maxDifference(dv, expected) < 1e-9 * test::maxNorm(expected));
}

namespace {

// Flips the diagonal of the quad that face 0 forms with a neighbour: the same nodes and held nodes, other pairs.
void flipFirstDiagonal(assets::HeldSheet& s) {
  std::vector<Face>& faces = s.mesh.faces;
  const Tri f = faces[0].verts;
  for (size_t g = 1; g < faces.size(); ++g) {
    const Tri t = faces[g].verts;
    for (int k = 0; k < 3; ++k) {
      // f = (a, b, c) rotated so that g holds c, b (in that order, as a neighbour across b-c does) and d.
      const int a = f[k], b = f[(k + 1) % 3], c = f[(k + 2) % 3];
      for (int r = 0; r < 3; ++r)
        if (t[r] == c && t[(r + 1) % 3] == b) {
          const int d = t[(r + 2) % 3];
          faces[0].verts = {a, b, d};
          faces[g].verts = {a, d, c};
          s.mesh.buildAdjacency();
          s.mesh.updateGeometry();
          rebuildDynamics(s.state, s.mesh, s.material);
          return;
        }
    }
  }
  FAIL("face 0 has no neighbour");
}

}  // namespace

TEST_CASE("the direct solve's elimination order depends on the system alone", "[dynamics]") {
  // A solver that has factored another pattern over the same free nodes must give the bytes a fresh solver gives:
  // a resumed run starts with a fresh one, and its frames must be the uninterrupted run's.
  const assets::HeldSheet s = test::movingSheet(10);
  assets::HeldSheet flipped = s;
  flipFirstDiagonal(flipped);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  const ImplicitSystem flippedSys = assets::nextStepSystem(flipped, 1.0 / 96);
  REQUIRE(flippedSys.fixed == sys.fixed);
  DirectSolver used;
  used.solve(flippedSys, flipped.state);
  const std::vector<Vec3> afterOther = used.solve(sys, s.state);
  CHECK(used.analyses() == 2);
  DirectSolver fresh;
  const std::vector<Vec3> fromFresh = fresh.solve(sys, s.state);
  CHECK(afterOther == fromFresh);
}

TEST_CASE("parallel loops get their threads again after a direct solve", "[dynamics]") {
  // CHOLMOD's regions run on the calling thread during the solve (serial_openmp.h); that must not leak into the
  // rest of the step, or every parallel loop after the first direct solve would run on one thread.
  assets::HeldSheet s = assets::makeHeldSheet(12);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  DirectSolver direct;
  direct.solve(sys, s.state);
  int threads = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    threads = omp_get_num_threads();
  }
  CHECK(threads == 2);
}
