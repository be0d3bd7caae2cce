#pragma once
// Strain limiting (docs/design.md §5): after a step, edges longer than max x rest length or shorter than min x rest
// length are pulled back to the limit (Gauss-Seidel passes over the edges, split by inverse mass), and velocities take
// the change (dv = dx / h) so the correction is not undone by the next step. Held nodes do not move.
#include <vector>

#include "dynamics/dynamics_state.h"

namespace adacloth {

void limitStrain(Mesh& mesh, const DynamicsState& state, const StrainLimitParams& limit, const std::vector<char>& held,
                 double h);

// Largest edge length / rest length of the mesh (1 when it has no edges).
double maxStretchRatio(const Mesh& mesh, const DynamicsState& state);

}  // namespace adacloth
