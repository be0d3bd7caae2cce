// Benchmark of the learned upsampling's run time (issue 9 item 3): p_f = U p_c in single precision on one thread,
// goal <= 0.2 ms per frame for M = 150 coarse and N = 6000 fine nodes. Prints, per size, ms per frame of
// Eigen's product, of multiplyOperator (the AVX2/FMA kernel when the CPU has it) and of UpsampleOperator::apply
// with one oscillatory mode; and the largest difference between the kernel and Eigen.
// With an operator file argument it also times that operator (e.g. docs/upsampling.md's trained flag operator).
// Usage: OMP_NUM_THREADS=1 bench_upsample [OP.bin]
#include <chrono>
#include <cstdio>
#include <functional>

#include "upsample/apply_kernel.h"
#include "upsample/upsample_operator.h"

using namespace adacloth;

namespace {

// Median-free simple timing: best of 5 runs of `reps` calls (ms per call).
double msPerCall(const std::function<void()>& call, int reps) {
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) call();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                              reps);
  }
  return best;
}

// An operator of the given size with random rows summing to 1 and a fine "mesh" of disjoint triangles (for the
// normals the modes need; the timing only depends on the counts).
UpsampleOperator randomOperator(int M, int N) {
  UpsampleOperator op;
  op.coarsePoints.assign(M, Vec2::Zero());
  op.finePoints.assign(N, Vec2::Zero());
  op.U = Eigen::MatrixXf::Random(N, M).cwiseAbs();
  for (int i = 0; i < N; ++i) op.U.row(i) /= op.U.row(i).sum();
  for (int i = 0; i + 2 < N; i += 3) {
    op.fineFaces.push_back({i, i + 1, i + 2});
    for (int k = 0; k < 3; ++k) op.fineVertNode.push_back(i + k), op.fineUv.push_back(Vec2::Zero());
  }
  return op;
}

void row(const char* name, const UpsampleOperator& op) {
  const int M = int(op.coarseCount()), N = int(op.U.rows());
  const Eigen::MatrixX3f coarse = Eigen::MatrixX3f::Random(M, 3);
  Eigen::MatrixX3f a, b;
  const int reps = std::max(20, int(2e8 / (double(M) * N)));
  const double eigenMs = msPerCall([&] { multiplyOperatorEigen(op.U, coarse, a); }, reps);
  const double kernelMs = msPerCall([&] { multiplyOperator(op.U, coarse, b); }, reps);
  UpsampleOperator withMode = op;
  if (withMode.modes.empty() && !withMode.fineFaces.empty())
    withMode.modes.push_back({10.0, Eigen::VectorXf::Constant(N, 0.001f), Eigen::VectorXf::Constant(N, 0.002f)});
  double t = 0;
  const double modeMs = msPerCall([&] { withMode.apply(coarse, t += 0.01, b); }, reps);
  multiplyOperator(op.U, coarse, b);
  std::printf("%-22s %6d %7d %9.2f %10.4f %10.4f %12.4f %12.2e\n", name, M, N, op.U.size() * 4.0 / 1e6, eigenMs,
              kernelMs, modeMs, (a - b).cwiseAbs().maxCoeff());
}

}  // namespace

int main(int argc, char** argv) {
  Eigen::setNbThreads(1);
  std::printf("kernel: %s\n", operatorKernelIsAvx2() ? "AVX2+FMA" : "portable loops");
  std::printf("%-22s %6s %7s %9s %10s %10s %12s %12s\n", "operator", "M", "N", "MB", "eigen ms", "kernel ms",
              "+1 mode ms", "max |diff|");
  for (auto [M, N] : {std::pair{100, 5000}, {150, 6000}, {200, 10000}, {300, 10000}}) {
    char name[32];
    std::snprintf(name, sizeof name, "random %dx%d", M, N);
    row(name, randomOperator(M, N));
  }
  for (int i = 1; i < argc; ++i) row(argv[i], loadUpsampleOperator(argv[i]));
  return 0;
}
