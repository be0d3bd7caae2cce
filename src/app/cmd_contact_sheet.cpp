// `adacloth contact-sheet OUT`: the rendered frames of OUT/render as one grid of thumbnails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/args.h"
#include "app/commands.h"
#include "io/error.h"
#include "render/contact_sheet.h"
#include "render/png.h"

namespace adacloth {

namespace fs = std::filesystem;
namespace {

std::vector<fs::path> renderedFrames(const fs::path& out) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out / "render", ec))
    if (entry.path().extension() == ".png") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw InputError((out / "render").string() + ": no rendered frames (run 'adacloth render " + out.string() +
                     "' first)");
  return files;
}

}  // namespace

int runContactSheetCommand(int argc, char** argv) {
  Args args("contact-sheet",
            {{"--output", "-o", true}, {"--columns", "", true}, {"--count", "", true}, {"--thumb-width", "", true}},
            argc, argv, 2);
  args.expectPositionals(1, "one output folder");
  const fs::path out = args.positionals()[0];
  const std::vector<fs::path> all = renderedFrames(out);
  // Up to --count frames evenly spread over the shot, always including the first and the last.
  const int count = std::min(int(all.size()), args.integer("--count", 1, 10000).value_or(24));
  std::vector<Image> frames;
  for (int i = 0; i < count; ++i) {
    const size_t index = count == 1 ? 0 : size_t(std::lround(double(i) * (all.size() - 1) / (count - 1)));
    frames.push_back(readPng(all[index]));
  }
  ContactSheetOptions options;
  options.columns = args.integer("--columns", 1, 100).value_or(6);
  options.thumbWidth = args.integer("--thumb-width", 8, 4096).value_or(240);
  const fs::path file = args.value("--output").value_or((out / "contact_sheet.png").string());
  writePng(contactSheet(frames, options), file, 6);
  std::printf("%s: %d of %zu frames\n", file.string().c_str(), count, all.size());
  return 0;
}

}  // namespace adacloth
