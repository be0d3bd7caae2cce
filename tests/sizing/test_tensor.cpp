#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <random>

#include "sizing/tensor.h"

using namespace adacloth;

namespace {

double minEigen(const Mat2& M) {
  Eigen::SelfAdjointEigenSolver<Mat2> eig(0.5 * (M + M.transpose()));
  return eig.eigenvalues()(0);
}

Mat2 rankOne(double angle, double magnitude) {
  Vec2 d(std::cos(angle), std::sin(angle));
  return magnitude * d * d.transpose();
}

Mat2 randomPsd(std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(0, M_PI), mag(0, 100);
  return rankOne(angle(rng), mag(rng)) + rankOne(angle(rng), mag(rng));
}

}  // namespace

TEST_CASE("tensorMax of known cases", "[sizing]") {
  Mat2 A;
  A << 3, 1, 1, 2;
  CHECK((tensorMax(A, A) - A).norm() < 1e-12);
  CHECK((tensorMax({A, Mat2::Zero()}) - A).norm() < 1e-12);
  CHECK((tensorMax(rankOne(0, 1), rankOne(M_PI / 2, 1)) - Mat2::Identity()).norm() < 1e-12);
  // Three rank-one tensors 60 degrees apart: by symmetry the smallest enclosing tensor is the identity; this needs
  // the three-disk case (every pair's enclosing disk misses the third).
  Mat2 B = tensorMax({rankOne(0, 1), rankOne(M_PI / 3, 1), rankOne(2 * M_PI / 3, 1)});
  CHECK((B - Mat2::Identity()).norm() < 1e-9);
  CHECK(tensorMax(std::vector<Mat2>{}).norm() == 0.0);
}

TEST_CASE("tensorMax is a tight upper bound", "[sizing]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Mat2> ms;
    int n = 1 + trial % 6;
    for (int k = 0; k < n; ++k) ms.push_back(randomPsd(rng));
    Mat2 B = tensorMax(ms);
    double scale = B.trace();
    double slackMin = 1e300;
    for (const Mat2& M : ms) {
      double slack = minEigen(B - M);
      REQUIRE(slack >= -1e-9 * scale);  // B dominates every input
      slackMin = std::min(slackMin, slack);
    }
    CHECK(slackMin <= 1e-9 * scale);  // and touches at least one (it cannot shrink uniformly)
    // No smaller trace than the tensor max of a subset, no larger than the sum.
    Mat2 sum = Mat2::Zero();
    for (const Mat2& M : ms) sum += M;
    CHECK(B.trace() <= sum.trace() * (1 + 1e-12) + 1e-12);
    CHECK(B.trace() >= tensorMax(std::vector<Mat2>(ms.begin(), ms.begin() + (n + 1) / 2)).trace() * (1 - 1e-12));
  }
}

TEST_CASE("clampSizing enforces size and aspect limits", "[sizing]") {
  const double hMin = 0.01, hMax = 0.1, aspect = 0.2;
  Eigen::SelfAdjointEigenSolver<Mat2> eig;
  eig.computeDirect(clampSizing(Mat2::Zero(), hMin, hMax, aspect));
  CHECK(eig.eigenvalues()(0) == Approx(1 / (hMax * hMax)));
  CHECK(eig.eigenvalues()(1) == Approx(1 / (hMax * hMax)));
  eig.computeDirect(clampSizing(1e9 * Mat2::Identity(), hMin, hMax, aspect));
  CHECK(eig.eigenvalues()(1) == Approx(1 / (hMin * hMin)));
  // Strongly anisotropic: the small eigenvalue rises to aspect^2 times the large one; directions are kept.
  Mat2 M = rankOne(0.3, 2500.0);
  Mat2 C = clampSizing(M, hMin, hMax, aspect);
  eig.computeDirect(C);
  CHECK(eig.eigenvalues()(1) == Approx(2500.0));
  CHECK(eig.eigenvalues()(0) == Approx(aspect * aspect * 2500.0));
  Vec2 d(std::cos(0.3), std::sin(0.3));
  CHECK(d.dot(C * d) == Approx(2500.0));
}
