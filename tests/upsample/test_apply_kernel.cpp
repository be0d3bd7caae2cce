#include <catch2/catch.hpp>

#include "upsample/apply_kernel.h"

using namespace adacloth;

TEST_CASE("operator kernel matches Eigen's product, including the rows past the last full block", "[upsample]") {
  for (auto [N, M] : {std::pair{5, 13}, {32, 13}, {77, 70}, {300, 33}}) {  // M > 32: several column groups
    const Eigen::MatrixXf U = Eigen::MatrixXf::Random(N, M);
    const Eigen::MatrixX3f coarse = Eigen::MatrixX3f::Random(M, 3);
    Eigen::MatrixX3f kernel, eigen;
    multiplyOperator(U, coarse, kernel);
    multiplyOperatorEigen(U, coarse, eigen);
    REQUIRE(kernel.rows() == N);
    CHECK((kernel - eigen).cwiseAbs().maxCoeff() < 1e-5f);
  }
}
