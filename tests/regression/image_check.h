#pragma once
// A rendered frame against its reference PNG, with the project's image metric (render/compare.h): the share of
// pixels whose largest channel difference exceeds a threshold.
#include <filesystem>
#include <optional>
#include <string>

#include "regression/scene_list.h"

namespace adacloth::regression {

// Nothing when `measured` matches `reference` within the scene's image tolerances, else one message naming the
// scene, the frame and the measured difference (or the size mismatch, or the missing reference).
std::optional<std::string> checkFrameImage(const std::string& scene, int frame,
                                           const std::filesystem::path& reference,
                                           const std::filesystem::path& measured, const Tolerances& tolerances);

}  // namespace adacloth::regression
