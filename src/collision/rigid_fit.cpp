#include "collision/rigid_fit.h"

namespace adacloth {

RigidMotion bestRigidMotion(const CollisionState& s, const std::vector<int>& nodes) {
  std::vector<Vec3> from, to;
  for (int i : nodes) from.push_back(s.x0[i]), to.push_back(s.x1[i]);
  return fitRigidMotion(from, to, false);
}

}  // namespace adacloth
