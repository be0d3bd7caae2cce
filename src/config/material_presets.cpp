#include "config/material_presets.h"

#include <algorithm>

namespace adacloth {

namespace fs = std::filesystem;

std::vector<fs::path> materialPresetDirs(const fs::path& shotFile) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  fs::path dir = fs::absolute(shotFile, ec).parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_directory(dir / "conf" / "materials", ec)) {
      dirs.push_back(dir / "conf" / "materials");
      break;
    }
    if (dir == dir.parent_path()) break;
  }
  fs::path builtIn = fs::path(ADACLOTH_SOURCE_DIR) / "conf" / "materials";
  if (fs::is_directory(builtIn, ec) && (dirs.empty() || !fs::equivalent(dirs[0], builtIn, ec)))
    dirs.push_back(builtIn);
  return dirs;
}

std::optional<fs::path> findMaterialPreset(const std::string& name, const fs::path& shotFile) {
  // A preset name is a plain file stem: no path separators, so a shot cannot reach outside the preset folders.
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos || name[0] == '.')
    return std::nullopt;
  std::error_code ec;
  for (const fs::path& dir : materialPresetDirs(shotFile))
    if (fs::is_regular_file(dir / (name + ".json"), ec)) return dir / (name + ".json");
  return std::nullopt;
}

std::vector<std::string> materialPresetNames(const fs::path& shotFile) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::path& dir : materialPresetDirs(shotFile))
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace adacloth
