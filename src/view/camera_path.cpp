#include "view/camera_path.h"

#include <algorithm>
#include <cmath>

namespace adacloth {
namespace {

// Index of the first keyframe of the segment that keyframe k belongs to, and of its last one.
size_t segmentStart(const CameraPath& p, size_t k) {
  while (k > 0 && !p.keyframes[k].cut) --k;
  return k;
}
size_t segmentEnd(const CameraPath& p, size_t k) {
  while (k + 1 < p.keyframes.size() && !p.keyframes[k + 1].cut) ++k;
  return k;
}

// Hermite tangent (per second) of keyframe i within segment [s, e]: zero at the segment ends (ease in / out),
// central difference (Catmull-Rom on non-uniform times) inside.
template <typename Get>
Vec3 tangent(const CameraPath& p, size_t i, size_t s, size_t e, Get get) {
  if (i == s || i == e) return Vec3::Zero();
  const CameraKeyframe &a = p.keyframes[i - 1], &b = p.keyframes[i + 1];
  return (get(b) - get(a)) / (b.time - a.time);
}

struct Pose {
  Vec3 eye, target, up;
  double fovYDeg, near, far;
};

Pose interpolate(const CameraPath& p, size_t k, double u) {
  const CameraKeyframe &a = p.keyframes[k], &b = p.keyframes[k + 1];
  const bool smooth = p.interpolation == CameraPath::Interpolation::Smooth;
  // Scalars ease with smoothstep in smooth mode (C1 and never overshooting, so near stays positive).
  const double w = smooth ? u * u * (3 - 2 * u) : u;
  Pose pose;
  pose.up = (1 - w) * a.up.normalized() + w * b.up.normalized();
  pose.fovYDeg = (1 - w) * a.fovYDeg + w * b.fovYDeg;
  pose.near = (1 - w) * a.near + w * b.near;
  pose.far = (1 - w) * a.far + w * b.far;
  if (!smooth) {
    pose.eye = (1 - u) * a.eye + u * b.eye;
    pose.target = (1 - u) * a.target + u * b.target;
    return pose;
  }
  const size_t s = segmentStart(p, k), e = segmentEnd(p, k);
  const double dt = b.time - a.time;
  const double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
  const double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
  auto hermite = [&](auto get) -> Vec3 {
    return h00 * get(a) + h10 * dt * tangent(p, k, s, e, get) + h01 * get(b) +
           h11 * dt * tangent(p, k + 1, s, e, get);
  };
  pose.eye = hermite([](const CameraKeyframe& f) { return f.eye; });
  pose.target = hermite([](const CameraKeyframe& f) { return f.target; });
  return pose;
}

Pose poseOf(const CameraKeyframe& k) { return {k.eye, k.target, k.up, k.fovYDeg, k.near, k.far}; }

// An interpolated pose can be degenerate where the keyframes are not (eye passing through target, up swinging
// through the view direction); fall back to the nearer keyframe's orientation rather than fail mid-render.
Camera cameraOf(const Pose& pose, const CameraKeyframe& nearest, int width, int height) {
  Vec3 target = pose.target;
  if (!((target - pose.eye).norm() > 1e-9)) target = pose.eye + (nearest.target - nearest.eye);
  try {
    return makeCamera(pose.eye, target, pose.up, pose.fovYDeg, pose.near, pose.far, width, height);
  } catch (const std::invalid_argument&) {
    Camera c = makeCamera(nearest.eye, nearest.target, nearest.up, pose.fovYDeg, pose.near, pose.far, width, height);
    return makeCamera(pose.eye, target, c.up, pose.fovYDeg, pose.near, pose.far, width, height);
  }
}

}  // namespace


Camera CameraPath::at(double t) const {
  const size_t n = keyframes.size();
  if (!(t > keyframes.front().time)) return cameraOf(poseOf(keyframes.front()), keyframes.front(), width, height);
  // k: the last keyframe at or before t.
  size_t k = 0;
  while (k + 1 < n && keyframes[k + 1].time <= t) ++k;
  // Last keyframe overall, or the last of its segment before a cut: hold it.
  if (k + 1 == n || keyframes[k + 1].cut) return cameraOf(poseOf(keyframes[k]), keyframes[k], width, height);
  const double u = (t - keyframes[k].time) / (keyframes[k + 1].time - keyframes[k].time);
  return cameraOf(interpolate(*this, k, u), keyframes[u < 0.5 ? k : k + 1], width, height);
}

int CameraPath::segmentAt(double t) const {
  int segment = 0;
  for (const CameraKeyframe& k : keyframes)
    if (k.cut && k.time <= t) ++segment;
  return segment;
}

}  // namespace adacloth
