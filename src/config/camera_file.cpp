#include "config/camera_file.h"

#include <sstream>

#include "config/shot.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

// The default-constructed parameter structs every default below is read from: they are the single source of
// defaults. A function-local static, so a schema built during another file's static initialization still finds
// them constructed.
struct Defaults {
  CameraKeyframe keyframe;
  CameraPath path;
};

const Defaults& defaults() {
  static const Defaults d;
  return d;
}

config::Field buildCameraPathSchema() {
  const Defaults& d = defaults();
  using namespace config;
  Field keyframe = object("keyframe", {
      number("time", "Time of this keyframe; keyframe times must be strictly increasing.").inUnit("s"),
      vec3("eye", "Position of the camera.").inUnit("m"),
      vec3("target", "Point the camera looks at (must differ from `eye`).").inUnit("m"),
      vec3("up", "Which way is up on screen; need not be orthogonal to the view direction, must not be parallel "
                 "to it.").defaults(toJson(d.keyframe.up)),
      number("fov_y_deg", "Vertical field of view, in (0, 180).").inUnit("deg").atLeast(0, true).atMost(180, true)
          .defaults(d.keyframe.fovYDeg),
      number("near", "Near clip distance along the view direction (> 0).").inUnit("m").atLeast(0, true)
          .defaults(d.keyframe.near),
      number("far", "Far clip distance along the view direction (> near); nothing beyond it is drawn or "
                    "refined for.").inUnit("m").atLeast(0, true).defaults(d.keyframe.far),
      boolean("cut", "This keyframe starts a new segment (a jump cut): no interpolation across it; before its "
                     "time the camera holds the previous segment's end.").defaults(d.keyframe.cut),
  }, "One camera pose in time.");
  Field keyframes = array("keyframes", keyframe, "Camera poses in time order (at least one).");
  keyframes.minItems = 1;
  return object("camera", {
      integer("width", "Image width.").inUnit("px").atLeast(1).atMost(16384).defaults(d.path.width),
      integer("height", "Image height.").inUnit("px").atLeast(1).atMost(16384).defaults(d.path.height),
      enumeration("interpolation", {"linear", "smooth"},
                  "`linear`: straight lines between keyframes; `smooth`: C1 spline through them, easing in and out "
                  "at the ends of each segment.").defaults(
                      d.path.interpolation == CameraPath::Interpolation::Smooth ? "smooth" : "linear"),
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

}  // namespace

const config::Field& cameraPathSchema() {
  static const config::Field schema = buildCameraPathSchema();
  return schema;
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
