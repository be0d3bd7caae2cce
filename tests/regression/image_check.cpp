#include "regression/image_check.h"

#include <cstdio>

#include "render/compare.h"
#include "render/png.h"

namespace adacloth::regression {

std::optional<std::string> checkFrameImage(const std::string& scene, int frame, const std::filesystem::path& reference,
                                           const std::filesystem::path& measured, const Tolerances& tolerances) {
  const std::string where = scene + " frame " + std::to_string(frame) + ": image";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(reference, ec))
    return where + ": no reference " + reference.string() + " (run tools/refresh-regression.sh " + scene + ")";
  const Image a = readPng(reference), b = readPng(measured);
  if (a.width != b.width || a.height != b.height)
    return where + ": size " + std::to_string(b.width) + "x" + std::to_string(b.height) + " differs from reference " +
           std::to_string(a.width) + "x" + std::to_string(a.height);
  const ImageDifference d = compareImages(a, b, tolerances.imageThreshold);
  if (d.shareAbove <= tolerances.imageMaxShare) return std::nullopt;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                ": %.3f%% of pixels differ by more than %d (allowed %.3f%%), max difference %d, mean %.3f (of 255)",
                100.0 * d.shareAbove, tolerances.imageThreshold, 100.0 * tolerances.imageMaxShare, d.maxDifference,
                d.meanDifference);
  return where + buf + " vs " + reference.filename().string();
}

}  // namespace adacloth::regression
