#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/oscillatory_modes.h"
#include "upsample/subdivide.h"
#include "upsample/train_operator.h"

using namespace adacloth;

namespace {

// Random coarse frames and fine frames made from them by the linear map `map` (plus `extra` per frame).
TrainingSequence linearData(const Mesh& coarse, const Eigen::MatrixXd& map, int frames, unsigned seed) {
  std::srand(seed);
  TrainingSequence seq;
  for (int f = 0; f < frames; ++f) {
    const Eigen::MatrixX3d pc = nodePositions(coarse) + 0.2 * Eigen::MatrixX3d::Random(coarse.nodes.size(), 3);
    seq.coarse.push_back(pc);
    seq.fine.push_back(map * pc);
    seq.time.push_back(f / 30.0);
  }
  return seq;
}

}  // namespace

TEST_CASE("harmonic profile runs from gamma_1 to gamma_N", "[upsample]") {
  const Eigen::VectorXd g = harmonicProfile({2.0, 2e4, 4.0}, 100, 100);
  CHECK(g[0] == Approx(2.0));
  CHECK(g[99] == Approx(2e4));
  for (int n = 1; n < 100; ++n) CHECK(g[n] > g[n - 1]);
}

TEST_CASE("training recovers a known linear map and keeps the partition of unity", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 2);
  const Subdivision s = subdivide(coarse, 1);
  const int N = int(s.fine.nodes.size());
  // Any map with rows summing to 1: here Loop subdivision, which the rest-pose midpoint map B is not.
  const Eigen::MatrixXd truth = Eigen::MatrixXd(s.loop);
  const Eigenbasis all = lowestHarmonics(s.fine, N);  // the whole spectrum: U is not truncated
  const std::vector<TrainingSequence> data = {linearData(coarse, truth, 20, 7)};
  const Eigen::MatrixXd U = trainOperator(all, data, {1e-6, 1e-4, 4.0});
  CHECK((U - truth).cwiseAbs().maxCoeff() < 1e-6);
  // Strong regularization changes U but never the row sums.
  const Eigen::MatrixXd smooth = trainOperator(lowestHarmonics(s.fine, 8), data, {1.0, 1e5, 4.0});
  CHECK((U - smooth).cwiseAbs().maxCoeff() > 1e-3);
  CHECK((smooth.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-9);
  const UpsampleOperator op = makeUpsampleOperator(coarse, s.fine, smooth);
  CHECK((op.U.cast<double>().rowwise().sum().array() - 1).abs().maxCoeff() < 1e-6);
  CHECK(op.fineCount() == size_t(N));
  CHECK(op.coarseCount() == coarse.nodes.size());
}

TEST_CASE("upsampled output keeps one topology across frames", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 2);
  const Subdivision s = subdivide(coarse, 2);
  const UpsampleOperator op = makeUpsampleOperator(coarse, s.fine, Eigen::MatrixXd(s.midpoint));
  Eigen::MatrixX3f fine;
  for (int f = 0; f < 3; ++f) {
    const Eigen::MatrixX3f pc = (nodePositions(coarse) + 0.1 * f * Eigen::MatrixX3d::Random(coarse.nodes.size(), 3))
                                    .cast<float>();
    op.apply(pc, f / 30.0, fine);
    CHECK(fine.rows() == long(s.fine.nodes.size()));
    CHECK(op.fineFaces.size() == s.fine.faces.size());
    CHECK(fine.allFinite());
  }
}

TEST_CASE("oscillatory modes recover a travelling wave", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 2, 2);
  const Subdivision s = subdivide(coarse, 2);
  const UpsampleOperator op = makeUpsampleOperator(coarse, s.fine, Eigen::MatrixXd(s.midpoint));
  // A flat coarse mesh, and a fine one with a wave travelling along x in z (the normal): 1 cm, 1.5 Hz.
  const double omega = 2 * M_PI * 1.5, dt = 1.0 / 30;
  TrainingSequence seq;
  for (int f = 0; f < 120; ++f) {
    const double t = f * dt;
    seq.coarse.push_back(nodePositions(coarse));
    Eigen::MatrixX3d pf = nodePositions(s.fine);
    for (Eigen::Index i = 0; i < pf.rows(); ++i) pf(i, 2) = 0.01 * std::sin(omega * t + 4 * pf(i, 0));
    seq.fine.push_back(pf);
    seq.time.push_back(t);
  }
  const std::vector<OscillatoryMode> modes = fitOscillatoryModes(op, {seq}, 1);
  REQUIRE(modes.size() == 1);
  CHECK(modes[0].omega == Approx(omega).epsilon(0.03));
  UpsampleOperator withModes = op;
  withModes.modes = modes;
  Eigen::MatrixX3f out;
  double err = 0, plain = 0;
  for (int f = 0; f < 120; f += 7) {
    withModes.apply(seq.coarse[f].cast<float>(), seq.time[f], out);
    err = std::max(err, (out.cast<double>() - seq.fine[f]).cwiseAbs().maxCoeff());
    plain = std::max(plain, seq.fine[f].col(2).cwiseAbs().maxCoeff());
  }
  CHECK(plain > 0.009);
  CHECK(err < 0.3 * plain);
}

TEST_CASE("training with the barycentric prior recovers a known map and degrades to the prior", "[upsample]") {
  const Mesh coarse = makeGrid(1.0, 1.0, 3, 2);
  const Subdivision s = subdivide(coarse, 1);
  const int N = int(s.fine.nodes.size());
  const Eigen::MatrixXd truth = Eigen::MatrixXd(s.loop);
  const std::vector<TrainingSequence> data = {linearData(coarse, truth, 20, 11)};
  const Eigen::MatrixXd U = trainOperator(lowestHarmonics(s.fine, N), data, {1e-6, 1e-4, 4.0}, &s.midpoint);
  CHECK((U - truth).cwiseAbs().maxCoeff() < 1e-6);
  // Huge damping: nothing is learned, U is the prior (and still a partition of unity).
  const Eigen::MatrixXd damped = trainOperator(lowestHarmonics(s.fine, 8), data, {1e8, 1e9, 4.0}, &s.midpoint);
  CHECK((damped - Eigen::MatrixXd(s.midpoint)).cwiseAbs().maxCoeff() < 1e-6);
  const Eigen::MatrixXd some = trainOperator(lowestHarmonics(s.fine, 8), data, {1e-3, 1e-1, 4.0}, &s.midpoint);
  CHECK((some.rowwise().sum().array() - 1).abs().maxCoeff() < 1e-9);
}
