#include "upsample/oscillatory_modes.h"

#include <cmath>

namespace adacloth {
namespace {

Eigen::MatrixX3f toFloat(const Eigen::MatrixX3d& m) { return m.cast<float>(); }

// Autocorrelation of the rows of D at each lag 0..maxLag, averaged over the frames that overlap.
Eigen::VectorXd autocorrelation(const Eigen::MatrixXd& D, int maxLag) {
  Eigen::VectorXd r(maxLag + 1);
  const Eigen::Index F = D.cols();
  for (int lag = 0; lag <= maxLag; ++lag)
    r[lag] = (D.leftCols(F - lag).cwiseProduct(D.rightCols(F - lag))).sum() / double(F - lag);
  return r;
}

// Sine and cosine amplitudes per node (N x 2) for angular frequency omega at `times`, by least squares (the 2x2
// normal equations are the same for every node).
Eigen::MatrixXd fitAmplitudes(const Eigen::MatrixXd& D, const std::vector<double>& times, double omega) {
  Eigen::MatrixXd basis(2, times.size());
  for (size_t j = 0; j < times.size(); ++j) basis.col(j) << std::sin(omega * times[j]), std::cos(omega * times[j]);
  const Eigen::Matrix2d normal = basis * basis.transpose();
  return (D * basis.transpose()) * normal.inverse();
}

// Squared residual left after fitting amplitudes at omega.
double leftover(const Eigen::MatrixXd& D, const std::vector<double>& times, double omega) {
  const Eigen::MatrixXd E = fitAmplitudes(D, times, omega);
  double sum = 0;
  for (size_t j = 0; j < times.size(); ++j)
    sum += (D.col(j) - E.col(0) * std::sin(omega * times[j]) - E.col(1) * std::cos(omega * times[j])).squaredNorm();
  return sum;
}

// The autocorrelation peak is only as sharp as whole frames; the frequency that leaves the least residual within
// +-10% of it (two passes of a grid search, fixed order) makes the wave keep its phase over long sequences.
double refineFrequency(const Eigen::MatrixXd& D, const std::vector<double>& times, double omega) {
  double span = 0.1 * omega;
  for (int pass = 0; pass < 2; ++pass) {
    double best = omega, bestValue = leftover(D, times, omega);
    for (int k = -20; k <= 20; ++k) {
      const double candidate = omega + span * k / 20.0;
      const double value = leftover(D, times, candidate);
      if (value < bestValue) {
        best = candidate;
        bestValue = value;
      }
    }
    omega = best;
    span /= 10.0;
  }
  return omega;
}

}  // namespace

Eigen::MatrixXd normalResidual(const UpsampleOperator& op, const TrainingSequence& seq) {
  UpsampleOperator plain = op;
  plain.modes.clear();
  Eigen::MatrixXd D(op.fineCount(), seq.coarse.size());
  for (size_t f = 0; f < seq.coarse.size(); ++f) {
    Eigen::MatrixX3f up;
    plain.apply(toFloat(seq.coarse[f]), seq.time[f], up);
    // Unit normals of the upsampled surface, area-weighted over the faces of each node (as apply() uses them).
    Eigen::MatrixX3d normals = Eigen::MatrixX3d::Zero(up.rows(), 3);
    const Eigen::MatrixX3d x = up.cast<double>();
    for (const auto& face : op.fineFaces) {
      const int a = op.fineVertNode[face[0]], b = op.fineVertNode[face[1]], c = op.fineVertNode[face[2]];
      const Eigen::RowVector3d n = (x.row(b) - x.row(a)).cross(x.row(c) - x.row(a));
      normals.row(a) += n;
      normals.row(b) += n;
      normals.row(c) += n;
    }
    normals.rowwise().normalize();
    D.col(f) = (seq.fine[f] - x).cwiseProduct(normals).rowwise().sum();
  }
  return D;
}

double dominantPeriod(const Eigen::MatrixXd& D) {
  const int maxLag = int(D.cols()) / 2;
  if (maxLag < 3) return 0;
  const Eigen::VectorXd r = autocorrelation(D, maxLag);
  int lag = 1;
  while (lag < maxLag && r[lag] > 0) ++lag;  // past the first zero crossing
  int best = -1;
  for (int k = lag + 1; k < maxLag; ++k)
    if (r[k] > 0 && r[k] >= r[k - 1] && r[k] >= r[k + 1] && (best < 0 || r[k] > r[best])) best = k;
  if (best < 0) return 0;
  const double denom = r[best - 1] - 2 * r[best] + r[best + 1];
  const double shift = denom < 0 ? 0.5 * (r[best - 1] - r[best + 1]) / denom : 0.0;
  return best + shift;
}

std::vector<OscillatoryMode> fitOscillatoryModes(const UpsampleOperator& op, const std::vector<TrainingSequence>& data,
                                                 int count) {
  std::vector<Eigen::MatrixXd> residual;
  for (const TrainingSequence& seq : data) residual.push_back(normalResidual(op, seq));
  std::vector<OscillatoryMode> modes;
  for (int m = 0; m < count; ++m) {
    // Period from the first sequence long enough to have one; frames are equally spaced, so lag -> seconds.
    double omega = 0;
    for (size_t s = 0; s < data.size() && omega == 0; ++s) {
      const double period = dominantPeriod(residual[s]);
      if (period > 0 && data[s].time.size() > 1)
        omega = 2 * M_PI / (period * (data[s].time[1] - data[s].time[0]));
    }
    if (omega == 0) break;
    // One set of amplitudes fitted to every sequence at once: stack frames and times.
    Eigen::Index frames = 0;
    for (const auto& d : residual) frames += d.cols();
    Eigen::MatrixXd all(op.fineCount(), frames);
    std::vector<double> times;
    for (size_t s = 0; s < data.size(); ++s) {
      all.middleCols(times.size(), residual[s].cols()) = residual[s];
      times.insert(times.end(), data[s].time.begin(), data[s].time.end());
    }
    omega = refineFrequency(all, times, omega);
    const Eigen::MatrixXd E = fitAmplitudes(all, times, omega);
    OscillatoryMode mode{omega, E.col(0).cast<float>(), E.col(1).cast<float>()};
    for (size_t s = 0; s < data.size(); ++s)
      for (size_t j = 0; j < data[s].time.size(); ++j) {
        const double t = data[s].time[j];
        residual[s].col(j) -= E.col(0) * std::sin(omega * t) + E.col(1) * std::cos(omega * t);
      }
    modes.push_back(std::move(mode));
  }
  return modes;
}

}  // namespace adacloth
