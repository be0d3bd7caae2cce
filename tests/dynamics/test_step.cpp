// Whole-step behaviour: stability, handles, the blow-up guard (issue 3, tests b and more).
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/step.h"
#include "assets/held_sheet.h"
#include "dynamics/strain_limit.h"
#include "io/error.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

using Sheet = assets::HeldSheet;

Sheet makeSheet(int cells, const MaterialParams& material) { return assets::makeHeldSheet(cells, material); }

MaterialParams denimLike() {
  MaterialParams m;
  m.density = 0.4;
  m.stretch = 8000;
  m.shear = 1200;
  m.bending = 4e-5;
  m.damping = 0.003;
  return m;
}

}  // namespace

TEST_CASE("a stiff sheet stays finite with kinetic energy bounded at one step per 1/24 s frame", "[dynamics]") {
  Sheet s = makeSheet(16, denimLike());
  StepSettings settings;
  // The largest energy the fall can release: weight x the sheet's height drop, at most 1.5 m here.
  double mass = 0;
  for (const Node& n : s.mesh.nodes) mass += n.mass;
  const double bound = mass * 9.81 * 1.5;
  double peak = 0;
  for (int frame = 1; frame <= 300; ++frame) {
    stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 24);
    auto bad = findBadNode(s.mesh, 100.0);
    INFO("frame " << frame);
    REQUIRE_FALSE(bad.has_value());
    peak = std::max(peak, kineticEnergy(s.mesh));
    REQUIRE(kineticEnergy(s.mesh) <= bound);
  }
  CHECK(peak > 0);  // it did move
}

TEST_CASE("held nodes follow their keyframed motion exactly", "[dynamics]") {
  MaterialParams cotton;
  Sheet s = makeSheet(8, cotton);
  s.state.handles[0].spec.motion = {{0.0, Vec3::Zero()}, {1.0, Vec3(0, 0.5, 0)}};
  StepSettings settings;
  for (int k = 0; k < 12; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 24);
  for (size_t k = 0; k < s.state.handles[0].nodes.size(); ++k) {
    Vec3 expected = s.state.handles[0].anchors[k] + Vec3(0, 0.25, 0);
    CHECK((s.mesh.nodes[s.state.handles[0].nodes[k]].x - expected).norm() < 1e-12);
  }
}

TEST_CASE("the guard names the first node that is not finite or too fast", "[dynamics]") {
  Mesh mesh = makeGrid(1, 1, 2, 2);
  CHECK_FALSE(findBadNode(mesh, 10).has_value());
  mesh.nodes[5].v = Vec3(0, 20, 0);
  mesh.nodes[7].x = Vec3(NAN, 0, 0);
  auto bad = findBadNode(mesh, 10);
  REQUIRE(bad.has_value());
  CHECK(bad->node == 5);
  CHECK(bad->reason.find("max_speed") != std::string::npos);
  mesh.nodes[5].v = Vec3::Zero();
  CHECK(findBadNode(mesh, 10)->node == 7);
}

namespace {

// Mean fall (m) of an unpinned 32 x 32 cotton sheet (3 cm cells) without air after 0.5 s at h = 1/96 s.
double freeFall(StepSettings settings) {
  settings.wind.density = 0;  // no air: nothing but gravity acts on the sheet as a whole
  Sheet s = makeSheet(32, MaterialParams());
  s.state.handles.clear();
  for (int k = 0; k < 48; ++k) stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
  double y = 0;
  for (const Node& n : s.mesh.nodes) y += n.x.y();
  return -y / double(s.mesh.nodes.size());
}

}  // namespace

TEST_CASE("a free sheet falls at g under every converging solver, and slower under one kang_cho sweep",
          "[dynamics]") {
  StepSettings direct;
  direct.solver = StepSolver::Direct;
  const double reference = freeFall(direct);
  // Backward Euler's free fall: x_n = g h^2 n (n + 1) / 2, 1.252 m after 48 steps.
  CHECK(reference == Approx(9.81 * 48 * 49 / 2.0 / (96.0 * 96.0)).epsilon(1e-3));
  for (auto preconditioner : {PcgSettings::Preconditioner::BlockJacobi, PcgSettings::Preconditioner::Multigrid,
                              PcgSettings::Preconditioner::Ssor}) {
    StepSettings pcg;
    pcg.solver = StepSolver::Pcg;
    pcg.pcg.preconditioner = preconditioner;
    CHECK(freeFall(pcg) == Approx(reference).epsilon(0.005));
  }
  StepSettings cg;
  cg.solver = StepSolver::CG;
  CHECK(freeFall(cg) == Approx(reference).epsilon(0.005));
  StepSettings automatic;  // the default, solver auto: pcg here (no frames are started, and free fall is easy)
  CHECK(freeFall(automatic) == Approx(reference).epsilon(0.005));
  StepSettings oneSweep;
  oneSweep.solver = StepSolver::KangCho;
  const double lagging = freeFall(oneSweep);
  INFO("one sweep " << lagging << " m, direct " << reference << " m");
  CHECK(lagging < 0.9 * reference);
}

TEST_CASE("stepCloth reports the solve: iterations and a residual within the tolerance", "[dynamics]") {
  Sheet s = makeSheet(16, MaterialParams());
  StepSettings settings;
  settings.pcg.tolerance = 1e-6;
  for (int k = 0; k < 4; ++k) {
    const SolveReport report = stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96);
    CHECK(report.iterations > 0);
    CHECK(report.residual <= 1e-6);
  }
  settings.solver = StepSolver::Direct;
  CHECK(stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96).residual < 1e-10);
}

namespace {

// Steps of 1/96 s; the direct solves they took.
int directSolvesOver(Sheet& s, const StepSettings& settings, int steps) {
  int direct = 0;
  for (int k = 0; k < steps; ++k) direct += stepCloth(s.mesh, s.state, s.material, settings, 1.0 / 96).directSolves;
  return direct;
}

MaterialParams veryStiff() {
  MaterialParams m = denimLike();
  m.stretch *= 300;  // pcg then takes 100-300 iterations a solve once the sheet swings, as under a tight strain
  m.shear *= 300;    // limit's stiffening
  return m;
}

}  // namespace

TEST_CASE("solver auto turns to the factorization for stiff cloth after a costly pcg frame, checks back every few "
          "frames, and keeps soft cloth on pcg", "[dynamics]") {
  StepSettings settings;
  REQUIRE(settings.solver == StepSolver::Auto);  // the default
  Sheet soft = makeSheet(24, MaterialParams());
  Sheet stiff = makeSheet(24, veryStiff());
  int directFrames = 0, checkFrames = 0;
  for (int frame = 0; frame < 16; ++frame) {
    INFO("frame " << frame);
    const AutoSolverChoice before = stiff.state.solver.autoChoice;  // the mode and pcg work of the frame before
    startSolverFrame(soft.state);
    startSolverFrame(stiff.state);
    CHECK(directSolvesOver(soft, settings, 8) == 0);
    const AutoSolverChoice now = stiff.state.solver.autoChoice;
    const double perSolve = before.solves ? double(before.iterations) / before.solves : 0;
    const double breakEven = autoSolverBreakEven(before.freeNodes, before.blockJacobi);
    INFO(perSolve << " pcg iterations a solve in the frame before; break-even " << breakEven);
    if (!before.direct) CHECK(now.direct == (perSolve > kAutoSwitchUp * breakEven));
    if (before.checking) CHECK(now.direct == (perSolve > breakEven));
    const bool factorized = now.direct && !now.checking;
    CHECK(directSolvesOver(stiff, settings, 8) == (factorized ? 8 : 0));
    directFrames += factorized;
    checkFrames += now.checking;
  }
  // A swinging stiff sheet's pcg frames take 70-120 iterations a solve here (break-even 73): direct from the third
  // frame on (116 > 1.5 x 73), with a pcg check frame in every five (91 and 106: it stays).
  CHECK(directFrames >= 8);
  CHECK(checkFrames >= 2);
  CHECK_FALSE(soft.state.solver.autoChoice.direct);
}

TEST_CASE("solver auto keeps stiff cloth as close to the direct solve's motion as pcg does", "[dynamics]") {
  StepSettings automatic, pcg, direct;
  pcg.solver = StepSolver::Pcg;
  direct.solver = StepSolver::Direct;
  Sheet a = makeSheet(24, veryStiff()), p = makeSheet(24, veryStiff()), d = makeSheet(24, veryStiff());
  auto distance = [&](const Sheet& s) {
    double largest = 0;
    for (size_t i = 0; i < s.mesh.nodes.size(); ++i)
      largest = std::max(largest, (s.mesh.nodes[i].x - d.mesh.nodes[i].x).norm());
    return largest;
  };
  double fromAuto = 0, fromPcg = 0;
  for (int frame = 0; frame < 6; ++frame) {
    startSolverFrame(a.state);
    for (int k = 0; k < 8; ++k)
      for (auto* run : {&a, &p, &d})
        stepCloth(run->mesh, run->state, run->material, run == &a ? automatic : run == &p ? pcg : direct, 1.0 / 96);
    fromAuto = std::max(fromAuto, distance(a));
    fromPcg = std::max(fromPcg, distance(p));
  }
  INFO("largest distance from the direct solve's nodes: auto " << fromAuto << " m, pcg " << fromPcg << " m");
  // Both part from the exact motion by millimetres on this swinging, very stiff sheet (2.2 mm for pcg, 1.5 mm for
  // auto, whose first two frames are pcg's); a broken factorized step would put auto centimetres off.
  CHECK(fromAuto < fromPcg);
  CHECK(fromAuto > 0);  // its first two frames were pcg's
}

TEST_CASE("the break-even of solver auto grows with the cloth, and block Jacobi's lies above SSOR's", "[dynamics]") {
  CHECK(autoSolverBreakEven(1000, false) == Approx(58));
  CHECK(autoSolverBreakEven(10000, false) > autoSolverBreakEven(1000, false));
  CHECK(autoSolverBreakEven(500, true) > autoSolverBreakEven(500, false));
}
