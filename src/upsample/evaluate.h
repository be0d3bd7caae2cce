#pragma once
// Error of an upsampling against tracked fine simulations (issue 9 item 5, issue 19): per-vertex L2 distance (m)
// between the predicted and the simulated fine node positions, averaged over nodes and frames; and the wrinkle
// content of both, as mean absolute curvature (issue 19 (b)).
#include <functional>

#include "upsample/train_operator.h"
#include "view/camera.h"

namespace adacloth {

// Fine node positions (m, rows) predicted for frame `frame` of `seq` from its coarse frames (that one, and for
// predictors that use the motion, the ones before it).
using Upsampler = std::function<Eigen::MatrixX3d(const TrainingSequence& seq, size_t frame)>;

struct UpsamplingError {
  double mean = 0;  // m: mean over frames and fine nodes of |predicted - simulated|
  double max = 0;   // m: largest over frames and nodes
  size_t frames = 0;
};

UpsamplingError upsamplingError(const Upsampler& upsample, const std::vector<TrainingSequence>& data);

// The predictors compared in docs/upsampling.md (the wrinkle and MLP ones are next to their models).
Upsampler sparseUpsampler(const SparseMatrixD& map);  // barycentric (midpoint) or Loop subdivision
Upsampler operatorUpsampler(const UpsampleOperator& op);  // learned: float, with its oscillatory modes

// Mean absolute discrete mean curvature (1/m) of a triangle surface: sum over interior edges of |dihedral angle| x
// edge length / 2, over the area of the faces counted. `faces` by node; only faces with `counted[f]` (empty: all)
// count, and an edge counts when both its faces do.
double meanAbsoluteCurvature(const std::vector<Tri>& faces, const Eigen::MatrixX3d& x,
                             const std::vector<char>& counted = {});

// Faces seen by `camera`: its front side (counter-clockwise) facing the eye, not edge-on (cos > 0.05), and its
// centroid inside the frustum. No occlusion test: on a garment whose faces point outward, facing the eye is what
// hides the far side.
std::vector<char> facesInView(const std::vector<Tri>& faces, const Eigen::MatrixX3d& x, const Camera& camera);

}  // namespace adacloth
