#pragma once
// The frame loop of `adacloth simulate`: phases per frame, output folder, stats.jsonl, progress.
#include <filesystem>
#include <functional>

#include "app/frame_report.h"
#include "app/progress.h"
#include "app/scene.h"
#include "config/shot.h"

namespace adacloth {

struct RunOptions {
  std::filesystem::path out;     // output folder (docs/design.md §8 layout)
  int frames = 0;                // frames to simulate after frame 0
  Progress::Mode progress = Progress::Mode::Auto;
  bool view = true;              // false (`--no-view`): ignore every cloth's `view`, simulate view-independently
  bool resume = false;           // continue from the newest checkpoint in OUT/checkpoints (`--resume`)
  std::string groupRecord;       // text of OUT/group.json when the run is part of a shot (`--cloths`), else empty
};

// Clears what an earlier run left in `out` (frames, obstacles, stats, checkpoints, renders, movie, contact sheet,
// stats plot, the group record; nothing else) and creates the layout.
void prepareOutputFolder(const std::filesystem::path& out);

// Output file of one cloth at one frame: OUT/frames/<cloth>_<frame:05d>.obj.
std::filesystem::path frameFile(const std::filesystem::path& out, const std::string& cloth, int frame);

// Fixed-topology output of one cloth at one frame (`upsample`): OUT/frames/<cloth>_out_<frame:05d>.obj.
std::filesystem::path upsampledFrameFile(const std::filesystem::path& out, const std::string& cloth, int frame);

// A change of a scene's cloths made inside a step (see stepScene).
using SceneEdit = std::function<void(Scene&)>;

// One physics step (index `step` of frame `frame`, starting at scene.time + step * stepTime): every cloth's implicit
// step, the blow-up guard (SimulationError naming frame, cloth and node), then the collision phase. Does not advance
// scene.time and does not update face geometry (the frame loop does both once per frame). Adds its times and counters
// to `report` (one ClothCounters per cloth). Used by `upsample track`, which runs two scenes in lockstep.
// `beforeContact`, when given, runs after the solves of the step's last substep and before its collision phase: what
// it moves is part of the motion the contact pass checks (the step's CCD goes from the start of the step to there).
// `upsample track` projects the fine cloth onto the coarse one there: projected after the step instead, the move was
// never checked, and it carried the fine skirt through the body (docs/upsampling.md).
void stepScene(const Shot& shot, Scene& scene, int frame, int step, FrameReport& report,
               const SceneEdit& beforeContact = nullptr);

// Runs the shot, writing a checkpoint every `shot.checkpoint.every` frames and after the last. With
// `options.resume`, first restores the newest checkpoint in OUT (none: starts at frame 0) and continues after its
// frame, keeping the frames and stats lines up to it; the result is byte-identical to an uninterrupted run (but for
// wall times). Throws InputError (nothing touched) when the checkpoint is corrupt, of another simulation, or OUT's
// stats do not reach its frame; SimulationError when the state becomes invalid (every frame written before stays).
void simulateShot(const Shot& shot, Scene& scene, const RunOptions& options);

}  // namespace adacloth
