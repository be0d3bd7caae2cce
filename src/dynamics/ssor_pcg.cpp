#include "dynamics/ssor_pcg.h"

#include <algorithm>
#include <cmath>

#include "dynamics/chunked_sum.h"
#include "dynamics/serial_openmp.h"

namespace adacloth {
namespace {

// The free nodes in rows of material space: strips of the mean edge rest length across v, each strip in order of
// u. Gauss-Seidel carries a correction along the sweep order, so the order must follow the cloth the way a grid's
// rows do (measured on a 64^2 sheet from a zero guess: row order 166 iterations, breadth-first 413, block Jacobi
// 442). Node numbers do not, after a remesh has appended the nodes it made. Ties keep node order (deterministic).
void sweepOrder(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec2>& material,
                std::vector<int>& order, std::vector<int>& rank) {
  const int n = int(sys.rhs.size());
  double length = 0;
  int edges = 0;
  for (const SpringPair& pair : state.pairs)
    if (pair.isEdge) length += pair.restLength, ++edges;
  const double strip = edges > 0 && length > 0 ? length / edges : 1.0;
  order.clear();
  std::vector<std::pair<double, double>> key(n);
  for (int i = 0; i < n; ++i) {
    if (sys.fixed[i]) continue;
    order.push_back(i);
    key[i] = {std::floor(material[i].y() / strip), material[i].x()};
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  rank.assign(n, -1);
  for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = int(k);
}

// The couplings of every free node to other free nodes, split into those before and after it in the sweep order.
// Couplings to held nodes are not part of the system (their dv is known; it is in b).
void splitCouplings(const ImplicitSystem& sys, const DynamicsState& state, const Mesh& mesh, PcgWorkspace& work) {
  sweepOrder(sys, state, nodeMaterialCoordinates(mesh), work.order, work.rank);
  const int free = int(work.order.size());
  for (TriangleCouplings* half : {&work.lower, &work.upper}) {
    half->edgeStart.assign(free + 1, 0);
    half->diagonalStart.assign(free + 1, 0);
    for (std::vector<int>* list : {&half->edgePair, &half->edgeOther, &half->diagonalPair, &half->diagonalOther})
      list->clear();
  }
  for (int position = 0; position < free; ++position) {
    const int i = work.order[position];
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      const int j = state.incidenceOther[k], pair = state.incidencePair[k];
      if (sys.fixed[j]) continue;
      TriangleCouplings& half = work.rank[j] < position ? work.lower : work.upper;
      const bool edge = state.pairs[pair].isEdge;
      (edge ? half.edgePair : half.diagonalPair).push_back(pair);
      (edge ? half.edgeOther : half.diagonalOther).push_back(j);
    }
    for (TriangleCouplings* half : {&work.lower, &work.upper}) {
      half->edgeStart[position + 1] = int(half->edgePair.size());
      half->diagonalStart[position + 1] = int(half->diagonalPair.size());
    }
  }
}

// Whether the order and split in `work` were made for these held nodes and pairs; if not, records them as the key.
bool sameCouplings(const ImplicitSystem& sys, const DynamicsState& state, PcgWorkspace& work) {
  bool same = work.orderFixed == sys.fixed && work.orderPairNodes.size() == 2 * state.pairs.size();
  for (size_t p = 0; same && p < state.pairs.size(); ++p)
    same = work.orderPairNodes[2 * p] == state.pairs[p].a && work.orderPairNodes[2 * p + 1] == state.pairs[p].b;
  if (same) return true;
  work.orderFixed = sys.fixed;
  work.orderPairNodes.clear();
  for (const SpringPair& pair : state.pairs) {
    work.orderPairNodes.push_back(pair.a);
    work.orderPairNodes.push_back(pair.b);
  }
  return false;
}

// The step's c J of every coupling, in the order of the split.
void gatherBlocks(const ImplicitSystem& sys, TriangleCouplings& half) {
  half.edgeBlock.resize(half.edgePair.size());
  for (size_t k = 0; k < half.edgePair.size(); ++k) {
    const Mat3 J = sys.c * sys.pairJ[half.edgePair[k]];
    half.edgeBlock[k] = {J(0, 0), J(1, 1), J(2, 2), J(0, 1), J(0, 2), J(1, 2)};
  }
  half.diagonalScale.resize(half.diagonalPair.size());
  for (size_t k = 0; k < half.diagonalPair.size(); ++k)
    half.diagonalScale[k] = sys.c * sys.pairJ[half.diagonalPair[k]](0, 0);
}

// b x for a gathered symmetric block b.
inline Vec3 blockProduct(const std::array<double, 6>& b, const Vec3& x) {
  return Vec3(b[0] * x.x() + b[3] * x.y() + b[4] * x.z(), b[3] * x.x() + b[1] * x.y() + b[5] * x.z(),
              b[4] * x.x() + b[5] * x.y() + b[2] * x.z());
}

// sum_j c J_ij x_j over the couplings of the node at `position` in `half`, added to `sum` in incidence order; hinge
// diagonals as one number each (why, and why the bits stay the same: diagonalScale in implicit_system.h). The sweeps
// are bound by this arithmetic.
inline void addCouplings(const TriangleCouplings& half, const std::vector<Vec3>& x, int position, Vec3& sum) {
  for (int k = half.edgeStart[position]; k < half.edgeStart[position + 1]; ++k)
    sum += blockProduct(half.edgeBlock[k], x[half.edgeOther[k]]);
  for (int k = half.diagonalStart[position]; k < half.diagonalStart[position + 1]; ++k)
    sum += half.diagonalScale[k] * x[half.diagonalOther[k]];
}

// One node of a half-sweep: x_i = omega W_i^-1 (source + c sum_j J_ij x_j) over the node's couplings in `half`.
inline Vec3 sweepNode(const ImplicitSystem& sys, const TriangleCouplings& half, double omega,
                      const std::vector<Vec3>& x, int position, int i, const Vec3& source) {
  Vec3 sum = source;
  addCouplings(half, x, position, sum);
  return omega * (sys.Winv[i] * sum);
}

// x = P^-1 u, P = D/omega + L: first free node of the sweep order to last. source(i) gives u_i (it may read x_i
// before it is overwritten, so x may hold u on entry); after(i) runs once x_i is known. Held nodes are not touched.
template <class Source, class After>
void forwardSweep(const ImplicitSystem& sys, const PcgWorkspace& work, double omega, std::vector<Vec3>& x,
                  const Source& source, const After& after) {
  for (int position = 0; position < int(work.order.size()); ++position) {
    const int i = work.order[position];
    x[i] = sweepNode(sys, work.lower, omega, x, position, i, source(i));
    after(i);
  }
}

// x = P^-T v: last free node of the sweep order to first.
template <class Source>
void backwardSweep(const ImplicitSystem& sys, const PcgWorkspace& work, double omega, std::vector<Vec3>& x,
                   const Source& source) {
  for (int position = int(work.order.size()) - 1; position >= 0; --position) {
    const int i = work.order[position];
    x[i] = sweepNode(sys, work.upper, omega, x, position, i, source(i));
  }
}

// |r|_W^2 of the untransformed residual r = P r^ (P = D/omega + L, L the couplings -c J to earlier nodes): what the
// stopping rule measures, without leaving the transformed system.
double untransformedResidual2(const ImplicitSystem& sys, const PcgWorkspace& work, double omega,
                              const std::vector<Vec3>& rHat, std::vector<Vec2>& partial) {
  const TriangleCouplings& lower = work.lower;
  return chunkedSums(int(work.order.size()), partial, [&](int position) {
    const int i = work.order[position];
    Vec3 r = sys.W[i] * rHat[i] / omega;
    for (int k = lower.edgeStart[position]; k < lower.edgeStart[position + 1]; ++k)
      r -= blockProduct(lower.edgeBlock[k], rHat[lower.edgeOther[k]]);
    for (int k = lower.diagonalStart[position]; k < lower.diagonalStart[position + 1]; ++k)
      r -= lower.diagonalScale[k] * rHat[lower.diagonalOther[k]];
    return Vec2(r.dot(sys.Winv[i] * r), 0);
  })[0];
}

}  // namespace

double ssorOmegaFor(int freeNodes) {
  if (freeNodes <= 0) return 1.5;
  return std::clamp(2 / (1 + 5.67 * std::pow(double(freeNodes), -0.357)), 1.5, 1.85);
}

std::vector<Vec3> solveSsorPcg(const ImplicitSystem& sys, const DynamicsState& state, const Mesh& mesh,
                               const std::vector<Vec3>& guess, const PcgSettings& settings, PcgWorkspace& work,
                               SolveReport* report) {
  // The whole solve on the calling thread: its sweeps are sequential, and loops between them that split the nodes
  // between cores only moved the vectors from core to core every iteration (at 2 threads 0.8-0.9x of one thread's
  // time on 10k nodes, 1.0x with this). Same bits: chunkedSums sums in the same order at any thread count.
  const SerialOpenMP serial;
  const int n = int(sys.rhs.size());
  std::vector<Vec3>&r = work.r, &z = work.z, &p = work.p, &s = work.q, &t = work.t, &y = work.y;
  std::vector<Vec2>& partial = work.partial;
  // Held nodes' entries stay zero: the sweeps skip them, and nothing reads them as free values.
  p.assign(n, Vec3::Zero());
  s.assign(n, Vec3::Zero());
  t.assign(n, Vec3::Zero());
  y.assign(n, Vec3::Zero());
  if (!sameCouplings(sys, state, work)) splitCouplings(sys, state, mesh, work);
  // The sweep order holds every free node once.
  const double omega = settings.ssorOmega > 0 ? settings.ssorOmega : ssorOmegaFor(int(work.order.size()));
  const double kappa = (2 - omega) / omega;  // K = kappa D
  gatherBlocks(sys, work.lower);
  gatherBlocks(sys, work.upper);
  std::vector<Vec3> dv(n);
#pragma omp parallel for schedule(static) if (n > kChunk)
  for (int i = 0; i < n; ++i) dv[i] = sys.fixed[i] ? sys.fixedDv[i] : guess[i];
  Vec2 norms = freeResidual(sys, state, dv, r, z, partial);
  const double b2 = norms[0], limit2 = settings.tolerance * settings.tolerance * b2;
  double r2 = norms[1];
  int it = 0;
  bool breakdown = false;
  // CG runs on the transformed system until the preconditioned residual has fallen by the factor the true one still
  // has to fall (with a margin); then the true residual is measured from the transformed one, and CG goes on with a
  // new target if it is not yet small enough. Once it is, dv is formed and its residual computed afresh: only if
  // rounding has moved that above the tolerance does a new pass start from there.
  while (r2 > limit2 && it < settings.maxIterations && !breakdown) {
    forwardSweep(sys, work, omega, r, [&](int i) { return r[i]; }, [](int) {});  // r^ = P^-1 r, in place
    double rz = chunkedSums(n, partial, [&](int i) {
      y[i] = Vec3::Zero();
      z[i] = sys.fixed[i] ? Vec3::Zero() : Vec3(kappa * (sys.W[i] * r[i]));
      return Vec2(r[i].dot(z[i]), 0);
    })[0];
    double passLimit2 = 0.5 * rz * limit2 / r2;
    double beta = 0;
    while (it < settings.maxIterations) {
      if (rz <= passLimit2) {
        const double true2 = untransformedResidual2(sys, work, omega, r, partial);
        if (true2 <= limit2) break;
        passLimit2 = 0.5 * rz * limit2 / true2;
      }
      // q = P^-1 A P^-T p = t + P^-1 (p - K t), t = P^-T p (Eisenstat), with p = z + beta p updated on the way.
      backwardSweep(sys, work, omega, t, [&](int i) {
        p[i] = beta == 0 ? z[i] : Vec3(z[i] + beta * p[i]);
        return p[i];
      });
      double pq = 0;
      forwardSweep(
          sys, work, omega, s, [&](int i) { return Vec3(p[i] - kappa * (sys.W[i] * t[i])); },
          [&](int i) { pq += p[i].dot(t[i] + s[i]); });
      if (!(pq > 0)) {  // p is zero (solved exactly) or the matrix is not positive definite
        breakdown = true;
        break;
      }
      const double alpha = rz / pq;
      const double rzNext = chunkedSums(n, partial, [&](int i) {
        if (sys.fixed[i]) return Vec2(0, 0);
        y[i] += alpha * p[i];
        r[i] -= alpha * (t[i] + s[i]);
        z[i] = kappa * (sys.W[i] * r[i]);
        return Vec2(r[i].dot(z[i]), 0);
      })[0];
      beta = rzNext / rz;
      rz = rzNext;
      ++it;
    }
    backwardSweep(sys, work, omega, t, [&](int i) { return y[i]; });  // dv += P^-T y
#pragma omp parallel for schedule(static) if (n > kChunk)
    for (int i = 0; i < n; ++i)
      if (!sys.fixed[i]) dv[i] += t[i];
    norms = freeResidual(sys, state, dv, r, z, partial);
    r2 = norms[1];
  }
  if (report) {
    report->iterations = it;
    report->residual = b2 > 0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
  }
  return dv;
}

}  // namespace adacloth

namespace adacloth {

std::vector<Vec2> nodeMaterialCoordinates(const Mesh& mesh) {
  std::vector<Vec2> material(mesh.nodes.size(), Vec2::Zero());
  for (size_t i = 0; i < mesh.nodes.size(); ++i)
    if (!mesh.nodes[i].verts.empty()) material[i] = mesh.verts[mesh.nodes[i].verts[0]].u;
  return material;
}

}  // namespace adacloth
