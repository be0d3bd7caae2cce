#include "upsample/eigenbasis.h"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCholesky>
#include <Spectra/SymEigsShiftSolver.h>
#include <stdexcept>

namespace adacloth {
namespace {

// Meshes up to this many nodes (or when most of the spectrum is asked for) take a dense eigensolver.
constexpr int kDenseNodes = 400;

// y = (S - sigma I)^-1 x for Spectra, through a sparse Cholesky (LDL^T) factorization: S - sigma I is positive
// definite for sigma < 0 because S is positive semi-definite.
class ShiftedCholeskySolve {
 public:
  using Scalar = double;
  explicit ShiftedCholeskySolve(const Eigen::SparseMatrix<double>& s) : s_(s) {}
  Eigen::Index rows() const { return s_.rows(); }
  Eigen::Index cols() const { return s_.cols(); }
  void set_shift(double sigma) {
    Eigen::SparseMatrix<double> identity(s_.rows(), s_.cols());
    identity.setIdentity();
    solver_.compute(s_ - sigma * identity);
    if (solver_.info() != Eigen::Success) throw std::runtime_error("lowestHarmonics: factorization failed");
  }
  void perform_op(const double* in, double* out) const {
    Eigen::Map<Eigen::VectorXd>(out, s_.rows()) = solver_.solve(Eigen::Map<const Eigen::VectorXd>(in, s_.rows()));
  }

 private:
  Eigen::SparseMatrix<double> s_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver_;
};

// The constant harmonic is known exactly; replacing the solver's approximation by it makes the partition of unity
// of a trained operator exact, and the other columns are made A-orthogonal to it again.
void pinConstantHarmonic(Eigenbasis& b) {
  const double total = b.area.sum();
  b.Q.col(0).setConstant(1.0 / std::sqrt(total));
  b.lambda[0] = 0.0;
  for (Eigen::Index k = 1; k < b.Q.cols(); ++k) {
    const double along = b.Q.col(0).dot(b.area.cwiseProduct(b.Q.col(k)));
    b.Q.col(k) -= along * b.Q.col(0);
    b.Q.col(k) /= std::sqrt(b.Q.col(k).dot(b.area.cwiseProduct(b.Q.col(k))));
  }
}

}  // namespace

Eigenbasis lowestHarmonics(const Mesh& mesh, int K) {
  const int n = int(mesh.nodes.size());
  if (K < 1 || K > n) throw std::invalid_argument("lowestHarmonics: need 1 <= K <= node count");
  Eigenbasis b;
  b.area = lumpedArea(mesh);
  const Eigen::VectorXd scale = b.area.cwiseSqrt().cwiseInverse();
  const Eigen::SparseMatrix<double> S = scale.asDiagonal() * cotangentStiffness(mesh) * scale.asDiagonal();
  if (n <= kDenseNodes || K > n / 2) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> dense{Eigen::MatrixXd(S)};
    b.lambda = dense.eigenvalues().head(K);
    b.Q = scale.asDiagonal() * dense.eigenvectors().leftCols(K);
    pinConstantHarmonic(b);
    return b;
  }
  ShiftedCholeskySolve op(S);
  const int ncv = std::min(n, std::max(2 * K + 1, K + 20));
  // Shift below zero, small against the first non-zero eigenvalue of any cloth-sized panel (~10 / m^2).
  const double shift = -1e-2;
  Spectra::SymEigsShiftSolver<ShiftedCholeskySolve> solver(op, K, ncv, shift);
  solver.init();
  solver.compute(Spectra::SortRule::LargestMagn, 1000, 1e-10, Spectra::SortRule::SmallestAlge);
  if (solver.info() != Spectra::CompInfo::Successful)
    throw std::runtime_error("lowestHarmonics: the eigen solver did not converge");
  b.lambda = solver.eigenvalues();
  b.Q = scale.asDiagonal() * solver.eigenvectors();
  pinConstantHarmonic(b);
  return b;
}

}  // namespace adacloth
