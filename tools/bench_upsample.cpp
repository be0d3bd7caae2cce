// Benchmark of the learned upsampling's run time (issue 9 item 3): p_f = U p_c in single precision on one thread,
// goal <= 0.2 ms per frame for M = 150 coarse and N = 6000 fine nodes. Prints, per size, ms per frame of
// Eigen's product, of multiplyOperator (the AVX2/FMA kernel when the CPU has it) and of UpsampleOperator::apply
// with one oscillatory mode; and the largest difference between the kernel and Eigen.
// With an operator file argument it also times that operator (e.g. docs/upsampling.md's trained flag operator).
// Then the patch-wise MLP upsampler (upsample/patch_mlp.h, goal <= 5 ms per frame for ~150 -> ~6000 nodes): random
// 119-64-64-64-135 networks over a 14 x 9-cell grid and over meshes/skirt_coarse.obj, 3 levels; ms per frame of
// PatchMlp::apply (with its reused workspace) and of its parts. A PATCH_MLP.bin argument (ADCPMLP1 magic) is timed
// too.
// Then wrinkles by example (upsample/wrinkle_model.h, goal <= 2 ms): random models of 6, 60, 100 and 120 poses over
// the same grid. Model files given as arguments are timed in the section of their kind (upsample/model_kind.h).
// First of all, a guard: the same SSE code (a random 60-pose wrinkle model) timed before and after one call of the
// AVX2 kernel. A ratio well above 1 means the kernel left the ymm upper halves dirty (a missing vzeroupper), which
// slows every later SSE instruction in the process, the simulator's included.
// Usage: OMP_NUM_THREADS=1 bench_upsample [OP.bin | PATCH_MLP.bin | WRINKLES.bin]...
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>

#include "app/memory_policy.h"
#include "io/atomic_file.h"
#include "io/obj.h"
#include "mesh/generators.h"
#include "upsample/apply_kernel.h"
#include "upsample/model_kind.h"
#include "upsample/patch_mlp.h"
#include "upsample/wrinkle_file.h"
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

// A patch MLP over `pair` with random weights (the timing does not depend on their values).
PatchMlp randomPatchMlp(MeshPair pair) {
  PatchMlp mlp = makePatchMlp(std::move(pair), {64, 64, 64});
  for (PatchMlpLayer& l : mlp.layers) {
    l.W = Eigen::MatrixXf::Random(l.W.rows(), l.W.cols()) / std::sqrt(float(l.W.cols()));
    l.b = Eigen::VectorXf::Random(l.b.size());
  }
  mlp.inputStd.setConstant(0.1f);
  mlp.outputStd.setConstant(1e-3f);
  return mlp;
}

void patchMlpRow(const char* name, const PatchMlp& mlp) {
  const int M = int(mlp.coarseCount());
  Eigen::MatrixX3d frames[3];
  for (int k = 0; k < 3; ++k) frames[k] = nodePositions(mlp.pair.coarse) + 0.01 * Eigen::MatrixX3d::Random(M, 3);
  PatchMlpWorkspace work;
  Eigen::MatrixX3d fine;
  const int reps = 200;
  const double totalMs = msPerCall([&] { mlp.apply(frames[0], frames[1], frames[2], work, fine); }, reps);
  // The parts: features, the network (standardization and GEMMs), assembly (B p_c and the mean displacements).
  Eigen::MatrixXf in, out;
  std::vector<PatchFrame> patchFrames;
  const double featureMs = msPerCall([&] { patchInputs(mlp.stencil, frames[0], frames[1], frames[2], in,
                                                       patchFrames); }, reps);
  const double networkMs = msPerCall([&] { out = mlp.destandardize(mlp.infer(mlp.standardize(in))); }, reps);
  const double assemblyMs = msPerCall([&] {
    fine = patchOutputsToFine(mlp.stencil, patchFrames, out, mlp.pair.sub.midpoint * frames[0]);
  }, reps);
  size_t parameters = 0;
  for (const PatchMlpLayer& l : mlp.layers) parameters += size_t(l.W.size() + l.b.size());
  std::printf("%-22s %6d %7zu %6d %9zu %10.3f %10.3f %10.3f %10.3f\n", name, M, mlp.fineCount(),
              mlp.stencil.faceCount(), parameters, totalMs, featureMs, networkMs, assemblyMs);
}

// A wrinkle model over `pair` with `poses` random poses (features near 1, displacements of a few mm): the timing
// depends on the counts only.
WrinkleModel randomWrinkleModel(MeshPair pair, int poses) {
  WrinkleModel m;
  m.pair = std::move(pair);
  const Eigen::Index E = Eigen::Index(m.pair.coarse.edges.size()), N = Eigen::Index(m.pair.sub.fine.nodes.size());
  for (int i = 0; i < poses; ++i) {
    m.poseFeatures.push_back(Eigen::VectorXd::Ones(E) + 0.05 * Eigen::VectorXd::Random(E));
    m.poseDisplacements.push_back(0.003f * Eigen::MatrixX3f::Random(N, 3));
  }
  m.prepare();
  return m;
}

void wrinkleRow(const char* name, const WrinkleModel& m) {
  const Eigen::MatrixX3d coarse = nodePositions(m.pair.coarse) + 0.01 * Eigen::MatrixX3d::Random(m.pair.coarse.nodes.size(), 3);
  const double ms = msPerCall([&] { m.apply(coarse); }, 50);
  const double weightsMs = msPerCall([&] { m.coarseWeights(coarse); }, 50);
  std::printf("%-26s %6zu %7zu %6zu %10.3f %12.3f\n", name, m.pair.coarse.nodes.size(), m.pair.sub.fine.nodes.size(),
              m.poseCount(), ms, weightsMs);
}

// The ratio of an SSE workload's time after one call of multiplyOperator to its time before (1 when the kernel
// leaves the vector state clean). Must run before anything else in the process calls the kernel.
void sseAfterKernelRow() {
  const WrinkleModel sse = randomWrinkleModel(makeMeshPair(makeGrid(1.4, 0.9, 14, 9), 3), 60);
  const Eigen::MatrixX3d coarse = nodePositions(sse.pair.coarse);
  msPerCall([&] { sse.apply(coarse); }, 50);  // warm-up (first touch of the model's memory)
  const double before = msPerCall([&] { sse.apply(coarse); }, 50);
  // A kernel call of 512 multiply-adds before each apply: its own cost is negligible next to the apply's.
  const Eigen::MatrixXf U = Eigen::MatrixXf::Ones(64, 8);
  const Eigen::MatrixX3f c = Eigen::MatrixX3f::Ones(8, 3);
  Eigen::MatrixX3f fine;
  const double after = msPerCall([&] { multiplyOperator(U, c, fine); sse.apply(coarse); }, 50);
  std::printf("SSE code after the operator kernel: %.3f ms before, %.3f ms after "
              "(%.2fx; 1 = vector state left clean)\n\n",
              before, after, after / before);
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  Eigen::setNbThreads(1);
  std::printf("kernel: %s\n", operatorKernelIsAvx2() ? "AVX2+FMA" : "portable loops");
  sseAfterKernelRow();
  std::printf("%-22s %6s %7s %9s %10s %10s %12s %12s\n", "operator", "M", "N", "MB", "eigen ms", "kernel ms",
              "+1 mode ms", "max |diff|");
  for (auto [M, N] : {std::pair{100, 5000}, {150, 6000}, {200, 10000}, {300, 10000}}) {
    char name[32];
    std::snprintf(name, sizeof name, "random %dx%d", M, N);
    row(name, randomOperator(M, N));
  }
  for (int i = 1; i < argc; ++i)
    if (modelFileMethod(argv[i]) == UpsampleMethod::Linear) row(argv[i], loadUpsampleOperator(argv[i]));
  std::printf("\npatch MLP (119-64-64-64-3P, one GEMM per layer over all faces, float, 1 thread)\n");
  std::printf("%-22s %6s %7s %6s %9s %10s %10s %10s %10s\n", "model", "M", "N", "faces", "params", "ms/frame",
              "features", "network", "assembly");
  std::srand(1);
  patchMlpRow("random grid 14x9, L3", randomPatchMlp(makeMeshPair(makeGrid(1.4, 0.9, 14, 9), 3)));
  const std::string skirt = std::string(ADACLOTH_SOURCE_DIR) + "/meshes/skirt_coarse.obj";
  patchMlpRow("random skirt, L3", randomPatchMlp(makeMeshPair(readObj(skirt), 3)));
  for (int i = 1; i < argc; ++i)
    if (modelFileMethod(argv[i]) == UpsampleMethod::Mlp) patchMlpRow(argv[i], loadPatchMlp(argv[i]));
  std::printf("\nwrinkles by example (WrinkleModel::apply: weights, Loop and base surfaces, frames, blend; 1 thread)\n");
  std::printf("%-26s %6s %7s %6s %10s %12s\n", "model", "M", "N", "poses", "ms/frame", "weights ms");
  for (int poses : {6, 60, 100, 120}) {
    char name[48];
    std::snprintf(name, sizeof name, "random grid 14x9, L3, %d", poses);
    wrinkleRow(name, randomWrinkleModel(makeMeshPair(makeGrid(1.4, 0.9, 14, 9), 3), poses));
  }
  for (int i = 1; i < argc; ++i)
    if (modelFileMethod(argv[i]) == UpsampleMethod::Wrinkles) wrinkleRow(argv[i], loadWrinkleModel(argv[i]));
  return 0;
}
