// `adacloth compare A.png B.png`: are two images the same within a tolerance? Used by regression checks.
#include <cstdio>
#include <cstdlib>

#include "app/args.h"
#include "app/commands.h"
#include "io/error.h"
#include "render/compare.h"
#include "render/png.h"

namespace adacloth {
namespace {

double parseShare(const Args& args) {
  const auto text = args.value("--max-share");
  if (!text) return 0.001;
  char* end = nullptr;
  const double s = std::strtod(text->c_str(), &end);
  if (text->empty() || *end || !(s >= 0 && s <= 1))
    throw InputError("adacloth compare: --max-share: expected a fraction in [0, 1], got '" + *text + "'");
  return s;
}

}  // namespace

int runCompareCommand(int argc, char** argv) {
  Args args("compare", {{"--threshold", "", true}, {"--max-share", "", true}, {"--quiet", "-q", false}}, argc, argv,
            2);
  args.expectPositionals(2, "two PNG files");
  const int threshold = args.integer("--threshold", 0, 255).value_or(16);
  const double maxShare = parseShare(args);
  const Image a = readPng(args.positionals()[0]), b = readPng(args.positionals()[1]);
  if (a.width != b.width || a.height != b.height) {
    std::printf("size differs: %dx%d vs %dx%d\nresult: DIFFERENT\n", a.width, a.height, b.width, b.height);
    return 1;
  }
  const ImageDifference d = compareImages(a, b, threshold);
  const bool same = d.shareAbove <= maxShare;
  if (!args.has("--quiet")) {
    std::printf("max difference %d, mean difference %.4f (of 255)\n", d.maxDifference, d.meanDifference);
    std::printf("pixels differing by more than %d: %ld (%.4f%%, allowed %.4f%%)\n", threshold, d.pixelsAbove,
                100.0 * d.shareAbove, 100.0 * maxShare);
    std::printf("result: %s\n", same ? "same within tolerance" : "DIFFERENT");
  }
  return same ? 0 : 1;
}

}  // namespace adacloth
