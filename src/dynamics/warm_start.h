#pragma once
// The starting guess of an iterative solve of the implicit step. Where the last two steps' dv are known it is their
// linear extrapolation 2 dv_{n-1} - dv_{n-2} (motion is coherent from step to step, so the iteration only has to
// correct the change of the change), where only the last is known that one; a node new since then (a remesh
// split) takes the mean over its coupled neighbours that have one; a node with none takes the inertial
// dv = h f_ext / m, which is the exact step of a free fall.
#include <vector>

#include "dynamics/dynamics_state.h"

namespace adacloth {

// `external` are the step's forces outside the Jacobian (N), h the step (s). One guess per node (m/s).
std::vector<Vec3> warmStartGuess(const Mesh& mesh, const DynamicsState& state, const std::vector<Vec3>& external,
                                 double h);

// Keeps `dv` (and the one before) for the next step's guess.
void rememberDv(DynamicsState& state, const std::vector<Vec3>& dv);

// Replaces the dv that rememberDv() kept last by `dv`: the same step solved again (with contacts added).
void replaceLastDv(DynamicsState& state, const std::vector<Vec3>& dv);

}  // namespace adacloth
