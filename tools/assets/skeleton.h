#pragma once
// A humanoid skeleton for the procedural mannequin: 17 bones of a 1.75 m adult, Y up, facing +Z, feet on y = 0.
// The character's left is +X. Rest pose: standing, arms hanging 15 degrees away from the body (an "A" pose) so the
// hands clear the hips and a skirt.
//
// A pose gives every bone a *global* rotation about its head joint, plus an offset of the root; forward kinematics
// (boneTransforms) keeps the joints connected: a child's head follows its parent's transform.
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth::assets {

struct Bone {
  std::string name;
  int parent = -1;             // -1 for the root (pelvis)
  Vec3 head = Vec3::Zero();    // joint with the parent, rest pose (m)
  Vec3 tail = Vec3::Zero();    // end of the bone, rest pose (m)
};

struct Skeleton {
  std::vector<Bone> bones;     // parents come before children
  int find(const std::string& name) const;  // index of a bone; throws std::out_of_range for an unknown name
};

Skeleton makeHumanoidSkeleton();

struct Pose {
  Vec3 rootOffset = Vec3::Zero();   // m: displacement of the pelvis head from its rest position
  std::vector<Mat3> rotation;       // per bone: global rotation about the bone's head (identity = rest)
};

Pose restPose(const Skeleton& skeleton);

// A rigid transform p -> linear * p + translation taking rest-pose points of a bone to the pose.
struct BoneTransform {
  Mat3 linear = Mat3::Identity();
  Vec3 translation = Vec3::Zero();
  Vec3 apply(const Vec3& p) const { return linear * p + translation; }
  Vec3 applyInverse(const Vec3& p) const { return linear.transpose() * (p - translation); }
};

std::vector<BoneTransform> boneTransforms(const Skeleton& skeleton, const Pose& pose);

// Rotation about a world axis by an angle in radians.
Mat3 rotationX(double radians);
Mat3 rotationY(double radians);
Mat3 rotationZ(double radians);

}  // namespace adacloth::assets
