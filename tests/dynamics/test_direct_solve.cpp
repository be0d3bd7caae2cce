// The exact solve: CHOLMOD's factorization, with the symbolic analysis kept while the sparsity pattern is.
#include <catch2/catch.hpp>

#include "dynamics/direct_solve.h"
#include "dynamics/step.h"
#include "assets/held_sheet.h"

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
