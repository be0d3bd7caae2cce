// The exact solve: CHOLMOD's factorization, with the symbolic analysis kept while the sparsity pattern is.
#include <omp.h>

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

TEST_CASE("the direct solve leaves OpenMP's settings as it found them", "[dynamics]") {
  // CHOLMOD runs with every OpenMP region inactive (direct_solve.cpp); that must not leak into the rest of the step,
  // or every parallel loop after the first direct solve would run on one thread.
  assets::HeldSheet s = assets::makeHeldSheet(12);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  const int levels = omp_get_max_active_levels();
  DirectSolver direct;
  direct.solve(sys, s.state);
  CHECK(omp_get_max_active_levels() == levels);
  omp_set_max_active_levels(3);
  direct.solve(sys, s.state);
  CHECK(omp_get_max_active_levels() == 3);
  omp_set_max_active_levels(levels);
}
