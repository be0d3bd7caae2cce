#include "skeleton.h"

#include <Eigen/Geometry>
#include <cmath>
#include <stdexcept>

namespace adacloth::assets {

int Skeleton::find(const std::string& name) const {
  for (size_t i = 0; i < bones.size(); ++i)
    if (bones[i].name == name) return int(i);
  throw std::out_of_range("no bone named " + name);
}

namespace {

// Adds the three bones of an arm. `side` is +1 for the left arm (+X), -1 for the right.
void addArm(Skeleton& s, int chest, double side, const std::string& prefix) {
  const double abduction = 15.0 * M_PI / 180.0;  // arms hang away from the body by this angle
  const Vec3 down(side * std::sin(abduction), -std::cos(abduction), 0.0);
  const Vec3 shoulder(side * 0.19, 1.42, -0.01);
  const Vec3 elbow = shoulder + 0.29 * down;
  const Vec3 wrist = elbow + 0.25 * down + Vec3(0, 0, 0.01);
  const Vec3 fingertip = wrist + 0.18 * down;
  const int upper = int(s.bones.size());
  s.bones.push_back({prefix + "upperarm", chest, shoulder, elbow});
  s.bones.push_back({prefix + "forearm", upper, elbow, wrist});
  s.bones.push_back({prefix + "hand", upper + 1, wrist, fingertip});
}

// Adds thigh, shin and foot. The hip joint is 0.93 m high, the ankle 0.08 m: a leg of 0.85 m.
void addLeg(Skeleton& s, double side, const std::string& prefix) {
  const Vec3 hip(side * 0.09, 0.93, 0.0), knee(side * 0.095, 0.505, 0.01), ankle(side * 0.095, 0.08, -0.015);
  const int thigh = int(s.bones.size());
  s.bones.push_back({prefix + "thigh", 0, hip, knee});
  s.bones.push_back({prefix + "shin", thigh, knee, ankle});
  s.bones.push_back({prefix + "foot", thigh + 1, ankle, Vec3(side * 0.10, 0.03, 0.17)});
}

}  // namespace

Skeleton makeHumanoidSkeleton() {
  Skeleton s;
  s.bones.push_back({"pelvis", -1, Vec3(0, 0.96, 0), Vec3(0, 1.02, 0)});
  s.bones.push_back({"spine", 0, Vec3(0, 1.02, 0), Vec3(0, 1.20, 0)});
  s.bones.push_back({"chest", 1, Vec3(0, 1.20, 0), Vec3(0, 1.45, 0)});
  s.bones.push_back({"neck", 2, Vec3(0, 1.45, 0), Vec3(0, 1.56, 0)});
  s.bones.push_back({"head", 3, Vec3(0, 1.56, 0), Vec3(0, 1.75, 0)});
  addArm(s, 2, +1, "l_");
  addArm(s, 2, -1, "r_");
  addLeg(s, +1, "l_");
  addLeg(s, -1, "r_");
  return s;
}

Pose restPose(const Skeleton& skeleton) {
  Pose p;
  p.rotation.assign(skeleton.bones.size(), Mat3::Identity());
  return p;
}

std::vector<BoneTransform> boneTransforms(const Skeleton& skeleton, const Pose& pose) {
  std::vector<BoneTransform> out(skeleton.bones.size());
  for (size_t i = 0; i < skeleton.bones.size(); ++i) {
    const Bone& b = skeleton.bones[i];
    // Where the head joint is now: carried by the parent (or moved by the root offset).
    const Vec3 head = b.parent < 0 ? Vec3(b.head + pose.rootOffset) : out[b.parent].apply(b.head);
    out[i].linear = pose.rotation[i];
    out[i].translation = head - pose.rotation[i] * b.head;
  }
  return out;
}

Mat3 rotationX(double a) { return Eigen::AngleAxisd(a, Vec3::UnitX()).toRotationMatrix(); }
Mat3 rotationY(double a) { return Eigen::AngleAxisd(a, Vec3::UnitY()).toRotationMatrix(); }
Mat3 rotationZ(double a) { return Eigen::AngleAxisd(a, Vec3::UnitZ()).toRotationMatrix(); }

}  // namespace adacloth::assets
