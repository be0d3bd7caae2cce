#pragma once
// What `adacloth simulate` left in an output folder (docs/design.md §8), as `render` needs it: the resolved shot (fps,
// camera, cloth names and their view settings), which frames exist, and the mesh files of a frame.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "view/view_factor.h"

namespace adacloth {

struct ShotOutput {
  std::filesystem::path folder;
  double fps = 24.0;                                // frames per second (frame f is at time f / fps)
  std::optional<std::filesystem::path> camera;      // the shot's camera path, absolute
  std::vector<std::string> cloths;                  // cloth names, in shot order
  std::vector<ViewFactorOptions> clothViews;        // per cloth: its `view` settings (a cloth without one: defaults)
  std::vector<int> frames;                          // frames whose first cloth's OBJ exists, ascending
};

// Reads OUT/shot.resolved.json and lists OUT/frames. A missing folder, resolved shot or frame is an InputError.
ShotOutput readShotOutput(const std::filesystem::path& out);

// The frames of one cloth in OUT/frames (files <cloth>_<frame:05d>.obj), ascending; none when the folder is missing.
std::vector<int> listClothFrames(const std::filesystem::path& out, const std::string& cloth);

// OUT/frames/<cloth>_<frame:05d>.obj
std::filesystem::path clothFrameFile(const std::filesystem::path& out, const std::string& cloth, int frame);
// The obstacle meshes to draw at a frame: for every obstacle name in OUT/obstacles/<name>_<frame:05d>.obj, its file
// of the latest frame at or before `frame` (simulate writes still obstacles at frame 0 only, moving ones at every
// frame). Sorted by name; none when the folder does not exist.
std::vector<std::filesystem::path> obstacleFrameFiles(const std::filesystem::path& out, int frame);
// OUT/render/<frame:05d>.png
std::filesystem::path renderFrameFile(const std::filesystem::path& out, int frame);

// Edge length range (m) over the given frames from OUT/stats.jsonl (min of min_edge, max of max_edge over all
// cloths), or nothing when the file or the entries are missing.
std::optional<std::pair<double, double>> edgeLengthRangeFromStats(const std::filesystem::path& out, int firstFrame,
                                                                  int lastFrame);

}  // namespace adacloth
