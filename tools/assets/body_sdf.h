#pragma once
// The mannequin's body as a signed distance function (m; negative inside): a smooth union of round cones (capsules
// whose radius changes along the axis) and ellipsoids, each attached rigidly to one bone. The union uses the
// polynomial smooth minimum with a 2.5 cm blend radius, so joints are filleted instead of creased. The distances
// are approximate away from the surface (the ellipsoid and round-cone formulas are bounds, not exact), which is all
// that polygonizing and clearance checks need.
#include <vector>

#include "skeleton.h"

namespace adacloth::assets {

struct Primitive {
  enum class Kind { RoundCone, Ellipsoid } kind = Kind::RoundCone;
  int bone = 0;
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();  // RoundCone: axis end points (m, rest pose)
  double ra = 0, rb = 0;                    // RoundCone: radii at a and b (m)
  Vec3 centre = Vec3::Zero();               // Ellipsoid: centre (m, rest pose)
  Vec3 semiAxes = Vec3::Ones();             // Ellipsoid: semi-axes along X, Y, Z (m)
};

struct BodyModel {
  Skeleton skeleton;
  std::vector<Primitive> primitives;
  double blend = 0.025;  // m: smooth-union blend radius
};

// The 1.75 m adult: narrow waist (~0.75 m around) above broader hips (~0.95 m), shoulders ~0.45 m wide.
BodyModel makeBodyModel();

// Distance from a rest-pose point to one primitive (m, negative inside).
double primitiveDistance(const Primitive& primitive, const Vec3& p);

// Smooth union of the primitives in the rest pose. `withArms` false leaves out the arms and hands (used to fit a
// skirt or cape around the torso without wrapping the hands).
double bodyDistance(const BodyModel& body, const Vec3& p, bool withArms = true);

// The same for a posed body: each primitive moves rigidly with its bone (transforms from boneTransforms).
double posedBodyDistance(const BodyModel& body, const std::vector<BoneTransform>& bones, const Vec3& p);

// Horizontal direction at angle theta (rad) around Y, from +Z towards +X.
Vec3 around(double theta);

// Outermost distance from the Y axis, along direction theta at height y (m), at which the rest-pose body comes
// within `clearance` (m); 0 when the ray misses the body.
double outermostRadius(const BodyModel& body, bool withArms, double theta, double y, double clearance);

// Girth of the rest-pose body at height y without the arms (m): perimeter of the outline seen from the Y axis,
// from rays every degree (a tape measure around the torso or both legs).
double girth(const BodyModel& body, double y);

// Polynomial smooth minimum of a and b with blend radius k (m).
double smoothMin(double a, double b, double k);

}  // namespace adacloth::assets
