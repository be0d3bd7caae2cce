#include "dynamics/block_pcg.h"

#include <cmath>

#include "dynamics/chunked_sum.h"

namespace adacloth {
namespace {

// (A y)_i = W_i y_i - c sum_j J_ij y_j for a free node i; y is zero on held nodes.
Vec3 applyRow(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& y, int i) {
  return sys.W[i] * y[i] - sys.c * offDiagonalProduct(sys, state, y, i);
}

}  // namespace

Vec2 freeResidual(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& dv,
                  std::vector<Vec3>& r, std::vector<Vec3>& z, std::vector<Vec2>& partial) {
  const int n = int(sys.rhs.size());
  r.resize(n);
  z.resize(n);
  // r = b - A dv with the held nodes' dv in place, and |b|^2 (b: the right-hand side over the free nodes, held
  // neighbours' known dv moved into it, as relativeResidual() defines it).
  //
  // Sizes are measured in the norm of the per-node blocks, |y|_W = sqrt(sum_i y_i . W_i^-1 y_i): a residual there is
  // the velocity error it stands for, weighted by the node's mass. The plain norm lets the out-of-plane error of a
  // light node (whose block is little more than its mass) hide behind the heavy nodes: once it let a 1/192 s step
  // put a skirt node at 740 m/s with |r| / |b| below 1e-3.
  return chunkedSums(n, partial, [&](int i) {
    if (sys.fixed[i]) {
      r[i] = z[i] = Vec3::Zero();
      return Vec2(0, 0);
    }
    Vec3 b = sys.rhs[i], coupledFree = Vec3::Zero();
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      const int j = state.incidenceOther[k];
      const Vec3 term = k < state.incidenceDiagonal[i] ? Vec3(sys.pairJ[state.incidencePair[k]] * dv[j])
                                                       : Vec3(diagonalScale(sys, state, k) * dv[j]);
      if (sys.fixed[j]) b += sys.c * term;
      else coupledFree += term;
    }
    r[i] = b - (sys.W[i] * dv[i] - sys.c * coupledFree);
    z[i] = sys.Winv[i] * r[i];
    return Vec2(b.dot(sys.Winv[i] * b), r[i].dot(z[i]));
  });
}

std::vector<Vec3> solveBlockPcg(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& guess,
                                const PcgSettings& settings, PcgWorkspace& work, SolveReport* report,
                                const Preconditioner& precondition) {
  const int n = int(sys.rhs.size());
  std::vector<Vec3> dv(n);
  std::vector<Vec3>&r = work.r, &z = work.z, &p = work.p, &q = work.q;
  std::vector<Vec2>& partial = work.partial;
  r.resize(n);
  z.resize(n);
  p.resize(n);
  q.resize(n);
#pragma omp parallel for schedule(static) if (n > kChunk)
  for (int i = 0; i < n; ++i) dv[i] = sys.fixed[i] ? sys.fixedDv[i] : guess[i];
  const Vec2 initial = freeResidual(sys, state, dv, r, z, partial);
  const double b2 = initial[0];
  if (precondition) precondition(r, z);
  double r2 = initial[1];
  const double rz0 = precondition ? chunkedSums(n, partial, [&](int i) { return Vec2(r[i].dot(z[i]), 0); })[0] : r2;
#pragma omp parallel for schedule(static) if (n > kChunk)
  for (int i = 0; i < n; ++i) p[i] = z[i];
  double rz = rz0;
  const double limit2 = settings.tolerance * settings.tolerance * b2;
  int it = 0;
  while (r2 > limit2 && it < settings.maxIterations && rz > 0) {
    // q = A p and p.q in one pass.
    const double pq = chunkedSums(n, partial, [&](int i) {
      if (sys.fixed[i]) {
        q[i] = Vec3::Zero();
        return Vec2(0, 0);
      }
      q[i] = applyRow(sys, state, p, i);
      return Vec2(p[i].dot(q[i]), 0);
    })[0];
    if (!(pq > 0)) break;  // p is zero (solved exactly) or the matrix is not positive definite
    const double alpha = rz / pq;
    // The updates, the block preconditioner and both norms in one pass.
    Vec2 sums = chunkedSums(n, partial, [&](int i) {
      if (sys.fixed[i]) return Vec2(0, 0);
      dv[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      z[i] = sys.Winv[i] * r[i];
      const double rWr = r[i].dot(z[i]);
      return Vec2(rWr, rWr);
    });
    if (precondition) {
      precondition(r, z);
      sums[1] = chunkedSums(n, partial, [&](int i) { return Vec2(r[i].dot(z[i]), 0); })[0];
    }
    ++it;
    r2 = sums[0];
    const double beta = sums[1] / rz;
    rz = sums[1];
#pragma omp parallel for schedule(static) if (n > kChunk)
    for (int i = 0; i < n; ++i)
      if (!sys.fixed[i]) p[i] = z[i] + beta * p[i];
  }
  if (report) {
    report->iterations = it;
    report->residual = b2 > 0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
  }
  return dv;
}

}  // namespace adacloth
