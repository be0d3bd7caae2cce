#include "upsample/train_operator.h"

#include <Eigen/Eigenvalues>
#include <stdexcept>

namespace adacloth {
namespace {

// P_c P_c^T (M x M) and (Q^T A P_f) P_c^T (K x M), summed over every frame in order.
struct NormalEquations {
  Eigen::MatrixXd gram, cross;
};

NormalEquations normalEquations(const Eigenbasis& basis, const std::vector<TrainingSequence>& data,
                                const SparseMatrixD* prior) {
  NormalEquations ne;
  Eigen::Index M = -1;
  for (const TrainingSequence& seq : data)
    for (size_t f = 0; f < seq.coarse.size(); ++f) {
      const Eigen::MatrixX3d& pc = seq.coarse[f];
      if (M < 0) {
        M = pc.rows();
        ne.gram = Eigen::MatrixXd::Zero(M, M);
        ne.cross = Eigen::MatrixXd::Zero(basis.Q.cols(), M);
      }
      if (pc.rows() != M || seq.fine[f].rows() != basis.Q.rows())
        throw std::invalid_argument("trainOperator: frames of different sizes");
      ne.gram.noalias() += pc * pc.transpose();
      const Eigen::MatrixX3d residual = prior ? Eigen::MatrixX3d(seq.fine[f] - *prior * pc) : seq.fine[f];
      const Eigen::MatrixX3d target = basis.Q.transpose() * (basis.area.asDiagonal() * residual);
      ne.cross.noalias() += target * pc.transpose();
    }
  if (M < 0) throw std::invalid_argument("trainOperator: no training frames");
  return ne;
}

}  // namespace

Eigen::VectorXd harmonicProfile(const HarmonicRegularization& r, int count, int fineNodes) {
  const double b = std::pow(r.gammaN / r.gamma1, 1.0 / r.exponent) - 1.0;
  Eigen::VectorXd gamma(count);
  for (int n = 1; n <= count; ++n)
    gamma[n - 1] = r.gamma1 * std::pow(1.0 + b * (n - 1) / std::max(1, fineNodes - 1), r.exponent);
  return gamma;
}

Eigen::MatrixXd trainOperator(const Eigenbasis& basis, const std::vector<TrainingSequence>& data,
                              const HarmonicRegularization& regularization, const SparseMatrixD* prior) {
  const NormalEquations ne = normalEquations(basis, data, prior);
  const int K = int(basis.Q.cols());
  const Eigen::VectorXd gamma = harmonicProfile(regularization, K, int(basis.Q.rows()));
  // (gram + gamma^2 I)^-1 for every gamma through one eigendecomposition of the gram matrix.
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(ne.gram);
  const Eigen::MatrixXd& V = eig.eigenvectors();
  const Eigen::VectorXd& s = eig.eigenvalues();
  const Eigen::MatrixXd crossV = ne.cross * V;                              // K x M
  const Eigen::RowVectorXd onesV = Eigen::RowVectorXd::Ones(V.rows()) * V;  // 1^T V
  // Partition of unity: (Q^T A 1)_n, the weight of each harmonic in the constant function; with a prior whose rows
  // already sum to 1, the correction's rows sum to 0.
  const Eigen::VectorXd unity =
      prior ? Eigen::VectorXd::Zero(K).eval() : Eigen::VectorXd(basis.Q.transpose() * basis.area);
  Eigen::MatrixXd Uh(K, V.rows());
  for (int n = 0; n < K; ++n) {
    const Eigen::RowVectorXd inv = (s.array() + gamma[n] * gamma[n]).inverse().matrix().transpose();
    const Eigen::RowVectorXd x0 = crossV.row(n).cwiseProduct(inv) * V.transpose();
    const Eigen::RowVectorXd w = onesV.cwiseProduct(inv) * V.transpose();
    Uh.row(n) = x0 + (unity[n] - x0.sum()) / w.sum() * w;
  }
  Eigen::MatrixXd U = basis.Q * Uh;
  if (prior) U += Eigen::MatrixXd(*prior);
  return U;
}

namespace {

// One material point per node: that of its first vert (at a seam every vert of the node is the same point of the
// cloth, only in different panels).
std::vector<Vec2> nodeMaterialPoints(const Mesh& mesh) {
  std::vector<Vec2> points(mesh.nodes.size(), Vec2::Zero());
  std::vector<char> seen(mesh.nodes.size(), 0);
  for (const Vert& v : mesh.verts)
    if (!seen[v.node]) {
      points[v.node] = v.u;
      seen[v.node] = 1;
    }
  return points;
}

// Rounds U to float and puts each row's rounding error of the sum on its largest entry.
Eigen::MatrixXf roundKeepingUnity(const Eigen::MatrixXd& U) {
  Eigen::MatrixXf f = U.cast<float>();
  for (Eigen::Index i = 0; i < f.rows(); ++i) {
    Eigen::Index j;
    f.row(i).cwiseAbs().maxCoeff(&j);
    const double sum = f.row(i).cast<double>().sum();
    f(i, j) = float(double(f(i, j)) + (1.0 - sum));
  }
  return f;
}

}  // namespace

UpsampleOperator makeUpsampleOperator(const Mesh& coarse, const Mesh& fine, const Eigen::MatrixXd& U) {
  UpsampleOperator op;
  op.coarsePoints = nodeMaterialPoints(coarse);
  op.finePoints = nodeMaterialPoints(fine);
  for (const Vert& v : fine.verts) {
    op.fineUv.push_back(v.u);
    op.fineVertNode.push_back(v.node);
  }
  for (const Face& f : fine.faces) op.fineFaces.push_back(f.verts);
  op.U = roundKeepingUnity(U);
  return op;
}

}  // namespace adacloth
