#include "dynamics/implicit_system.h"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>

namespace adacloth {
namespace {

// J of one pair and the internal force it puts on node a (the force on b is the opposite).
//
// Kang and Cho's block k n n^T (eq. 9) drops the transverse term k (1 - L0/L)(I - n n^T) of the exact derivative,
// because under compression (L < L0) it is negative and makes W indefinite. Under tension it is positive and
// bounded by k, and dropping it leaves the sideways pull of a taut spring fully explicit: a stretched sheet then
// flutters out of plane and blows up once h^2 k strain / m exceeds about 1 (fine meshes, stiff cloth). So we keep
// it for stretched springs only; every block stays symmetric positive semidefinite, as in the paper.
void pairJacobianAndForce(const Mesh& mesh, const SpringPair& p, Mat3& J, Vec3& forceOnA) {
  Vec3 d = mesh.nodes[p.b].x - mesh.nodes[p.a].x;
  double len = d.norm();
  J = p.bendK * Mat3::Identity();
  forceOnA = p.bendK * d;
  if (p.stretchK > 0 && len > 1e-12) {
    Vec3 n = d / len;
    Mat3 nn = n * n.transpose();
    J += p.stretchK * nn;
    J += p.stretchK * std::min(1.0, std::abs(1 - p.restLength / len)) * (Mat3::Identity() - nn);
    forceOnA += p.stretchK * (len - p.restLength) * n;
  }
}

// One face's terms: the triangle membrane's (every face, when the cloth has one) plus the strain limit's (where it
// applies).
FaceTerm faceTerm(const ImplicitSystem& sys, const Mesh& mesh, const DynamicsState& state, int f,
                            char& stiffened) {
  FaceTerm term = state.triangleMembrane ? membraneTerm(mesh, f, state.membrane) : FaceTerm();
  stiffened = 0;
  if (state.faceStiffening.active() && hasFaceStiffening(mesh, f, sys.fixed, sys.touching)) {
    const FaceTerm limit = faceStiffeningTerm(mesh, f, state.faceStiffening);
    stiffened = limit.energy > 0;
    for (int k = 0; k < 3; ++k) {
      term.force[k] += limit.force[k];
      term.edgeJ[k] += limit.edgeJ[k];
    }
    term.energy += limit.energy;
  }
  return term;
}

// The face terms: computed per face, then gathered onto the pairs of the faces' edges (a stretch pair's index is its
// edge's) in a fixed order, so the sums do not depend on the thread count.
void addFaceBlocks(ImplicitSystem& sys, const Mesh& mesh, const DynamicsState& state) {
  const int nf = int(mesh.faces.size()), ne = int(mesh.edges.size());
  sys.faceTerms.resize(nf);
  sys.faceStiffened.resize(nf);
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f) sys.faceTerms[f] = faceTerm(sys, mesh, state, f, sys.faceStiffened[f]);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < ne; ++e)
    for (int f : mesh.edges[e].faces) {
      if (f < 0) continue;
      const Face& face = mesh.faces[f];
      for (int k = 0; k < 3; ++k)
        if (face.edges[k] == e) sys.pairJ[e] += sys.faceTerms[f].edgeJ[k];
    }
}

// The face terms' force on node i, over its verts' faces in order.
Vec3 faceTermForce(const ImplicitSystem& sys, const Mesh& mesh, int i) {
  Vec3 force = Vec3::Zero();
  for (int v : mesh.nodes[i].verts)
    for (int f : mesh.verts[v].faces) {
      const Face& face = mesh.faces[f];
      for (int k = 0; k < 3; ++k)
        if (face.verts[k] == v) force += sys.faceTerms[f].force[k];
    }
  return force;
}

}  // namespace

ImplicitSystem assembleSystem(const Mesh& mesh, const DynamicsState& state, const MaterialParams& material,
                              const std::vector<Vec3>& external, std::vector<char> fixed, std::vector<Vec3> fixedDv,
                              double h) {
  ImplicitSystem sys;
  sys.fixed = std::move(fixed);
  sys.fixedDv = std::move(fixedDv);
  assembleSystemInto(sys, mesh, state, material, external, h);
  return sys;
}

void assembleSystemInto(ImplicitSystem& sys, const Mesh& mesh, const DynamicsState& state,
                        const MaterialParams& material, const std::vector<Vec3>& external, double h) {
  sys.h = h;
  sys.c = h * (h + material.damping);
  const int np = int(state.pairs.size()), n = int(mesh.nodes.size());
  sys.pairJ.resize(np);
  sys.pairForce.resize(np);
  std::vector<Vec3>& pairForce = sys.pairForce;
#pragma omp parallel for schedule(static)
  for (int p = 0; p < np; ++p) pairJacobianAndForce(mesh, state.pairs[p], sys.pairJ[p], pairForce[p]);
  const bool faceTerms = state.faceStiffening.active() || state.triangleMembrane;
  if (faceTerms) addFaceBlocks(sys, mesh, state);
  sys.W.resize(n);
  sys.Winv.resize(n);
  sys.rhs.resize(n);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    Mat3 sumJ = Mat3::Zero();
    Vec3 force = external[i], viscous = Vec3::Zero();
    const Vec3& vi = mesh.nodes[i].v;
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      int p = state.incidencePair[k], j = state.incidenceOther[k];
      sumJ += sys.pairJ[p];
      force += state.pairs[p].a == i ? pairForce[p] : Vec3(-pairForce[p]);
      viscous += sys.pairJ[p] * (mesh.nodes[j].v - vi);
    }
    if (faceTerms) force += faceTermForce(sys, mesh, i);
    sys.W[i] = mesh.nodes[i].mass * Mat3::Identity() + sys.c * sumJ;
    sys.Winv[i] = sys.W[i].inverse();
    sys.rhs[i] = h * (force + (h + material.damping) * viscous);
  }
}

std::vector<Vec3> solveKangCho(const ImplicitSystem& sys, const DynamicsState& state, int iterations) {
  const int n = int(sys.rhs.size());
  // Reused between steps. Bound to plain references: inside the parallel loops a thread_local name would denote each
  // worker's own (empty) copy.
  thread_local std::vector<Vec3> pStore, nextStore;
  std::vector<Vec3>& p = pStore;
  std::vector<Vec3>& next = nextStore;
  p.resize(n);
  next.resize(n);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) p[i] = sys.fixed[i] ? sys.fixedDv[i] : Vec3(sys.Winv[i] * sys.rhs[i]);
  std::vector<Vec3> dv = p;
  for (int it = 0; it < iterations; ++it) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i)
      next[i] = sys.fixed[i] ? sys.fixedDv[i] : Vec3(p[i] + sys.c * (sys.Winv[i] * offDiagonalProduct(sys, state, dv, i)));
    std::swap(dv, next);
  }
  return dv;
}

std::vector<Vec3> solveConjugateGradient(const ImplicitSystem& sys, const DynamicsState& state, double tolerance,
                                         int* iterationsUsed, double* relativeResidualOut) {
  const int n = int(sys.rhs.size());
  std::vector<int> slot(n, -1);
  int free = 0;
  for (int i = 0; i < n; ++i)
    if (!sys.fixed[i]) slot[i] = free++;
  using SpMat = Eigen::SparseMatrix<double, Eigen::RowMajor>;
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::VectorXd b(3 * free);
  for (int i = 0; i < n; ++i) {
    if (slot[i] < 0) continue;
    Vec3 rhs = sys.rhs[i];
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) triplets.emplace_back(3 * slot[i] + r, 3 * slot[i] + q, sys.W[i](r, q));
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      int j = state.incidenceOther[k];
      const Mat3& J = sys.pairJ[state.incidencePair[k]];
      if (slot[j] < 0) {
        rhs += sys.c * J * sys.fixedDv[j];  // known dv of a held node moves to the right-hand side
        continue;
      }
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q) triplets.emplace_back(3 * slot[i] + r, 3 * slot[j] + q, -sys.c * J(r, q));
    }
    b.segment<3>(3 * slot[i]) = rhs;
  }
  SpMat A(3 * free, 3 * free);
  A.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::ConjugateGradient<SpMat, Eigen::Lower | Eigen::Upper> cg;
  cg.setTolerance(tolerance);
  cg.setMaxIterations(std::max(1000, 3 * free));
  cg.compute(A);
  Eigen::VectorXd x = cg.solve(b);
  if (iterationsUsed) *iterationsUsed = int(cg.iterations());
  if (relativeResidualOut) *relativeResidualOut = cg.error();
  std::vector<Vec3> dv(n);
  for (int i = 0; i < n; ++i) dv[i] = slot[i] < 0 ? sys.fixedDv[i] : Vec3(x.segment<3>(3 * slot[i]));
  return dv;
}

double relativeResidual(const ImplicitSystem& sys, const DynamicsState& state, const std::vector<Vec3>& dv) {
  // Fixed neighbours contribute c J dv_j on the right-hand side, exactly as in the CG assembly.
  double r2 = 0, b2 = 0;
  for (size_t i = 0; i < sys.rhs.size(); ++i) {
    if (sys.fixed[i]) continue;
    Vec3 b = sys.rhs[i], Ax = sys.W[i] * dv[i];
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      int j = state.incidenceOther[k];
      // Eigen evaluates c (J dv) as (c J) dv; the diagonal's product does the same, for the same bits.
      Vec3 term = k < state.incidenceDiagonal[i] ? Vec3(sys.c * (sys.pairJ[state.incidencePair[k]] * dv[j]))
                                                 : Vec3((sys.c * diagonalScale(sys, state, k)) * dv[j]);
      if (sys.fixed[j]) b += term;
      else Ax -= term;
    }
    const Vec3 r = b - Ax;
    r2 += r.dot(sys.Winv[i] * r);
    b2 += b.dot(sys.Winv[i] * b);
  }
  return b2 > 0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
}

}  // namespace adacloth
