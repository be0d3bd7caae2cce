// `adacloth contact-sheet OUT`: the rendered frames of OUT/render (or of the --from folders, side by side) as one
// grid of thumbnails.
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

std::vector<fs::path> renderedFrames(const fs::path& folder, const fs::path& out) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".png") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw InputError(folder.string() + ": no rendered frames (run 'adacloth render " + out.string() + "' first)");
  return files;
}

// The folders of --from (comma-separated; relative ones inside OUT), or OUT/render.
std::vector<fs::path> sourceFolders(const Args& args, const fs::path& out) {
  const std::optional<std::string> from = args.value("--from");
  if (!from) return {out / "render"};
  std::vector<fs::path> folders;
  size_t start = 0;
  while (start <= from->size()) {
    const size_t comma = std::min(from->find(',', start), from->size());
    const fs::path name = from->substr(start, comma - start);
    if (name.empty())
      throw InputError("adacloth contact-sheet: --from: expected folder names separated by commas, got '" + *from +
                       "'");
    folders.push_back(name.is_absolute() ? name : out / name);
    start = comma + 1;
  }
  return folders;
}

}  // namespace

int runContactSheetCommand(int argc, char** argv) {
  Args args("contact-sheet",
            {{"--output", "-o", true}, {"--columns", "", true}, {"--count", "", true}, {"--thumb-width", "", true},
             {"--from", "", true}},
            argc, argv, 2);
  args.expectPositionals(1, "one output folder");
  const fs::path out = args.positionals()[0];
  // With several folders (e.g. the material and the view-factor rendering of the same frames) each chosen frame is
  // shown once per folder, side by side, in the order given: every folder must hold the first folder's frames.
  const std::vector<fs::path> folders = sourceFolders(args, out);
  const std::vector<fs::path> all = renderedFrames(folders.front(), out);
  for (size_t f = 1; f < folders.size(); ++f) renderedFrames(folders[f], out);
  // Up to --count frames evenly spread over the shot, always including the first and the last.
  const int count = std::min(int(all.size()), args.integer("--count", 1, 10000).value_or(24));
  std::vector<Image> frames;
  for (int i = 0; i < count; ++i) {
    const size_t index = count == 1 ? 0 : size_t(std::lround(double(i) * (all.size() - 1) / (count - 1)));
    for (const fs::path& folder : folders) {
      const fs::path file = folder / all[index].filename();
      if (!fs::is_regular_file(file))
        throw InputError(file.string() + ": missing (every --from folder needs the frames of " +
                         folders.front().string() + ")");
      frames.push_back(readPng(file));
    }
  }
  ContactSheetOptions options;
  const int perRow = std::max(1, 6 / int(folders.size())) * int(folders.size());
  options.columns = args.integer("--columns", 1, 100).value_or(perRow);
  options.thumbWidth = args.integer("--thumb-width", 8, 4096).value_or(240);
  const fs::path file = args.value("--output").value_or((out / "contact_sheet.png").string());
  writePng(contactSheet(frames, options), file, 6);
  std::printf("%s: %d of %zu frames", file.string().c_str(), count, all.size());
  if (folders.size() > 1) std::printf(", from %zu folders side by side", folders.size());
  std::printf("\n");
  return 0;
}

}  // namespace adacloth
