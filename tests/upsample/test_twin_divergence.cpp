#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/twin_divergence.h"

using namespace adacloth;

namespace {

// Fine frames = B p_c + a displacement of length `amplitude` along +z or -z (sign per run), so each run's residual is
// `amplitude` everywhere and the two residuals are 2 x amplitude apart.
TrainingSequence twinRun(const Mesh& coarse, const SparseMatrixD& B, int frames, double amplitude, double sign,
                         double coarseShift) {
  TrainingSequence seq;
  for (int f = 0; f < frames; ++f) {
    Eigen::MatrixX3d pc = nodePositions(coarse);
    pc.col(0).array() += 0.01 * f + coarseShift;
    Eigen::MatrixX3d pf = B * pc;
    pf.col(2).array() += sign * amplitude;
    seq.coarse.push_back(pc);
    seq.fine.push_back(pf);
    seq.time.push_back(f / 24.0);
  }
  return seq;
}

}  // namespace

TEST_CASE("twin runs with one coarse motion and opposite detail bound every predictor", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 2);
  const Subdivision s = subdivide(coarse, 2);
  const TrainingSequence a = twinRun(coarse, s.midpoint, 5, 0.004, +1, 0.0);
  const TrainingSequence b = twinRun(coarse, s.midpoint, 5, 0.004, -1, 0.0);
  const TwinDivergence d = twinDivergence(a, b, s.midpoint);
  REQUIRE(d.frames.size() == 5);
  CHECK(d.framesUsed == 5);
  CHECK(d.residualDivergence == Approx(0.008));
  CHECK(d.barycentricError == Approx(0.004));
  // The best single mesh for both runs is B p_c itself (error 4 mm each): the bound is tight here.
  CHECK(d.boundRatio == Approx(1.0));
  CHECK(d.estimateRatio == Approx(std::sqrt(2.0)));
}

TEST_CASE("frames whose coarse motion has parted, or whose detail has not, are not used", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 2);
  const Subdivision s = subdivide(coarse, 1);
  // Same detail: nothing has parted, no frame says anything.
  TwinDivergence same = twinDivergence(twinRun(coarse, s.midpoint, 4, 0.004, 1, 0),
                                       twinRun(coarse, s.midpoint, 4, 0.004, 1, 0), s.midpoint);
  CHECK(same.framesUsed == 0);
  CHECK(same.boundRatio == 0);
  // Coarse runs 5 mm apart against 8 mm of residual divergence: beyond the 10 % tolerance, so excluded...
  TwinDivergence parted = twinDivergence(twinRun(coarse, s.midpoint, 4, 0.004, 1, 0.005),
                                         twinRun(coarse, s.midpoint, 4, 0.004, -1, 0), s.midpoint);
  CHECK(parted.frames.size() == 4);
  CHECK(parted.frames[0].coarseDivergence == Approx(0.005));
  CHECK(parted.framesUsed == 0);
  // ... and included with a looser tolerance.
  CHECK(twinDivergence(twinRun(coarse, s.midpoint, 4, 0.004, 1, 0.005),
                       twinRun(coarse, s.midpoint, 4, 0.004, -1, 0), s.midpoint, {1.0, 0.0})
            .framesUsed == 4);
  // `from` skips the first frames (times 0, 1/24, 2/24, 3/24 s).
  CHECK(twinDivergence(twinRun(coarse, s.midpoint, 4, 0.004, 1, 0), twinRun(coarse, s.midpoint, 4, 0.004, -1, 0),
                       s.midpoint, {0.1, 0.05})
            .framesUsed == 2);
  // Mismatched meshes are refused.
  const Subdivision other = subdivide(coarse, 2);
  CHECK_THROWS_AS(twinDivergence(twinRun(coarse, s.midpoint, 2, 0.004, 1, 0),
                                 twinRun(coarse, s.midpoint, 2, 0.004, -1, 0), other.midpoint),
                  std::invalid_argument);
}
