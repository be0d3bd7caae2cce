#include "upsample/apply_kernel.h"

#include <immintrin.h>

#include <algorithm>

namespace adacloth {
namespace {

// fine = U coarse over rows [begin, end) with plain loops: the tail of the AVX2 kernel, and the whole product on
// CPUs without AVX2. Sums over coarse nodes in index order (deterministic).
void multiplyRowsScalar(const float* U, long N, long M, const float* c, float* f, long begin, long end) {
  for (long i = begin; i < end; ++i) {
    float x = 0, y = 0, z = 0;
    for (long j = 0; j < M; ++j) {
      const float u = U[j * N + i];
      x += u * c[j];
      y += u * c[M + j];
      z += u * c[2 * M + j];
    }
    f[i] = x;
    f[N + i] = y;
    f[2 * N + i] = z;
  }
}

// 32 rows at a time: 4 ymm registers of rows x 3 coordinates = 12 independent FMA chains (enough to hide the FMA
// latency). Columns of U (column-major) are taken 32 at a time, sweeping all rows for each group and keeping the
// partial sums in `fine`: reading all ~150 columns at once would be ~150 interleaved memory streams, more than the
// hardware prefetcher follows (measured ~25 % slower once U no longer fits in L2). Summation order over coarse nodes
// is ascending for every row, whatever the grouping. Compiled for AVX2+FMA in this function only (no Eigen code
// here, so no ODR clash with the rest of the build), called only when the CPU has them.
__attribute__((target("avx2,fma"))) void multiplyAvx2(const float* U, long N, long M, const float* c, float* f) {
  constexpr long kColumns = 32;
  const long blocked = N / 32 * 32;
  for (long j0 = 0; j0 < M; j0 += kColumns) {
    const long j1 = std::min(M, j0 + kColumns);
    for (long i = 0; i < blocked; i += 32) {
      __m256 acc[3][4];
      for (int d = 0; d < 3; ++d)
        for (int k = 0; k < 4; ++k)
          acc[d][k] = j0 == 0 ? _mm256_setzero_ps() : _mm256_loadu_ps(f + d * N + i + 8 * k);
      for (long j = j0; j < j1; ++j) {
        const float* col = U + j * N + i;
        const __m256 cx = _mm256_broadcast_ss(c + j), cy = _mm256_broadcast_ss(c + M + j),
                     cz = _mm256_broadcast_ss(c + 2 * M + j);
        for (int k = 0; k < 4; ++k) {
          const __m256 u = _mm256_loadu_ps(col + 8 * k);
          acc[0][k] = _mm256_fmadd_ps(u, cx, acc[0][k]);
          acc[1][k] = _mm256_fmadd_ps(u, cy, acc[1][k]);
          acc[2][k] = _mm256_fmadd_ps(u, cz, acc[2][k]);
        }
      }
      for (int d = 0; d < 3; ++d)
        for (int k = 0; k < 4; ++k) _mm256_storeu_ps(f + d * N + i + 8 * k, acc[d][k]);
    }
  }
  // The rest of the program is SSE code. GCC does not insert vzeroupper for a target("avx2") function in an SSE
  // build, and with the upper halves of the ymm registers left dirty every later SSE instruction pays a merge
  // penalty: measured 3.5x slower wrinkle synthesis after one call of this kernel (bench_upsample's first line).
  // Clearing them here costs one instruction per call; tests/tools/check_vzeroupper.py guards it.
  _mm256_zeroupper();
  multiplyRowsScalar(U, N, M, c, f, blocked, N);
}

bool cpuHasAvx2Fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

}  // namespace

bool operatorKernelIsAvx2() { return cpuHasAvx2Fma(); }

void multiplyOperator(const Eigen::MatrixXf& U, const Eigen::MatrixX3f& coarse, Eigen::MatrixX3f& fine) {
  fine.resize(U.rows(), 3);
  if (cpuHasAvx2Fma())
    multiplyAvx2(U.data(), U.rows(), U.cols(), coarse.data(), fine.data());
  else
    multiplyRowsScalar(U.data(), U.rows(), U.cols(), coarse.data(), fine.data(), 0, U.rows());
}

void multiplyOperatorEigen(const Eigen::MatrixXf& U, const Eigen::MatrixX3f& coarse, Eigen::MatrixX3f& fine) {
  fine.noalias() = U * coarse;
}

}  // namespace adacloth
