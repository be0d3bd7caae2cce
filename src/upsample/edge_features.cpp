#include "upsample/edge_features.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace adacloth {

Eigen::VectorXd edgeLengthRatios(const Mesh& coarse, const Eigen::VectorXd& restLength, const Eigen::MatrixX3d& x) {
  Eigen::VectorXd f(coarse.edges.size());
  for (size_t e = 0; e < coarse.edges.size(); ++e) {
    const auto& n = coarse.edges[e].nodes;
    f[Eigen::Index(e)] = (x.row(n[0]) - x.row(n[1])).norm() / restLength[Eigen::Index(e)];
  }
  return f;
}

Eigen::VectorXd restEdgeLengths(const Mesh& coarse) {
  Eigen::VectorXd len(coarse.edges.size());
  for (size_t e = 0; e < coarse.edges.size(); ++e) {
    const auto& n = coarse.edges[e].nodes;
    len[Eigen::Index(e)] = (coarse.nodes[n[0]].x - coarse.nodes[n[1]].x).norm();
  }
  const double mean = len.size() ? len.mean() : 1.0;
  for (Eigen::Index e = 0; e < len.size(); ++e)
    if (!(len[e] > 0)) len[e] = mean > 0 ? mean : 1.0;
  return len;
}

std::vector<NodeEdgeMetric> nodeEdgeMetrics(const Mesh& coarse, double radius, int keep) {
  std::vector<NodeEdgeMetric> metrics(coarse.nodes.size());
  std::vector<double> w(coarse.edges.size());
  std::vector<int> order(coarse.edges.size());
  for (size_t i = 0; i < coarse.nodes.size(); ++i) {
    for (size_t e = 0; e < coarse.edges.size(); ++e) {
      const auto& n = coarse.edges[e].nodes;
      const Vec3 mid = 0.5 * (coarse.nodes[n[0]].x + coarse.nodes[n[1]].x);
      const double d = (mid - coarse.nodes[i].x).norm() / radius;
      w[e] = std::exp(-d * d);
    }
    std::iota(order.begin(), order.end(), 0);
    const size_t k = std::min(order.size(), size_t(std::max(keep, 1)));
    // Ties broken by edge index, so the metric is the same on every machine.
    std::partial_sort(order.begin(), order.begin() + long(k), order.end(),
                      [&](int a, int b) { return w[a] != w[b] ? w[a] > w[b] : a < b; });
    NodeEdgeMetric& m = metrics[i];
    double sum = 0;
    for (size_t j = 0; j < k; ++j) sum += w[order[j]];
    for (size_t j = 0; j < k; ++j) {
      m.edges.push_back(order[j]);
      m.weights.push_back(sum > 0 ? w[order[j]] / sum : 1.0 / double(k));
    }
  }
  return metrics;
}

double metricDistance(const NodeEdgeMetric& m, const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double s = 0;
  for (size_t j = 0; j < m.edges.size(); ++j) {
    const double d = a[m.edges[j]] - b[m.edges[j]];
    s += m.weights[j] * d * d;
  }
  return std::sqrt(s);
}

}  // namespace adacloth
