#pragma once
// Placement of a mesh in the world: uniform scale, then rotation about the world X, Y and Z axes, then translation.
// Cloths and obstacles are placed by it; obstacles' motion keys use the same order.
#include "mesh/types.h"

namespace adacloth {

struct TransformSpec {
  Vec3 translate = Vec3::Zero();  // m
  Vec3 rotateDeg = Vec3::Zero();  // degrees about X, then Y, then Z (world axes)
  double scale = 1.0;             // uniform, applies to material coordinates too (a unit change)
  Mat3 rotation() const;
  Vec3 apply(const Vec3& p) const { return rotation() * (scale * p) + translate; }
};

}  // namespace adacloth
