#include "view/camera_path.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "config/shot.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

config::Field buildCameraPathSchema() {
  using namespace config;
  Field keyframe = object("keyframe", {
      number("time", "Time of this keyframe; keyframe times must be strictly increasing.").inUnit("s"),
      vec3("eye", "Position of the camera.").inUnit("m"),
      vec3("target", "Point the camera looks at (must differ from `eye`).").inUnit("m"),
      vec3("up", "Which way is up on screen; need not be orthogonal to the view direction, must not be parallel "
                 "to it.").defaults(Json::array({0.0, 1.0, 0.0})),
      number("fov_y_deg", "Vertical field of view, in (0, 180).").inUnit("deg").atLeast(0, true).atMost(180, true)
          .defaults(40.0),
      number("near", "Near clip distance along the view direction (> 0).").inUnit("m").atLeast(0, true)
          .defaults(0.05),
      number("far", "Far clip distance along the view direction (> near); nothing beyond it is drawn or "
                    "refined for.").inUnit("m").atLeast(0, true).defaults(100.0),
      boolean("cut", "This keyframe starts a new segment (a jump cut): no interpolation across it; before its "
                     "time the camera holds the previous segment's end.").defaults(false),
  }, "One camera pose in time.");
  Field keyframes = array("keyframes", keyframe, "Camera poses in time order (at least one).");
  keyframes.minItems = 1;
  return object("camera", {
      integer("width", "Image width.").inUnit("px").atLeast(1).atMost(16384).defaults(960),
      integer("height", "Image height.").inUnit("px").atLeast(1).atMost(16384).defaults(540),
      enumeration("interpolation", {"linear", "smooth"},
                  "`linear`: straight lines between keyframes; `smooth`: C1 spline through them, easing in and out "
                  "at the ends of each segment.").defaults("smooth"),
      keyframes,
  }, "A camera path file (cameras/*.json) animates a perspective camera with keyframes. Time is in seconds (frame "
     "f of a shot is at f / fps); before the first keyframe and after the last the camera holds still. Used by "
     "`adacloth render` and by view-dependent refinement.");
}

Vec3 readVec3(const Json& j) { return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()}; }

[[noreturn]] void fail(const std::string& file, const std::string& pointer, const std::string& what) {
  throw InputError(file + ": " + pointer + ": " + what);
}

std::string show(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// The checks that relate several values, which the schema cannot express.
void checkKeyframe(const CameraPath& path, size_t i) {
  const CameraKeyframe& k = path.keyframes[i];
  const std::string at = "/keyframes/" + std::to_string(i);
  if (i > 0 && !(k.time > path.keyframes[i - 1].time))
    fail(path.file, at + "/time", "expected a time later than the previous keyframe's (" +
                                      show(path.keyframes[i - 1].time) + " s), got " + show(k.time));
  if (!(k.far > k.near))
    fail(path.file, at + "/far", "expected a value greater than near (" + show(k.near) + " m), got " + show(k.far));
  if (!((k.target - k.eye).norm() > 0))
    fail(path.file, at + "/target", "expected a point different from eye, got the same point");
  try {
    makeCamera(k.eye, k.target, k.up, k.fovYDeg, k.near, k.far, path.width, path.height);
  } catch (const std::invalid_argument&) {
    fail(path.file, at + "/up", "expected a direction not parallel to the view direction (target - eye)");
  }
}

CameraKeyframe readKeyframe(const Json& j) {
  CameraKeyframe k;
  k.time = j["time"].get<double>();
  k.eye = readVec3(j["eye"]);
  k.target = readVec3(j["target"]);
  k.up = readVec3(j["up"]);
  k.fovYDeg = j["fov_y_deg"].get<double>();
  k.near = j["near"].get<double>();
  k.far = j["far"].get<double>();
  k.cut = j["cut"].get<bool>();
  return k;
}

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

const config::Field& cameraPathSchema() {
  static const config::Field schema = buildCameraPathSchema();
  return schema;
}

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

CameraPath parseCameraPath(const std::string& text, const std::filesystem::path& file) {
  config::Source source{file.string(), file.parent_path().empty() ? fs::path(".") : file.parent_path()};
  const Json r = config::resolve(config::parseJson(text, file.string()), cameraPathSchema(), source);
  CameraPath path;
  path.file = file.string();
  path.width = r["width"].get<int>();
  path.height = r["height"].get<int>();
  path.interpolation = r["interpolation"] == "linear" ? CameraPath::Interpolation::Linear
                                                      : CameraPath::Interpolation::Smooth;
  for (const Json& k : r["keyframes"]) path.keyframes.push_back(readKeyframe(k));
  for (size_t i = 0; i < path.keyframes.size(); ++i) checkKeyframe(path, i);
  return path;
}

CameraPath loadCameraPath(const std::filesystem::path& file) { return parseCameraPath(readFile(file), file); }

std::optional<CameraPath> loadShotCamera(const Shot& shot) {
  if (!shot.camera) return std::nullopt;
  std::error_code ec;
  if (!fs::is_regular_file(*shot.camera, ec))
    throw InputError(shot.file.string() + ": /camera: camera file " + shot.camera->string() + " does not exist");
  return loadCameraPath(*shot.camera);
}

}  // namespace adacloth
