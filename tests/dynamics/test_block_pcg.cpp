// The default solve: block-preconditioned CG against the direct solve, warm starts, thread independence.
#include <omp.h>

#include <functional>

#include <catch2/catch.hpp>

#include "dynamics/block_pcg.h"
#include "dynamics/direct_solve.h"
#include "dynamics/multigrid.h"
#include "dynamics/step.h"
#include "dynamics/solve_fixtures.h"
#include "dynamics/ssor_pcg.h"
#include "assets/held_sheet.h"

using namespace adacloth;

namespace {

const double kStep = 1.0 / 96;

using test::maxDifference;
using test::maxNorm;
using test::movingSheet;

}  // namespace

TEST_CASE("pcg converges to the direct solution from a zero guess", "[dynamics]") {
  assets::HeldSheet s = movingSheet(16);
  const ImplicitSystem sys = assets::nextStepSystem(s, kStep);
  DirectSolver direct;
  const std::vector<Vec3> exact = direct.solve(sys, s.state);
  PcgWorkspace work;
  PcgSettings settings;
  settings.tolerance = 1e-10;
  SolveReport report;
  const std::vector<Vec3> zero(exact.size(), Vec3::Zero());
  const std::vector<Vec3> dv = solveBlockPcg(sys, s.state, zero, settings, work, &report);
  CHECK(report.residual <= 1e-10);
  CHECK(relativeResidual(sys, s.state, dv) == Approx(report.residual).epsilon(0.01).margin(1e-13));
  CHECK(maxDifference(dv, exact) < 1e-7 * maxNorm(exact));
  // Held nodes get exactly their prescribed dv.
  for (size_t i = 0; i < dv.size(); ++i)
    if (sys.fixed[i]) CHECK(dv[i] == sys.fixedDv[i]);
}

TEST_CASE("pcg stops at once from the exact solution and at the cap when it must, blocks and ssor alike",
          "[dynamics]") {
  assets::HeldSheet s = movingSheet(12);
  const ImplicitSystem sys = assets::nextStepSystem(s, kStep);
  DirectSolver direct;
  const std::vector<Vec3> exact = direct.solve(sys, s.state);
  using Solve = std::function<void(const std::vector<Vec3>&, const PcgSettings&, SolveReport&)>;
  PcgWorkspace work;
  const Solve blocks = [&](const std::vector<Vec3>& guess, const PcgSettings& settings, SolveReport& report) {
    solveBlockPcg(sys, s.state, guess, settings, work, &report);
  };
  const Solve ssor = [&](const std::vector<Vec3>& guess, const PcgSettings& settings, SolveReport& report) {
    solveSsorPcg(sys, s.state, s.mesh, guess, settings, work, &report);
  };
  for (const Solve& solve : {blocks, ssor}) {
    SolveReport report;
    solve(exact, PcgSettings(), report);
    CHECK(report.iterations == 0);
    PcgSettings capped;
    capped.tolerance = 1e-14;
    capped.maxIterations = 3;
    solve(std::vector<Vec3>(exact.size(), Vec3::Zero()), capped, report);
    CHECK(report.iterations == 3);
    CHECK(report.residual > 1e-14);
  }
}

TEST_CASE("the multigrid preconditioner needs far fewer iterations than the blocks alone on a fine sheet",
          "[dynamics]") {
  assets::HeldSheet s = movingSheet(64);
  const ImplicitSystem sys = assets::nextStepSystem(s, kStep);
  const std::vector<Vec3> zero(sys.rhs.size(), Vec3::Zero());
  PcgWorkspace work;
  PcgSettings settings;
  settings.tolerance = 1e-6;
  settings.maxIterations = 5000;
  SolveReport blocks, multigrid;
  const std::vector<Vec3> a = solveBlockPcg(sys, s.state, zero, settings, work, &blocks);
  Multigrid hierarchy;
  hierarchy.build(sys, s.state);
  const std::vector<Vec3> b = solveBlockPcg(sys, s.state, zero, settings, work, &multigrid,
                                            [&](const std::vector<Vec3>& r, std::vector<Vec3>& z) {
                                              hierarchy.apply(sys, s.state, r, z);
                                            });
  INFO("block Jacobi " << blocks.iterations << " iterations, multigrid " << multigrid.iterations);
  CHECK(multigrid.residual <= 1e-6);
  CHECK(3 * multigrid.iterations < blocks.iterations);
  CHECK(maxDifference(a, b) < 1e-4 * maxNorm(a));
}

TEST_CASE("pcg gives the same bytes at 1 and 2 threads", "[dynamics]") {
  // 65 x 65 nodes: more than one chunk of the ordered sums.
  std::vector<std::vector<Vec3>> results;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    assets::HeldSheet s = assets::makeHeldSheet(64);
    StepSettings settings;
    for (auto preconditioner : {PcgSettings::Preconditioner::BlockJacobi, PcgSettings::Preconditioner::Multigrid,
                                PcgSettings::Preconditioner::Ssor}) {
      settings.pcg.preconditioner = preconditioner;
      for (int k = 0; k < 3; ++k) stepCloth(s.mesh, s.state, s.material, settings, kStep);
    }
    results.push_back(test::positionsOf(s.mesh));
  }
  omp_set_num_threads(1);
  test::requireSameBytes(results);
}
