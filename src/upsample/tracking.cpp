#include "upsample/tracking.h"

namespace adacloth {

TrackingConstraint makeTracking(const Eigenbasis& basis, int testFunctions, const SparseMatrixD& B) {
  if (testFunctions < 1 || testFunctions > basis.Q.cols())
    throw std::invalid_argument("makeTracking: test functions must be between 1 and the harmonics computed");
  return {basis.Q.leftCols(testFunctions), basis.area, B};
}

void projectOntoTracking(const TrackingConstraint& c, const Eigen::MatrixX3d& coarse, Eigen::MatrixX3d& fine) {
  const Eigen::MatrixX3d gap = c.B * coarse - fine;
  const Eigen::MatrixXd weights = c.T.transpose() * (c.area.asDiagonal() * gap);  // test functions x 3
  fine += c.T * weights;
}

double trackingViolation(const TrackingConstraint& c, const Eigen::MatrixX3d& coarse, const Eigen::MatrixX3d& fine) {
  const Eigen::MatrixX3d gap = c.B * coarse - fine;
  return (c.T.transpose() * (c.area.asDiagonal() * gap)).cwiseAbs().maxCoeff();
}

}  // namespace adacloth
