#pragma once
// Camera path files (cameras/*.json, docs/camera-format.md): their schema, reading and validation into a CameraPath
// (view/camera_path.h).
#include <filesystem>
#include <optional>

#include "config/schema.h"
#include "view/camera_path.h"

namespace adacloth {

struct Shot;

// The schema of a camera path file (docs/camera-format.md is generated from it: `adacloth render --camera-schema`).
const config::Field& cameraPathSchema();

// Reads and validates a camera path. Every problem is an InputError "<file>: <json pointer>: <what>": schema
// errors (types, unknown keys, fov outside (0, 180), near <= 0, sizes <= 0, no keyframe) and the checks the schema
// cannot express (near < far, eye != target, up not parallel to the view direction, times strictly increasing).
CameraPath loadCameraPath(const std::filesystem::path& file);
// The same from text; `file` names it in messages and relative paths resolve against its folder.
CameraPath parseCameraPath(const std::string& text, const std::filesystem::path& file);

// The camera path a shot names (its "camera" key), loaded and validated, or nothing when the shot has none.
// A camera file that does not exist is an InputError naming the shot and /camera.
std::optional<CameraPath> loadShotCamera(const Shot& shot);

}  // namespace adacloth
