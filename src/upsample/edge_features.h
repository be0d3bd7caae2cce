#pragma once
// The low-resolution deformation descriptor of example-based wrinkles (seed 002 §4.1, after Bickel et al. 2008): the
// ratio of current to rest length of every coarse edge, and the per-node metric that makes the distance between two
// such feature vectors local to a node (seed 002 eq. 3).
#include <Eigen/Core>

#include "mesh/mesh.h"

namespace adacloth {

// Per coarse edge: current length / rest length, for node positions `x` (m, rows). `restLength` (m, > 0) per edge.
Eigen::VectorXd edgeLengthRatios(const Mesh& coarse, const Eigen::VectorXd& restLength, const Eigen::MatrixX3d& x);

// Rest lengths (m) of the coarse edges at the mesh's node positions; an edge of zero length gets the mean length.
Eigen::VectorXd restEdgeLengths(const Mesh& coarse);

// A node's diagonal metric over edges, sparse: the edges it weighs and their weights (sum 1).
struct NodeEdgeMetric {
  std::vector<int> edges;
  std::vector<double> weights;
};

// Per node of `coarse` (at its rest positions): weight exp(-(d / radius)^2) of each edge, d (m) the distance from
// the node to the edge's midpoint; the `keep` largest are kept (seed 002 keeps 16) and normalized to sum 1. `radius`
// (m) > 0; the weight is largest on the node's own edges and falls off smoothly with distance.
std::vector<NodeEdgeMetric> nodeEdgeMetrics(const Mesh& coarse, double radius, int keep);

// The metric distance sqrt(sum_e w_e (a_e - b_e)^2) between two feature vectors at one node.
double metricDistance(const NodeEdgeMetric& m, const Eigen::VectorXd& a, const Eigen::VectorXd& b);

}  // namespace adacloth
