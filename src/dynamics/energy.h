#pragma once
// Energies of a cloth for the per-frame statistics (stats.jsonl) and regression checks. Each is summed in a fixed
// order (node order, pair order), so the value is the same at any thread count. The kinetic energy is
// kineticEnergy() in step.h.
#include "dynamics/dynamics_state.h"

namespace adacloth {

// Gravitational potential energy -sum m_i (g . x_i) (J), zero at the origin: for g = (0, -9.81, 0) m/s^2 it is
// sum m_i 9.81 y_i, relative to y = 0.
double potentialEnergy(const Mesh& mesh, const Vec3& gravity);

// Elastic energy of the spring model (J): per pair 0.5 stretchK (|d| - restLength)^2 + 0.5 bendK |d|^2, the
// energy whose negative gradient is the pair force of the implicit step (implicit_system.cpp). The bending
// couplings of a hinge sum to 0.5 k |s|^2 >= 0 (dynamics_state.cpp), so only round-off can make a total negative.
// Plus the strain limit's face term when the cloth has one (dynamics/face_stiffening.h).
double elasticEnergy(const Mesh& mesh, const DynamicsState& state);

}  // namespace adacloth
