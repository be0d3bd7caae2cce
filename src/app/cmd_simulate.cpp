#include <omp.h>

#include <cstdio>

#include "app/args.h"
#include "app/commands.h"
#include "app/scene.h"
#include "app/simulate.h"
#include "config/camera_file.h"
#include "config/shot_part.h"
#include "view/camera_path.h"

namespace adacloth {
namespace {

// `--cloths A,B` and `--obstacles C,D`: the part of the shot to simulate (one cloth group of a farm run), or nothing
// when neither is given.
std::optional<ShotPart> requestedPart(const Args& args, const Shot& shot) {
  if (!args.has("--cloths") && !args.has("--obstacles")) return std::nullopt;
  ShotPart part;
  if (auto list = args.value("--cloths")) part.cloths = splitNames(*list, "--cloths");
  else
    for (const ClothSpec& c : shot.cloths) part.cloths.push_back(c.name);
  if (auto list = args.value("--obstacles")) part.obstacles = splitNames(*list, "--obstacles");
  return part;
}

}  // namespace

int runSimulateCommand(int argc, char** argv) {
  Args args("simulate",
            {{"--out", "-o", true}, {"--frames", "", true}, {"--threads", "", true}, {"--quiet", "-q", false},
             {"--no-view", "", false}, {"--resume", "", false}, {"--checkpoint-every", "", true},
             {"--cloths", "", true}, {"--obstacles", "", true}},
            argc, argv, 2);
  args.expectPositionals(1, "one shot file");
  std::optional<int> frames = args.integer("--frames", 0, 10000000);
  std::optional<int> threads = args.integer("--threads", 1, 1024);
  std::optional<int> checkpointEvery = args.integer("--checkpoint-every", 0, 10000000);

  // Everything is read and checked before the output folder is touched: bad input leaves nothing behind.
  Shot shot = loadShot(args.positionals()[0]);
  if (checkpointEvery) shot.checkpoint.every = *checkpointEvery;
  RunOptions options;
  if (const std::optional<ShotPart> part = requestedPart(args, shot)) {
    const Shot whole = shot;
    shot = selectShotPart(whole, *part);
    options.groupRecord = groupRecord(whole, shot).dump(2) + "\n";
  }
  Scene scene = buildScene(shot);
  loadShotCamera(shot);  // a broken camera file is bad input too: reject it before writing anything

  options.out = args.value("--out").value_or("out/" + shot.name);
  options.frames = frames.value_or(shot.frames);
  options.progress = args.has("--quiet") ? Progress::Mode::Quiet : Progress::Mode::Auto;
  options.view = !args.has("--no-view");
  options.resume = args.has("--resume");
  if (threads) omp_set_num_threads(*threads);

  simulateShot(shot, scene, options);
  if (!args.has("--quiet"))
    std::fprintf(stderr, "frames: %s\n", (options.out / "frames").string().c_str());
  return 0;
}

}  // namespace adacloth
