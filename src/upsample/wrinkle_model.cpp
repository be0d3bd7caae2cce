#include "upsample/wrinkle_model.h"

#include <Eigen/LU>
#include <cmath>
#include <cstdio>

#include "io/error.h"

namespace adacloth {
namespace {

// Per node, (Phi + damping * max|Phi| I)^-1 with Phi_ab = |f_a - f_b| in the node's metric. The inverse makes the
// weights interpolate: pose b's own features give weight 1 to b and 0 to the others (seed 002 eq. 2), up to the
// damping, which keeps the system solvable where poses coincide locally (a node whose edges never stretch).
std::vector<Eigen::MatrixXf> rbfInverses(const std::vector<NodeEdgeMetric>& metric,
                                         const std::vector<Eigen::VectorXd>& features, double damping) {
  const Eigen::Index P = Eigen::Index(features.size());
  std::vector<Eigen::MatrixXf> inverses(metric.size());
  if (P == 0) return inverses;
  for (size_t j = 0; j < metric.size(); ++j) {
    Eigen::MatrixXd phi(P, P);
    for (Eigen::Index a = 0; a < P; ++a)
      for (Eigen::Index b = 0; b < P; ++b) phi(a, b) = metricDistance(metric[j], features[a], features[b]);
    const double scale = std::max(phi.cwiseAbs().maxCoeff(), 1e-12);
    phi.diagonal().array() += damping * scale;
    inverses[j] = phi.fullPivLu().inverse().cast<float>();
  }
  return inverses;
}

double meanVertexError(const Eigen::MatrixX3d& a, const Eigen::MatrixX3d& b) {
  return (a - b).rowwise().norm().mean();
}

}  // namespace

void WrinkleModel::prepare() {
  restLength = restEdgeLengths(pair.coarse);
  double radius = params.metricRadius;
  if (!(radius > 0)) radius = 2.0 * (restLength.size() ? restLength.mean() : 1.0);
  metric = nodeEdgeMetrics(pair.coarse, radius, params.metricEdges);
  rbfInverse = rbfInverses(metric, poseFeatures, params.rbfDamping);
  poseMetricFeatures.assign(metric.size(), {});
  for (size_t j = 0; j < metric.size(); ++j) {
    const NodeEdgeMetric& m = metric[j];
    Eigen::MatrixXd& local = poseMetricFeatures[j];
    local.resize(Eigen::Index(m.edges.size()), Eigen::Index(poseCount()));
    for (size_t i = 0; i < poseCount(); ++i)
      for (size_t k = 0; k < m.edges.size(); ++k)
        local(Eigen::Index(k), Eigen::Index(i)) = poseFeatures[i][m.edges[k]];
  }
  frameTopology = surfaceFrameTopology(pair.sub.fine);
  const Eigen::Index N = Eigen::Index(pair.sub.fine.nodes.size());
  const Eigen::Index P = Eigen::Index(poseCount());
  displacementRows.resize(N, 3 * P);
  for (Eigen::Index i = 0; i < P; ++i)
    for (int k = 0; k < 3; ++k) displacementRows.col(k * P + i) = poseDisplacements[size_t(i)].col(k);
}

Eigen::MatrixXd WrinkleModel::coarseWeights(const Eigen::MatrixX3d& coarse) const {
  const Eigen::VectorXd f = edgeLengthRatios(pair.coarse, restLength, coarse);
  const Eigen::Index P = Eigen::Index(poseCount());
  Eigen::MatrixXd w(coarse.rows(), P);
  Eigen::VectorXf phi(P);
  Eigen::VectorXd local;
  for (Eigen::Index j = 0; j < coarse.rows(); ++j) {
    // The distances to every pose through this node's metric, from the poses' features at its edges (contiguous).
    const NodeEdgeMetric& m = metric[size_t(j)];
    const Eigen::Map<const Eigen::VectorXd> weight(m.weights.data(), Eigen::Index(m.weights.size()));
    local.resize(weight.size());  // the same size at every node: allocated once
    for (size_t k = 0; k < m.edges.size(); ++k) local[Eigen::Index(k)] = f[m.edges[k]];
    const Eigen::MatrixXd& poses = poseMetricFeatures[size_t(j)];
    Eigen::Index nearest = 0;
    for (Eigen::Index i = 0; i < P; ++i) {
      phi[i] = float(std::sqrt((poses.col(i) - local).array().square().matrix().dot(weight)));
      if (phi[i] < phi[nearest]) nearest = i;
    }
    // Normalized, nonnegative weights (seed 002 §4.2: "to avoid extrapolation problems"): far from every pose the
    // raw RBF weights grow without bound; clamped and normalized they stay a convex combination of examples.
    // Single precision: the P x P inverses of all nodes are read every frame, and float halves that traffic.
    Eigen::VectorXd wj = (rbfInverse[size_t(j)] * phi).cwiseMax(0.0f).cast<double>();
    const double sum = wj.sum();
    if (sum > 1e-12) {
      wj /= sum;
    } else {
      wj.setZero();
      wj[nearest] = 1.0;
    }
    w.row(j) = wj.transpose();
  }
  return w;
}

Eigen::MatrixX3d WrinkleModel::apply(const Eigen::MatrixX3d& coarse) const {
  using RowMajorF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajorF coarseW = coarseWeights(coarse).cast<float>();
  const Eigen::MatrixX3d loopSurface = pair.sub.loop * coarse;
  Eigen::MatrixX3d fine = params.base == WrinkleBase::Loop ? loopSurface : Eigen::MatrixX3d(pair.sub.midpoint * coarse);
  const std::vector<Eigen::Matrix3d> frames = surfaceFrames(frameTopology, loopSurface);
  const Eigen::Index P = Eigen::Index(poseCount());
  Eigen::VectorXf w(P);
  for (Eigen::Index n = 0; n < fine.rows(); ++n) {
    // The node's weights, interpolated from the coarse nodes of its coarse face (the midpoint map's row), then three
    // dot products with its displacements over the poses (x of every pose, then y, then z: contiguous, so both are
    // vectorized). Fused so that no N x P weight matrix goes through memory.
    w.setZero();
    for (SparseMatrixD::InnerIterator it(pair.sub.midpoint, n); it; ++it)
      w += float(it.value()) * coarseW.row(it.col()).transpose();
    const Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, 3>> d(displacementRows.row(n).data(), P, 3);
    const Eigen::Vector3f local = d.transpose() * w;
    fine.row(n) += (frames[size_t(n)] * local.cast<double>()).transpose();
  }
  return fine;
}

Eigen::MatrixX3f wrinkleDisplacement(const WrinkleModel& model, const Eigen::MatrixX3d& coarse,
                                     const Eigen::MatrixX3d& fine) {
  const Eigen::MatrixX3d loopSurface = model.pair.sub.loop * coarse;
  const Eigen::MatrixX3d smooth =
      model.params.base == WrinkleBase::Loop ? loopSurface : Eigen::MatrixX3d(model.pair.sub.midpoint * coarse);
  const std::vector<Eigen::Matrix3d> frames = surfaceFrames(model.frameTopology, loopSurface);
  Eigen::MatrixX3f d(fine.rows(), 3);
  for (Eigen::Index n = 0; n < fine.rows(); ++n)
    d.row(n) = (frames[size_t(n)].transpose() * (fine.row(n) - smooth.row(n)).transpose()).transpose().cast<float>();
  return d;
}

namespace {

void addPose(WrinkleModel& model, const Eigen::MatrixX3d& coarse, const Eigen::MatrixX3d& fine) {
  model.poseFeatures.push_back(edgeLengthRatios(model.pair.coarse, model.restLength, coarse));
  model.poseDisplacements.push_back(wrinkleDisplacement(model, coarse, fine));
  model.prepare();
}

// Mean per-vertex error over every frame of `data`; `worst` gets the (sequence, frame) of the largest error among
// frames not in `taken`.
double sequenceError(const WrinkleModel& model, const std::vector<TrainingSequence>& data,
                     const std::vector<std::array<int, 2>>& taken, std::array<int, 2>* worst) {
  double sum = 0, worstError = -1;
  size_t count = 0;
  for (size_t s = 0; s < data.size(); ++s)
    for (size_t k = 0; k < data[s].coarse.size(); ++k) {
      const double e = meanVertexError(model.apply(data[s].coarse[k]), data[s].fine[k]);
      sum += e, ++count;
      const std::array<int, 2> id{int(s), int(k)};
      if (worst && e > worstError && std::find(taken.begin(), taken.end(), id) == taken.end())
        worstError = e, *worst = id;
    }
  return count ? sum / double(count) : 0.0;
}

}  // namespace

WrinkleTraining trainWrinkles(MeshPair pair, const WrinkleParams& params, const std::vector<TrainingSequence>& train,
                              const std::vector<TrainingSequence>& validation) {
  if (params.poses < 1) throw InputError("wrinkle training: at least one pose (the rest pose) is needed");
  if (train.empty() || train.front().coarse.empty()) throw InputError("wrinkle training: no training frames");
  WrinkleTraining out;
  WrinkleModel& model = out.model;
  model.pair = std::move(pair);
  model.params = params;
  model.prepare();
  addPose(model, nodePositions(model.pair.coarse), nodePositions(model.pair.sub.fine));
  std::vector<WrinkleModel> history;  // the model after each pose, to keep the best by validation
  for (;;) {
    std::array<int, 2> worst{-1, -1};
    out.trainingError.push_back(sequenceError(model, train, out.chosen, &worst));
    if (!validation.empty()) out.validationError.push_back(sequenceError(model, validation, {}, nullptr));
    std::fprintf(stderr, "wrinkles: %zu poses, training error %.3f mm%s\n", model.poseCount(),
                 1e3 * out.trainingError.back(),
                 validation.empty() ? "" : (", validation " + std::to_string(1e3 * out.validationError.back()) + " mm").c_str());
    if (!validation.empty()) history.push_back(model);
    if (int(model.poseCount()) >= params.poses || worst[0] < 0) break;
    out.chosen.push_back(worst);
    addPose(model, train[size_t(worst[0])].coarse[size_t(worst[1])], train[size_t(worst[0])].fine[size_t(worst[1])]);
  }
  if (!validation.empty()) {
    const size_t best = size_t(std::min_element(out.validationError.begin(), out.validationError.end()) -
                               out.validationError.begin());
    model = std::move(history[best]);
    out.chosen.resize(best);
  }
  return out;
}

}  // namespace adacloth
