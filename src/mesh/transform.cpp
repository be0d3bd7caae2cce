#include "mesh/transform.h"

#include <Eigen/Geometry>
#include <cmath>

namespace adacloth {

Mat3 TransformSpec::rotation() const {
  const double toRad = M_PI / 180.0;
  return (Eigen::AngleAxisd(rotateDeg.z() * toRad, Vec3::UnitZ()) *
          Eigen::AngleAxisd(rotateDeg.y() * toRad, Vec3::UnitY()) *
          Eigen::AngleAxisd(rotateDeg.x() * toRad, Vec3::UnitX()))
      .toRotationMatrix();
}

}  // namespace adacloth
