#include "upsample/evaluate.h"

namespace adacloth {

UpsamplingError upsamplingError(const Upsampler& upsample, const std::vector<TrainingSequence>& data) {
  UpsamplingError e;
  double sum = 0;
  size_t count = 0;
  for (const TrainingSequence& seq : data)
    for (size_t f = 0; f < seq.coarse.size(); ++f) {
      const Eigen::VectorXd d = (upsample(seq.coarse[f], seq.time[f]) - seq.fine[f]).rowwise().norm();
      sum += d.sum();
      count += size_t(d.size());
      e.max = std::max(e.max, d.maxCoeff());
      ++e.frames;
    }
  e.mean = count ? sum / double(count) : 0.0;
  return e;
}

Upsampler sparseUpsampler(const SparseMatrixD& map) {
  return [map](const Eigen::MatrixX3d& coarse, double) -> Eigen::MatrixX3d { return map * coarse; };
}

Upsampler operatorUpsampler(const UpsampleOperator& op) {
  return [&op](const Eigen::MatrixX3d& coarse, double t) -> Eigen::MatrixX3d {
    Eigen::MatrixX3f fine;
    op.apply(coarse.cast<float>(), t, fine);
    return fine.cast<double>();
  };
}

}  // namespace adacloth
