#include "dynamics/strain_limit_repair.h"

#include <algorithm>
#include <stdexcept>

#include <LBFGS.h>

namespace adacloth {
namespace {

// The larger principal stretch of a face (0 for a face crushed flat, which its edges limit instead) and its gradient
// with respect to the face's three corners: d sigma = u^T dF v with F = [x1 - x0, x2 - x0] Dm^-1, so corner 1 gets
// u (Dm^-1 v)_0, corner 2 u (Dm^-1 v)_1 and corner 0 minus their sum.
double largerStretch(const Vec3* x, const FaceLimit& f, Vec3 grad[3]) {
  const FaceDeformation d = faceDeformation(x, f);
  if (!(d.sigma.minCoeff() > 1e-6)) return 0.0;
  const int top = d.sigma[1] >= d.sigma[0] ? 1 : 0;
  const Vec2 v = d.eig.eigenvectors().col(top);
  const Vec3 u = d.F * v / d.sigma[top];
  const Vec2 a = f.materialInverse * v;
  grad[1] = a[0] * u;
  grad[2] = a[1] * u;
  grad[0] = -(grad[1] + grad[2]);
  return d.sigma[top];
}

// Nodes of the faces and edges past `startAt` times their upper limit, grown by `rings` rings of faces.
std::vector<char> repairRegion(const Vec3* x, const StrainLimits& limits, int n, const UpperLimitRepair& repair) {
  std::vector<char> in(size_t(n), 0);
  Vec3 unused[3];
  for (const FaceLimit& f : limits.faces)
    if (largerStretch(x, f, unused) > repair.startAt * limits.max)
      for (int k = 0; k < 3; ++k) in[size_t(f.nodes[k])] = 1;
  for (const LengthLimit& e : limits.edges)
    if ((x[e.b] - x[e.a]).norm() > repair.startAt * e.maxLength) in[size_t(e.a)] = in[size_t(e.b)] = 1;
  for (int ring = 0; ring < repair.rings; ++ring) {
    std::vector<char> grown = in;
    for (const FaceLimit& f : limits.faces)
      if (in[size_t(f.nodes[0])] || in[size_t(f.nodes[1])] || in[size_t(f.nodes[2])])
        for (int k = 0; k < 3; ++k) grown[size_t(f.nodes[k])] = 1;
    in.swap(grown);
  }
  return in;
}

// The region's free nodes as unknowns, the limits that touch them, and the augmented Lagrangian of the problem
// min 1/2 sum_i (m_i / m) |x_i - x0_i|^2  s.t.  sigma_max(face) <= max, |edge| / rest <= max.
class RegionProblem {
 public:
  RegionProblem(Vec3* x, const double* invMass, const StrainLimits& limits, const std::vector<char>& region,
                double penalty)
      : x_(x), limits_(limits), penalty_(penalty), var_(region.size(), -1) {
    for (size_t i = 0; i < region.size(); ++i)
      if (region[i] && invMass[i] > 0) var_[i] = int(nodes_.size()), nodes_.push_back(int(i));
    for (size_t i = 0; i < limits.faces.size(); ++i)
      if (touches(limits.faces[i].nodes, 3)) faces_.push_back(int(i));
    for (size_t i = 0; i < limits.edges.size(); ++i) {
      const int ends[2] = {limits.edges[i].a, limits.edges[i].b};
      if (touches(ends, 2)) edges_.push_back(int(i));
    }
    double meanInverse = 0;
    for (int i : nodes_) meanInverse += invMass[i], start_.push_back(x[i]);
    meanInverse /= std::max<size_t>(1, nodes_.size());
    for (int i : nodes_) weight_.push_back(meanInverse / invMass[i]);
    faceMultiplier_.assign(faces_.size(), 0.0);
    edgeMultiplier_.assign(edges_.size(), 0.0);
  }

  size_t unknowns() const { return 3 * nodes_.size(); }
  Eigen::VectorXd positions() const {
    Eigen::VectorXd v = Eigen::VectorXd::Zero(long(unknowns()));
    for (size_t k = 0; k < nodes_.size(); ++k) v.segment<3>(3 * long(k)) = x_[nodes_[k]];
    return v;
  }
  void place(const Eigen::VectorXd& v) const {
    for (size_t k = 0; k < nodes_.size(); ++k) x_[nodes_[k]] = v.segment<3>(3 * long(k));
  }

  // The augmented Lagrangian at v and its gradient (LBFGS++'s objective).
  double operator()(const Eigen::VectorXd& v, Eigen::VectorXd& grad) const {
    place(v);
    grad.setZero(v.size());
    double value = 0;
    for (size_t k = 0; k < nodes_.size(); ++k) {
      const Vec3 d = x_[nodes_[k]] - start_[k];
      value += 0.5 * weight_[k] * d.squaredNorm();
      grad.segment<3>(3 * long(k)) += weight_[k] * d;
    }
    for (size_t q = 0; q < faces_.size(); ++q) {
      const FaceLimit& f = limits_.faces[size_t(faces_[q])];
      Vec3 g[3];
      const double sigma = largerStretch(x_, f, g);
      if (sigma > 0) value += term(sigma - limits_.max, faceMultiplier_[q], f.nodes, g, 3, grad);
    }
    for (size_t q = 0; q < edges_.size(); ++q) {
      const LengthLimit& e = limits_.edges[size_t(edges_[q])];
      const Vec3 d = x_[e.b] - x_[e.a];
      const double length = d.norm(), rest = e.maxLength / limits_.max;
      if (length < 1e-12) continue;
      const Vec3 g[2] = {-d / (length * rest), d / (length * rest)};
      const int ends[2] = {e.a, e.b};
      value += term(length / rest - limits_.max, edgeMultiplier_[q], ends, g, 2, grad);
    }
    return value;
  }

  // lambda <- max(0, lambda + mu c) for every limit, at the current positions.
  void updateMultipliers() {
    Vec3 unused[3];
    for (size_t q = 0; q < faces_.size(); ++q) {
      const double sigma = largerStretch(x_, limits_.faces[size_t(faces_[q])], unused);
      if (sigma > 0) faceMultiplier_[q] = std::max(0.0, faceMultiplier_[q] + kMu * (sigma - limits_.max));
    }
    for (size_t q = 0; q < edges_.size(); ++q) {
      const LengthLimit& e = limits_.edges[size_t(edges_[q])];
      const double ratio = (x_[e.b] - x_[e.a]).norm() / (e.maxLength / limits_.max);
      edgeMultiplier_[q] = std::max(0.0, edgeMultiplier_[q] + kMu * (ratio - limits_.max));
    }
  }

 private:
  // Multiplier scale: the penalty is penalty / kMu per unit of (c + lambda / kMu)^2, so kMu only sets how fast the
  // multipliers grow against the penalty.
  static constexpr double kMu = 1e3;

  bool touches(const int* ends, int count) const {
    for (int k = 0; k < count; ++k)
      if (var_[size_t(ends[k])] >= 0) return true;
    return false;
  }
  // The penalty of one inequality c <= 0 with multiplier lambda: (penalty / 2) t^2 with t = c + lambda / mu where t > 0.
  double term(double c, double lambda, const int* ends, const Vec3* g, int count, Eigen::VectorXd& grad) const {
    const double t = c + lambda / kMu;
    if (t <= 0) return 0.0;
    for (int k = 0; k < count; ++k)
      if (const int j = var_[size_t(ends[k])]; j >= 0) grad.segment<3>(3 * long(j)) += penalty_ * t * g[k];
    return 0.5 * penalty_ * t * t;
  }

  Vec3* x_;
  const StrainLimits& limits_;
  double penalty_;
  std::vector<int> var_, nodes_, faces_, edges_;
  std::vector<Vec3> start_;
  std::vector<double> weight_, faceMultiplier_, edgeMultiplier_;
};

}  // namespace

int repairUpperLimits(Vec3* x, const double* invMass, const StrainLimits& limits, int nodeCount,
                      const UpperLimitRepair& repair) {
  const std::vector<char> region = repairRegion(x, limits, nodeCount, repair);
  if (std::find(region.begin(), region.end(), 1) == region.end()) return 0;
  RegionProblem problem(x, invMass, limits, region, repair.penalty);
  if (problem.unknowns() == 0) return 0;
  LBFGSpp::LBFGSParam<double> param;
  param.epsilon = 1e-8;
  param.max_iterations = repair.iterations;
  LBFGSpp::LBFGSSolver<double> solver(param);
  const Eigen::VectorXd start = problem.positions();
  Eigen::VectorXd v = start;
  for (int round = 0; round < repair.rounds; ++round) {
    double value = 0;
    try {
      solver.minimize(problem, v, value);
    } catch (const std::exception&) {
      // The line search gave up: v holds the last point it accepted, as good a start for the next round as any.
    }
    if (!v.allFinite()) {  // a diverged line search: leave the region as the passes left it
      problem.place(start);
      return 0;
    }
    problem.place(v);
    problem.updateMultipliers();
  }
  problem.place(v);
  return int(problem.unknowns() / 3);
}

}  // namespace adacloth
