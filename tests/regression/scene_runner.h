#pragma once
// Runs one regression scene end to end and checks it: simulate at each thread count, summarize the first run (with
// the NaN check), require identical bytes from the other runs, render the chosen frames, and compare summary and
// images with the references in tests/regression/<scene>/ -- or, in refresh mode, rewrite those references.
#include <string>
#include <vector>

#include "regression/scene_list.h"

namespace adacloth::regression {

struct SceneOutcome {
  std::vector<std::string> failures;  // every problem found; empty: the scene passes
  std::vector<std::string> notes;     // what was run and how long it took; in refresh mode, what changed
};

// Checks the scene against its references.
SceneOutcome checkScene(const SceneSpec& scene);

// Rewrites tests/regression/<scene>/summary.json and frame_<n>.png from a fresh run (removing frame PNGs no longer
// listed) and notes what moved compared with the old references. Failures are what makes a run unfit to be a
// reference: a simulation error, a non-finite value, a difference between thread counts.
SceneOutcome refreshScene(const SceneSpec& scene);

// True when the environment asks for a refresh (ADACLOTH_REFRESH_REGRESSION=1): tools/refresh-regression.sh.
bool refreshRequested();

}  // namespace adacloth::regression
