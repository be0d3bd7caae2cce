// fitRigidMotion: the least-squares rigid motion between two point sets.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include "mesh/rigid_motion.h"

using namespace adacloth;

namespace {

std::vector<Vec3> moved(const std::vector<Vec3>& points, const Mat3& turn, const Vec3& shift) {
  std::vector<Vec3> out;
  for (const Vec3& p : points) out.push_back(turn * p + shift);
  return out;
}

}  // namespace

TEST_CASE("fitRigidMotion recovers a rigid motion exactly and fits a stretched one in least squares", "[mesh]") {
  const std::vector<Vec3> points = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0.3, 0.4, 1.5}, {-1, 0.5, 0.2}};
  const Mat3 turn = Eigen::AngleAxisd(1.1, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  const Vec3 shift(0.4, -1.2, 2.0);
  const std::vector<Vec3> to = moved(points, turn, shift);
  const RigidMotion m = fitRigidMotion(points, to, false);
  for (size_t k = 0; k < points.size(); ++k) CHECK((m(points[k]) - to[k]).norm() < 1e-12);
  CHECK((m.turn - turn).norm() < 1e-12);
  // Stretched along x: no rigid motion fits, the best one keeps the centroid and stays a rotation.
  std::vector<Vec3> stretched = to;
  for (Vec3& p : stretched) p.x() *= 1.5;
  const RigidMotion s = fitRigidMotion(points, stretched, false);
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
  for (size_t k = 0; k < points.size(); ++k) a += s(points[k]), b += stretched[k];
  CHECK((a - b).norm() < 1e-12);
  CHECK((s.turn.transpose() * s.turn - Mat3::Identity()).norm() < 1e-12);
  CHECK(s.turn.determinant() == Approx(1.0));
}

TEST_CASE("fitRigidMotion: two points, or points in a line without turnInALine, move by their mean only", "[mesh]") {
  const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(0, 0, 1)).toRotationMatrix();
  const std::vector<Vec3> two = {{0, 0, 0}, {1, 0, 0}};
  const RigidMotion m2 = fitRigidMotion(two, moved(two, turn, Vec3(1, 2, 3)), true);
  CHECK(m2.turn == Mat3::Identity());
  CHECK((m2.shift - (turn * Vec3(0.5, 0, 0) + Vec3(1, 2, 3) - Vec3(0.5, 0, 0))).norm() < 1e-12);
  // A line turned about z: with turnInALine its points land where they went; without, the mean shift alone.
  const std::vector<Vec3> line = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  const std::vector<Vec3> to = moved(line, turn, Vec3(1, 2, 3));
  const RigidMotion turned = fitRigidMotion(line, to, true), shifted = fitRigidMotion(line, to, false);
  for (size_t k = 0; k < line.size(); ++k) CHECK((turned(line[k]) - to[k]).norm() < 1e-12);
  CHECK(shifted.turn == Mat3::Identity());
  CHECK((shifted(line[0]) - to[0]).norm() > 0.5);
}
