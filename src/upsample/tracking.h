#pragma once
// Tracking constraints (seed 000 §4): the fine simulation is held to the coarse one through its lowest T harmonics,
// T^T A p_f = T^T A B p_c, with T the A-orthonormal harmonics (A the lumped node area) and B the rest-pose
// barycentric (midpoint subdivision) map. Only those low frequencies are constrained; the rest follow physics.
#include "upsample/eigenbasis.h"

namespace adacloth {

struct TrackingConstraint {
  Eigen::MatrixXd T;     // fine nodes x test functions, A-orthonormal (1/m)
  Eigen::VectorXd area;  // lumped fine node area (m^2)
  SparseMatrixD B;       // fine nodes x coarse nodes
};

// The first `testFunctions` columns of `basis` (which must have at least that many) with the map B.
TrackingConstraint makeTracking(const Eigenbasis& basis, int testFunctions, const SparseMatrixD& B);

// Orthogonal projection (in the A inner product) onto the constraint: fine += T T^T A (B coarse - fine). Works for
// positions and velocities alike (rows are nodes).
void projectOntoTracking(const TrackingConstraint& c, const Eigen::MatrixX3d& coarse, Eigen::MatrixX3d& fine);

// Largest violation max |T^T A (B coarse - fine)| over test functions and coordinates (m^2: metres times the
// 1/m of an A-normalized test function times the m^2 of A).
double trackingViolation(const TrackingConstraint& c, const Eigen::MatrixX3d& coarse, const Eigen::MatrixX3d& fine);

}  // namespace adacloth
