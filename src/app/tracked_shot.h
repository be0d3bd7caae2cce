#pragma once
// Tracked training simulations for learned upsampling (docs/design.md §7, seed 000 §4): one cloth of a shot simulated
// twice in lockstep, on a coarse mesh and on its midpoint subdivision, with the fine positions and velocities projected
// after every step onto the tracking constraint (its lowest harmonics follow the coarse simulation).
#include <filesystem>
#include <optional>

#include "app/progress.h"
#include "config/shot.h"
#include "upsample/training_data.h"

namespace adacloth {

struct TrackOptions {
  std::string cloth;              // the cloth to track; empty: the shot's only cloth
  int levels = 3;                 // midpoint subdivision levels from the coarse to the fine mesh
  int testFunctions = 60;         // harmonics in the tracking constraint (T of seed 000)
  int frames = -1;                // frames after frame 0; -1: the shot's
  std::optional<std::array<int, 2>> coarseCells;  // replaces the cloth's grid cells (grid meshes only)
  std::optional<std::filesystem::path> coarseMesh; // replaces the cloth's mesh by this OBJ (placed by its transform)
  // m: moves every fine node by up to this much at the start (a fixed pseudo-random pattern), the coarse run left
  // bit for bit as it is: a twin of a run whose coarse motion never parts from it, so `upsample twin` measures how
  // much of the fine detail no predictor from the coarse motion can know (docs/upsampling.md).
  double finePerturbation = 0;
  Progress::Mode progress = Progress::Mode::Auto;
};

// Runs the shot's dynamics for the chosen cloth only (other cloths are dropped, remeshing and view refinement are
// off, obstacles and wind stay). Handles must select by region or points (material coordinates), which mean the
// same on both meshes; node-index handles are an InputError. Returns frames 0..frames.
TrackedData runTrackedShot(const Shot& shot, const TrackOptions& options);

}  // namespace adacloth
