#pragma once
// The rigid motion that best carries one set of points onto another (least squares): how impact zones and yielding
// held cloth move a group of nodes as one body (collision/rigid_fit.h), and how a rigid bound handle keeps its shape
// on a deforming body (dynamics/handles.h).
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// x -> centre + shift + turn (x - centre).
struct RigidMotion {
  Vec3 centre = Vec3::Zero(), shift = Vec3::Zero();  // the points' mean position before, their mean displacement (m)
  Mat3 turn = Mat3::Identity();
  Vec3 operator()(const Vec3& x) const { return centre + shift + turn * (x - centre); }
};

// The rigid motion that carries from[k] closest to to[k] (Kabsch/Umeyama, no scaling; from and to of one size, not
// empty). With fewer than three points the turn is not determined: the mean displacement alone. Points in a line
// determine the turn but for a spin about that line, which does not move them; with `turnInALine` false they get
// the mean displacement alone as well (the spread across the line below 1e-3 of the spread along it).
RigidMotion fitRigidMotion(const std::vector<Vec3>& from, const std::vector<Vec3>& to, bool turnInALine);

}  // namespace adacloth
