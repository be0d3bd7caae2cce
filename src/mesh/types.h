#pragma once
// Basic numeric types. Units are SI: metres, seconds, kilograms.
#include <Eigen/Dense>
#include <array>

namespace adacloth {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using Mat32 = Eigen::Matrix<double, 3, 2>;

// Index triple of a triangle (verts or nodes).
using Tri = std::array<int, 3>;

}  // namespace adacloth
