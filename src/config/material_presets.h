#pragma once
// Where material presets live: conf/materials/<name>.json of the repository the shot belongs to, found by walking
// up from the shot's folder, with the source tree this binary was built from (ADACLOTH_SOURCE_DIR) as a fallback.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace adacloth {

// Preset folders in search order (existing ones only).
std::vector<std::filesystem::path> materialPresetDirs(const std::filesystem::path& shotFile);

// The file of preset `name`, or nothing when no folder has it.
std::optional<std::filesystem::path> findMaterialPreset(const std::string& name, const std::filesystem::path& shotFile);

// Every preset name available to a shot, sorted (for "did you mean" and listings).
std::vector<std::string> materialPresetNames(const std::filesystem::path& shotFile);

}  // namespace adacloth
