#include "collision/rigid_fit.h"

#include <Eigen/Geometry>
#include <Eigen/SVD>

namespace adacloth {

RigidMotion bestRigidMotion(const CollisionState& s, const std::vector<int>& nodes) {
  RigidMotion m;
  Eigen::Matrix3Xd from(3, nodes.size()), to(3, nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k) {
    from.col(long(k)) = s.x0[nodes[k]], to.col(long(k)) = s.x1[nodes[k]];
    m.centre += s.x0[nodes[k]], m.shift += s.x1[nodes[k]] - s.x0[nodes[k]];
  }
  m.centre /= double(nodes.size());
  m.shift /= double(nodes.size());
  if (nodes.size() < 3) return m;
  const Vec3 spread = Eigen::JacobiSVD<Eigen::Matrix3Xd>(from.colwise() - m.centre).singularValues();
  if (!(spread[1] > 1e-3 * spread[0])) return m;  // in a line
  m.turn = Eigen::umeyama(from, to, false).topLeftCorner<3, 3>();
  return m;
}

}  // namespace adacloth
