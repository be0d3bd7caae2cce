#pragma once
// The dynamics tests' and benchmarks' sheet: a horizontal cloth (XZ plane at y = 0, 1 x 1 m, cotton unless told)
// held at the two corners of its far edge, and the implicit system of its next step.
#include <vector>

#include "dynamics/dynamics_state.h"
#include "dynamics/implicit_system.h"
#include "mesh/generators.h"

namespace adacloth::assets {

struct HeldSheet {
  Mesh mesh;
  DynamicsState state;
  MaterialParams material;
  StrainLimitParams strainLimit;  // off unless a test turns it on
};

HeldSheet makeHeldSheet(int cells, const MaterialParams& material = MaterialParams());

// The system stepCloth would solve next (gravity only, held nodes kept still), at step h (s).
ImplicitSystem nextStepSystem(const HeldSheet& sheet, double h);

}  // namespace adacloth::assets
