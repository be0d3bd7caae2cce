#include "body_sdf.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth::assets {
namespace {

Primitive roundCone(int bone, const Vec3& a, const Vec3& b, double ra, double rb) {
  Primitive p;
  p.kind = Primitive::Kind::RoundCone;
  p.bone = bone;
  p.a = a;
  p.b = b;
  p.ra = ra;
  p.rb = rb;
  return p;
}

Primitive ellipsoid(int bone, const Vec3& centre, const Vec3& semiAxes) {
  Primitive p;
  p.kind = Primitive::Kind::Ellipsoid;
  p.bone = bone;
  p.centre = centre;
  p.semiAxes = semiAxes;
  return p;
}

void addArm(BodyModel& body, const std::string& prefix) {
  const Skeleton& s = body.skeleton;
  const Bone& upper = s.bones[s.find(prefix + "upperarm")];
  const Bone& fore = s.bones[s.find(prefix + "forearm")];
  const Bone& hand = s.bones[s.find(prefix + "hand")];
  body.primitives.push_back(roundCone(s.find(prefix + "upperarm"), upper.head, upper.tail, 0.052, 0.04));
  body.primitives.push_back(roundCone(s.find(prefix + "forearm"), fore.head, fore.tail, 0.037, 0.029));
  // The hand as a flattened capsule is not worth the code: a thin round cone from wrist to fingertips.
  const Vec3 along = (hand.tail - hand.head).normalized();
  body.primitives.push_back(
      roundCone(s.find(prefix + "hand"), hand.head + 0.03 * along, hand.tail - 0.025 * along, 0.031, 0.024));
}

void addLeg(BodyModel& body, const std::string& prefix, double side) {
  const Skeleton& s = body.skeleton;
  const Bone& thigh = s.bones[s.find(prefix + "thigh")];
  const Bone& shin = s.bones[s.find(prefix + "shin")];
  body.primitives.push_back(roundCone(s.find(prefix + "thigh"), thigh.head, thigh.tail, 0.092, 0.056));
  body.primitives.push_back(roundCone(s.find(prefix + "shin"), shin.head, shin.tail, 0.052, 0.035));
  // Heel to toe; the bottom touches y = 0.
  body.primitives.push_back(roundCone(s.find(prefix + "foot"), Vec3(side * 0.095, 0.042, -0.055),
                                      Vec3(side * 0.10, 0.032, 0.165), 0.042, 0.032));
}

}  // namespace

BodyModel makeBodyModel() {
  BodyModel body;
  body.skeleton = makeHumanoidSkeleton();
  const Skeleton& s = body.skeleton;
  body.primitives.push_back(ellipsoid(s.find("pelvis"), Vec3(0, 0.93, -0.015), Vec3(0.17, 0.12, 0.13)));
  body.primitives.push_back(ellipsoid(s.find("spine"), Vec3(0, 1.10, 0.0), Vec3(0.135, 0.19, 0.105)));
  body.primitives.push_back(ellipsoid(s.find("chest"), Vec3(0, 1.29, 0.0), Vec3(0.17, 0.185, 0.12)));
  body.primitives.push_back(roundCone(s.find("chest"), Vec3(-0.17, 1.425, -0.01), Vec3(0.17, 1.425, -0.01), 0.05, 0.05));
  body.primitives.push_back(roundCone(s.find("neck"), Vec3(0, 1.42, -0.005), Vec3(0, 1.58, 0.01), 0.055, 0.05));
  body.primitives.push_back(ellipsoid(s.find("head"), Vec3(0, 1.645, 0.015), Vec3(0.078, 0.105, 0.095)));
  addArm(body, "l_");
  addArm(body, "r_");
  addLeg(body, "l_", +1);
  addLeg(body, "r_", -1);
  return body;
}

double primitiveDistance(const Primitive& prim, const Vec3& p) {
  if (prim.kind == Primitive::Kind::Ellipsoid) {
    // Bound by the gradient-normalised implicit (exact on the surface, good near it).
    const Vec3 q = p - prim.centre;
    const double k0 = q.cwiseQuotient(prim.semiAxes).norm();
    const double k1 = q.cwiseQuotient(prim.semiAxes.cwiseProduct(prim.semiAxes)).norm();
    if (k1 < 1e-12) return -prim.semiAxes.minCoeff();
    return k0 * (k0 - 1.0) / k1;
  }
  const Vec3 ab = prim.b - prim.a;
  const double t = std::clamp((p - prim.a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (p - (prim.a + t * ab)).norm() - ((1 - t) * prim.ra + t * prim.rb);
}

double smoothMin(double a, double b, double k) {
  const double h = std::max(k - std::abs(a - b), 0.0) / k;
  return std::min(a, b) - h * h * k * 0.25;
}

namespace {
bool isArm(const BodyModel& body, int bone) {
  const std::string& n = body.skeleton.bones[bone].name;
  return n.find("arm") != std::string::npos || n.find("hand") != std::string::npos;
}
}  // namespace

double bodyDistance(const BodyModel& body, const Vec3& p, bool withArms) {
  double d = std::numeric_limits<double>::infinity();
  for (const Primitive& prim : body.primitives) {
    if (!withArms && isArm(body, prim.bone)) continue;
    const double di = primitiveDistance(prim, p);
    d = std::isinf(d) ? di : smoothMin(d, di, body.blend);
  }
  return d;
}

double posedBodyDistance(const BodyModel& body, const std::vector<BoneTransform>& bones, const Vec3& p) {
  double d = std::numeric_limits<double>::infinity();
  for (const Primitive& prim : body.primitives) {
    const double di = primitiveDistance(prim, bones[prim.bone].applyInverse(p));
    d = std::isinf(d) ? di : smoothMin(d, di, body.blend);
  }
  return d;
}

Vec3 around(double theta) { return Vec3(std::sin(theta), 0, std::cos(theta)); }

double outermostRadius(const BodyModel& body, bool withArms, double theta, double y, double clearance) {
  auto gap = [&](double r) { return bodyDistance(body, Vec3(0, y, 0) + r * around(theta), withArms) - clearance; };
  // March inwards from 0.8 m in 2 mm steps (thinner than any limb), then bisect the first crossing.
  const double step = 0.002;
  for (double r = 0.8; r > 0; r -= step) {
    if (gap(r) > 0) continue;
    double lo = r, hi = r + step;  // gap(lo) <= 0 < gap(hi)
    for (int it = 0; it < 30; ++it) (gap(0.5 * (lo + hi)) > 0 ? hi : lo) = 0.5 * (lo + hi);
    return hi;
  }
  return 0;
}

double girth(const BodyModel& body, double y) {
  const int n = 360;
  double length = 0;
  Vec3 first = Vec3::Zero(), previous = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    const double theta = 2 * M_PI * i / n;
    const Vec3 p = outermostRadius(body, false, theta, y, 0.0) * around(theta);
    if (i == 0) first = p;
    else length += (p - previous).norm();
    previous = p;
  }
  return length + (first - previous).norm();
}

}  // namespace adacloth::assets
