#pragma once
// Example-based wrinkles on non-skinned cloth (seed 002, Zurdo, Brito, Otaduy 2012; docs/upsampling.md):
//   fine = S p_c + R(S p_c) * sum_i w_i d_i
// with S the base map (Loop subdivision as in seed 002, or midpoint), R the per-node surface frames of the Loop
// surface (surface_frames.h; smooth, so the frames turn with the cloth without the kinks of the coarse faces), d_i the wrinkle displacements of example pose i in those frames, and w_i per-node pose
// weights: weighted pose-space deformation (WPSD) with the RBF phi(r) = r over the coarse edge-length ratios, each
// coarse node measuring feature distance through its own local edge metric, its weights interpolated to the fine
// nodes barycentrically (the midpoint map). Poses are chosen greedily from tracked training frames (largest error
// first).
#include <Eigen/Core>

#include "upsample/edge_features.h"
#include "upsample/mesh_pair.h"
#include "upsample/surface_frames.h"
#include "upsample/train_operator.h"

namespace adacloth {

enum class WrinkleBase { Loop, Midpoint };

struct WrinkleParams {
  int poses = 6;               // example poses, the rest pose included (seed 002 uses six)
  double metricRadius = 0;     // m: fall-off of the edge metric; 0 = twice the mean coarse rest edge length
  int metricEdges = 16;        // edges kept per coarse node's metric (seed 002: 16)
  double rbfDamping = 1e-3;    // added to the RBF matrix's diagonal, relative to its largest entry
  WrinkleBase base = WrinkleBase::Midpoint;  // where displacements start (frames are always the Loop surface's)
};

struct WrinkleModel {
  MeshPair pair;
  WrinkleParams params;
  // The example poses: coarse feature vectors (edge length ratios) and fine displacements from the smooth surface in
  // its local frames (m).
  std::vector<Eigen::VectorXd> poseFeatures;
  std::vector<Eigen::MatrixX3f> poseDisplacements;

  // Derived by `prepare()`: rest edge lengths (m), per-node metrics, per-node inverse RBF matrices, frame topology.
  Eigen::VectorXd restLength;
  std::vector<NodeEdgeMetric> metric;
  std::vector<Eigen::MatrixXf> rbfInverse;
  std::vector<Eigen::MatrixXd> poseMetricFeatures;  // per coarse node: its metric edges x poses, the poses' features
  SurfaceFrameTopology frameTopology;
  // The displacements again, per fine node all poses in a row (x of every pose, then y, then z), for apply().
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> displacementRows;

  size_t poseCount() const { return poseFeatures.size(); }
  const SparseMatrixD& smoothMap() const { return params.base == WrinkleBase::Loop ? pair.sub.loop : pair.sub.midpoint; }
  // Rebuilds the derived members from pair, params and the poses.
  void prepare();
  // Normalized pose weights per coarse node (rows; nonnegative, summing to 1) for coarse positions (m, rows).
  Eigen::MatrixXd coarseWeights(const Eigen::MatrixX3d& coarse) const;
  // Fine node positions (m, rows) for coarse node positions (m, rows).
  Eigen::MatrixX3d apply(const Eigen::MatrixX3d& coarse) const;
};

// The wrinkle displacement of a fine frame: (fine - smooth) in the smooth surface's frames (m, rows).
Eigen::MatrixX3f wrinkleDisplacement(const WrinkleModel& model, const Eigen::MatrixX3d& coarse,
                                     const Eigen::MatrixX3d& fine);

struct WrinkleTraining {
  WrinkleModel model;
  std::vector<std::array<int, 2>> chosen;  // (sequence, frame) of each pose after the rest pose, in order chosen
  std::vector<double> trainingError;       // m: mean per-vertex error on the training frames with 1, 2, ... poses
  std::vector<double> validationError;     // m: same on the validation frames (empty without validation)
};

// Greedy pose selection (seed 002 §5.1): start from the rest pose (the pair's rest meshes), then repeatedly add the
// training frame whose synthesis has the largest mean per-vertex error, up to `params.poses`. With validation data
// the pose count with the lowest validation error is kept.
WrinkleTraining trainWrinkles(MeshPair pair, const WrinkleParams& params, const std::vector<TrainingSequence>& train,
                              const std::vector<TrainingSequence>& validation);

}  // namespace adacloth
