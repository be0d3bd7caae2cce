#pragma once
// Error of an upsampling against tracked fine simulations (issue 9 item 5): per-vertex L2 distance (m) between the
// predicted and the simulated fine node positions, averaged over nodes and frames.
#include <functional>

#include "upsample/train_operator.h"

namespace adacloth {

// Fine node positions (m, rows) predicted from coarse node positions (m, rows) at time t (s).
using Upsampler = std::function<Eigen::MatrixX3d(const Eigen::MatrixX3d& coarse, double t)>;

struct UpsamplingError {
  double mean = 0;  // m: mean over frames and fine nodes of |predicted - simulated|
  double max = 0;   // m: largest over frames and nodes
  size_t frames = 0;
};

UpsamplingError upsamplingError(const Upsampler& upsample, const std::vector<TrainingSequence>& data);

// The three predictors compared in docs/upsampling.md.
Upsampler sparseUpsampler(const SparseMatrixD& map);  // barycentric (midpoint) or Loop subdivision
Upsampler operatorUpsampler(const UpsampleOperator& op);  // learned: float, with its oscillatory modes

}  // namespace adacloth
