#pragma once
// The run-time product fine = U coarse (single precision) behind one function, so that a hand-vectorized kernel can
// be chosen at run time (CPU features) without compiling Eigen with different flags in different files (ODR).
#include <Eigen/Dense>

namespace adacloth {

// fine (N x 3, resized) = U (N x M, column-major) * coarse (M x 3): an AVX2/FMA kernel when the CPU has it, plain
// loops otherwise. Each output is summed over coarse nodes in index order, so results do not depend on threads.
void multiplyOperator(const Eigen::MatrixXf& U, const Eigen::MatrixX3f& coarse, Eigen::MatrixX3f& fine);

// The same through Eigen's general product (for the benchmark's comparison).
void multiplyOperatorEigen(const Eigen::MatrixXf& U, const Eigen::MatrixX3f& coarse, Eigen::MatrixX3f& fine);

// Whether multiplyOperator uses the AVX2 kernel on this CPU.
bool operatorKernelIsAvx2();

}  // namespace adacloth
