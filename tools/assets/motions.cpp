#include "motions.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace adacloth::assets {

Gait walkGait() {
  Gait g;
  g.name = "walk";
  g.period = 13.0 / 12.0;
  g.speed = 1.3;
  g.stance = 0.56;
  return g;
}

Gait runGait() {
  Gait g;
  g.name = "run";
  g.period = 8.0 / 12.0;
  g.speed = 3.0;
  g.stance = 0.36;
  g.heelStrikeZ = 0.32;
  g.lift = 0.28;
  g.pelvisHeight = -0.05;
  g.bob = 0.025;
  g.pelvisYawDeg = 8;
  g.pelvisRollDeg = 4;
  g.chestYawDeg = 8;
  g.leanDeg = 9;
  g.armSwingDeg = 35;
  g.elbowBendDeg = 80;
  g.elbowSwingDeg = 20;
  return g;
}

namespace {

constexpr double kDeg = M_PI / 180.0;
constexpr double kAnkleHeight = 0.08;   // m: ankle above the ground with the foot flat
constexpr double kHeelRiseStart = -0.15, kHeelRiseRate = 0.35;  // heel leaves the ground behind this z (m), per m

double fraction(double x) { return x - std::floor(x); }

// The ankle of a foot `psi` of its own cycle after heel strike (psi in [0, 1)), relative to the hip in z (m) and
// to the ground in y (m); pitch is the foot's rotation about X (rad, toes down positive).
struct AnkleTarget {
  double z, y, pitch;
};

double heelRise(double z) { return std::max(0.0, kHeelRiseStart - z) * kHeelRiseRate; }

AnkleTarget ankleAt(const Gait& g, double psi) {
  const double travel = g.speed * g.stance * g.period;  // m covered by the stance foot
  const double front = g.heelStrikeZ, back = front - travel;
  const double footLength = 0.17;
  if (psi < g.stance) {
    const double z = front - travel * psi / g.stance;
    return {z, kAnkleHeight + heelRise(z), std::asin(std::min(1.0, heelRise(z) / footLength))};
  }
  // Swing: cubic Hermite from back to front with end velocities -speed (matching the stance on both sides).
  const double s = (psi - g.stance) / (1 - g.stance), swingTime = (1 - g.stance) * g.period;
  const double m = -g.speed * swingTime;  // dz/ds at both ends
  const double s2 = s * s, s3 = s2 * s;
  const double z = (2 * s3 - 3 * s2 + 1) * back + (s3 - 2 * s2 + s) * m + (-2 * s3 + 3 * s2) * front + (s3 - s2) * m;
  const double startY = kAnkleHeight + heelRise(back), bump = std::sin(M_PI * s);
  const double y = (1 - s) * startY + s * kAnkleHeight + g.lift * bump * bump;
  const double startPitch = std::asin(std::min(1.0, heelRise(back) / footLength));
  return {z, y, startPitch * (1 - s) * (1 - s) * (1 + 2 * s) - 0.25 * bump * bump};
}

// Knee position of a two-bone chain from `hip` to `ankle` with the knee bending towards `forward`. The ankle is
// pulled in when out of reach; returns the reached ankle in `ankle`.
Vec3 solveKnee(const Vec3& hip, Vec3& ankle, double l1, double l2, const Vec3& forward) {
  Vec3 d = ankle - hip;
  const double reach = std::clamp(d.norm(), std::abs(l1 - l2) + 1e-3, (l1 + l2) * 0.9995);
  const Vec3 axis = d.normalized();
  ankle = hip + reach * axis;
  const double a = (l1 * l1 - l2 * l2 + reach * reach) / (2 * reach);
  const double h = std::sqrt(std::max(0.0, l1 * l1 - a * a));
  const Vec3 bend = (forward - forward.dot(axis) * axis).normalized();
  return hip + a * axis + h * bend;
}

Mat3 rotationBetween(const Vec3& from, const Vec3& to) {
  return Eigen::Quaterniond::FromTwoVectors(from, to).toRotationMatrix();
}

// Sets the global rotations of thigh, shin and foot so the ankle follows its target.
void poseLeg(const Skeleton& sk, Pose& pose, const std::vector<BoneTransform>& upper, const std::string& prefix,
             const AnkleTarget& target) {
  const int thigh = sk.find(prefix + "thigh"), shin = sk.find(prefix + "shin"), foot = sk.find(prefix + "foot");
  const Bone &bt = sk.bones[thigh], &bs = sk.bones[shin];
  const Vec3 hip = upper[0].apply(bt.head);
  Vec3 ankle(bs.tail.x(), target.y, target.z);
  const Vec3 knee = solveKnee(hip, ankle, (bt.tail - bt.head).norm(), (bs.tail - bs.head).norm(), Vec3::UnitZ());
  pose.rotation[thigh] = rotationBetween(bt.tail - bt.head, knee - hip);
  pose.rotation[shin] = rotationBetween(bs.tail - bs.head, ankle - knee);
  pose.rotation[foot] = rotationX(target.pitch);
}

void poseArm(const Skeleton& sk, Pose& pose, const Gait& g, const std::string& prefix, double swing) {
  const Mat3 chest = pose.rotation[sk.find("chest")];
  // swing > 0 moves the hand forward (+Z): a negative rotation about X for an arm hanging down.
  const Mat3 upper = chest * rotationX(-swing * g.armSwingDeg * kDeg);
  pose.rotation[sk.find(prefix + "upperarm")] = upper;
  const double bend = (g.elbowBendDeg + g.elbowSwingDeg * 0.5 * (1 + swing)) * kDeg;
  pose.rotation[sk.find(prefix + "forearm")] = upper * rotationX(-bend);
  pose.rotation[sk.find(prefix + "hand")] = upper * rotationX(-bend);
}

}  // namespace

double timeAtPhase(const Gait& g, double phase) { return fraction(phase - kPhaseAtTimeZero) * g.period; }

Pose gaitPose(const Skeleton& sk, const Gait& g, double t) {
  // phi = 0: left heel strike, 0.5: right heel strike. Time 0 is a quarter cycle later (left mid-stance, the right
  // leg passing it, arms hanging): the pose closest to the rest pose the garments are fitted to.
  const double phi = fraction(t / g.period + kPhaseAtTimeZero);
  const double c = std::cos(2 * M_PI * phi), s = std::sin(2 * M_PI * phi);
  Pose pose = restPose(sk);
  // Lowest just after each heel strike (weight acceptance), highest in single support / flight.
  const double dip = 0.5 * g.stance - 0.25;   // walk: early double support; run: mid-stance
  pose.rootOffset = Vec3(0, g.pelvisHeight - g.bob * std::cos(4 * M_PI * (phi - dip)), 0);
  const Mat3 lean = rotationX(g.leanDeg * kDeg);
  // Left hip forward at left heel strike (negative rotation about Y moves +X towards +Z); the swing-side hip drops.
  pose.rotation[sk.find("pelvis")] = rotationY(-g.pelvisYawDeg * kDeg * c) * rotationZ(g.pelvisRollDeg * kDeg * s) *
                                     rotationX(0.5 * g.leanDeg * kDeg);
  pose.rotation[sk.find("spine")] = rotationY(-0.3 * g.pelvisYawDeg * kDeg * c) * lean;
  pose.rotation[sk.find("chest")] = rotationY(g.chestYawDeg * kDeg * c) * lean;
  pose.rotation[sk.find("neck")] = rotationX(0.3 * g.leanDeg * kDeg);
  pose.rotation[sk.find("head")] = Mat3::Identity();  // eyes level, looking ahead
  poseArm(sk, pose, g, "l_", -c);  // left arm forward when the right leg is (phi = 0.5)
  poseArm(sk, pose, g, "r_", c);
  const std::vector<BoneTransform> upper = boneTransforms(sk, pose);  // pelvis placed: hips known
  poseLeg(sk, pose, upper, "l_", ankleAt(g, phi));
  poseLeg(sk, pose, upper, "r_", ankleAt(g, fraction(phi + 0.5)));
  return pose;
}

}  // namespace adacloth::assets
