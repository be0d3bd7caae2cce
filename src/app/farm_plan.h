#pragma once
// The work of `adacloth farm` (docs/farm.md): per shot, its cloth groups (app/cloth_groups.h) and render chunks, and
// the commands of every task of every stage: simulate (one task per shot group, or per shot when it is not split),
// merge (one per split shot), render (one per chunk of frames), movie (one per shot).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/cloth_groups.h"
#include "config/schema.h"

namespace adacloth {

struct FarmOptions {
  std::filesystem::path dir;          // FARM_DIR, absolute; empty for `farm plan` without -o
  std::optional<int> frames;          // --frames: frames after frame 0, for every shot (default: each shot's)
  int renderChunk = 24;               // frames per render task
  bool render = true;                 // --no-render: simulate (and merge) only
  bool movie = true;                  // --no-movie: no movie stage
  std::optional<int> renderWidth;     // --render-width: image width in pixels (height keeps the camera's aspect)
  ReachModel reach = ReachModel::Predicted;  // --conservative: ReachModel::Conservative
};

struct ShotPlan {
  std::filesystem::path file;          // the shot file, absolute
  std::string name;
  int frames = 0;                      // simulated after frame 0
  std::vector<std::string> clothNames, obstacleNames;  // in shot order
  Grouping grouping;
  std::vector<std::pair<int, int>> renderChunks;       // first and last frame of each render task

  bool split() const { return grouping.groups.size() > 1; }
};

struct FarmPlan {
  FarmOptions options;
  std::vector<ShotPlan> shots;
};

// One array task: the program and its arguments.
using TaskCommand = std::vector<std::string>;

struct Stage {
  std::string name;               // simulate, merge, render, movie
  std::vector<TaskCommand> tasks;     // task i runs tasks[i]
};

// Reads every shot (InputError on a bad one, or on two shots with one name: their folders would clash) and groups
// its cloths over the frames it will run.
FarmPlan planFarm(const std::vector<std::filesystem::path>& shotFiles, const FarmOptions& options);

// FARM_DIR/<shot>: the shot's output (what a single-machine run would write); FARM_DIR/groups/<shot>/g<k>: a group's.
std::filesystem::path shotOutput(const FarmPlan& plan, const ShotPlan& shot);
std::filesystem::path groupOutput(const FarmPlan& plan, const ShotPlan& shot, size_t group);

// The stages with at least one task, in order (simulate, merge, render, movie). `adacloth` is the binary's absolute
// path; `movieScript` tools/make_movie.sh's, empty for no movie stage.
std::vector<Stage> farmStages(const FarmPlan& plan, const std::string& adacloth, const std::string& movieScript);

// The plan as FARM_DIR/plan.json and as the text `farm plan` prints.
config::Json planJson(const FarmPlan& plan);
std::string planText(const FarmPlan& plan);

}  // namespace adacloth
