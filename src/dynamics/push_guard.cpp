#include "dynamics/push_guard.h"

#include <algorithm>

namespace adacloth {

StrainLimits pushGuardLimits(const Mesh& mesh, const DynamicsState& state, const std::vector<char>& held) {
  StrainLimitParams bounds;  // the strain limit's defaults: [0.9, 1.1], 4 passes
  bounds.enabled = true;
  StrainLimits limits = strainLimits(mesh, state, bounds, held);
  limits.faces.clear();
  limits.tethers.clear();
  return limits;
}

void widenToLengths(StrainLimits& limits, const std::vector<Vec3>& x, int first) {
  for (LengthLimit& e : limits.edges) {
    const double length = (x[first + e.b] - x[first + e.a]).norm();
    e.minLength = std::min(e.minLength, length);
    e.maxLength = std::max(e.maxLength, length);
  }
}

}  // namespace adacloth
