#pragma once
// A camera path (cameras/*.json, docs/design.md §8): image size, keyframes of look-at cameras, and how to interpolate
// between them. Evaluated at any time t it gives a Camera (camera.h).
//
// Segments: a keyframe flagged `cut` starts a new segment. Nothing is interpolated across a cut: up to the cut
// time the camera follows (and holds the end of) the previous segment, from the cut time on it is the new one's.
// Outside the keyframe range the camera holds the first / last keyframe.
//
// `linear` interpolates every quantity linearly. `smooth` moves eye and target along a cubic Hermite spline
// (Catmull-Rom tangents at inner keyframes, zero velocity at the ends of each segment, so the path is C1 also
// where it meets the holds before the first keyframe, after the last one and before a cut); fov, near and far ease
// between keyframes (smoothstep, C1, no overshoot). The up vector is interpolated and re-orthogonalised to the view
// direction in both modes.
#include <string>
#include <vector>

#include "view/camera.h"

namespace adacloth {

struct CameraKeyframe {
  double time = 0.0;                   // s
  Vec3 eye = Vec3::Zero();             // m
  Vec3 target = -Vec3::UnitZ();        // m
  Vec3 up = Vec3::UnitY();             // need not be orthogonal to the view direction
  double fovYDeg = 40.0;               // degrees, in (0, 180)
  double near = 0.05, far = 100.0;     // m, 0 < near < far
  bool cut = false;                    // starts a new segment
};

struct CameraPath {
  enum class Interpolation { Linear, Smooth };
  std::string file;                    // where it came from, for messages
  int width = 960, height = 540;       // image size (pixels)
  Interpolation interpolation = Interpolation::Smooth;
  std::vector<CameraKeyframe> keyframes;  // at least one, times strictly increasing

  // The camera at time t (s); t outside the keyframe range is clamped.
  Camera at(double t) const;
  // The segment shown at time t: how many keyframes flagged `cut` lie at or before t.
  int segmentAt(double t) const;
  // First and last keyframe times (s).
  double startTime() const { return keyframes.front().time; }
  double endTime() const { return keyframes.back().time; }
};

}  // namespace adacloth
