#pragma once
// Procedural gaits for the mannequin, produced in place (treadmill): the root does not advance, the stance foot
// slides backwards at the gait's speed, so a shot moves the whole character forward (+Z) with the obstacle's rigid
// `motion` keys at `speed`. Every joint is a smooth periodic function of the phase t / period, so
// pose(t + period) == pose(t) up to rounding.
//
// Legs are driven by their ankle paths (stance: straight line at -speed on the ground, heel rising at push-off;
// swing: a Hermite curve back to the front whose end velocities match the stance, lifted by a bump) and a two-bone
// inverse kinematics with the knee forward. Arms swing against the legs, the pelvis bobs, twists and tilts and the
// chest counter-twists. Time 0 is the left foot's mid-stance, with the arms hanging beside the body: the pose
// closest to the rest pose, so garments fitted to the rest pose also start clear of a walking body.
#include <string>

#include "skeleton.h"

namespace adacloth::assets {

struct Gait {
  std::string name;
  double period = 1.0;          // s: one full cycle (two steps)
  double speed = 1.3;           // m/s: treadmill speed
  double stance = 0.6;          // fraction of the cycle a foot is on the ground
  double heelStrikeZ = 0.3;     // m: ankle ahead of the hip at heel strike
  double lift = 0.1;            // m: extra ankle height in mid-swing
  double pelvisHeight = -0.02;  // m: mean pelvis offset (knees slightly bent)
  double bob = 0.02;            // m: pelvis vertical amplitude (twice per cycle)
  double pelvisYawDeg = 5, pelvisRollDeg = 3, chestYawDeg = 4, leanDeg = 2;
  double armSwingDeg = 18, elbowBendDeg = 15, elbowSwingDeg = 10;
};

// Walk: 13 / 12 s, 1.3 m/s. Run: 8 / 12 s (cadence 180 steps per minute), 3.0 m/s. Periods are whole numbers of
// 1/12 s so that sequences written at 12 (or 24) files per second loop exactly.
Gait walkGait();
Gait runGait();

Pose gaitPose(const Skeleton& skeleton, const Gait& gait, double t);

// Phase (fraction of the cycle after the left heel strike) at time 0, and the first time >= 0 at a given phase.
constexpr double kPhaseAtTimeZero = 0.25;
double timeAtPhase(const Gait& gait, double phase);

}  // namespace adacloth::assets
