#include "mesh/rigid_motion.h"

#include <Eigen/Geometry>
#include <Eigen/SVD>

namespace adacloth {

RigidMotion fitRigidMotion(const std::vector<Vec3>& from, const std::vector<Vec3>& to, bool turnInALine) {
  RigidMotion m;
  Eigen::Matrix3Xd a(3, from.size()), b(3, from.size());
  for (size_t k = 0; k < from.size(); ++k) {
    a.col(long(k)) = from[k], b.col(long(k)) = to[k];
    m.centre += from[k], m.shift += to[k] - from[k];
  }
  m.centre /= double(from.size());
  m.shift /= double(from.size());
  if (from.size() < 3) return m;
  if (!turnInALine) {
    const Vec3 spread = Eigen::JacobiSVD<Eigen::Matrix3Xd>(a.colwise() - m.centre).singularValues();
    if (!(spread[1] > 1e-3 * spread[0])) return m;
  }
  m.turn = Eigen::umeyama(a, b, false).topLeftCorner<3, 3>();
  return m;
}

}  // namespace adacloth
