#pragma once
// Checkpoints of a run (docs/design.md §8): everything the frame loop carries from one frame to the next, so that a
// run resumed from one writes the same bytes as a run that was never interrupted.
//
// What is saved: the scene's time and, per cloth, the mesh's source of truth (verts with material coordinates and
// their nodes, node positions and velocities, faces), the dynamics time, the handles with the nodes they hold and
// their anchors or surface bindings, the solver's memory (the last two steps' dv for the warm start, the multigrid
// hierarchy while it is reused, solver auto's mode and the frame's pcg counts) and the view memory's cells
// (view/view_memory.h). What is not: everything derived
// from those (adjacency, geometry, masses, springs, strain limits: rebuilt exactly by the same code), and caches
// whose answers do not depend on their history (collision trees, obstacle poses, the direct solver's analysis). The
// one cache that does is the obstacle field of
// the step's contacts, whose trees keep the shape of the poses they were built at: the checkpoint records that time
// and the restore rebuilds the field there.
//
// File: "ADACKPT\n", format version (u32), simulation fingerprint (u64), frame (i32), payload size (u64), FNV-1a
// checksum of the payload (u64), payload (io/binary_stream.h encoding).
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "app/scene.h"
#include "config/shot.h"

namespace adacloth {

// Identifies the simulation a checkpoint belongs to: the resolved shot without the keys that do not change the
// simulated state (`frames`, `checkpoint`), whether view-dependent refinement is on (`--no-view`), and what the
// files the shot names gave `scene` as built (cloth meshes, obstacles at time 0), so that an edited mesh file is
// noticed too. Call it on the scene as buildScene left it.
uint64_t simulationFingerprint(const Shot& shot, Scene& scene, bool view);

// The state of `scene` after frame `frame` as the bytes of a checkpoint file.
std::string encodeCheckpoint(const Scene& scene, int frame, uint64_t fingerprint);

// The frame a checkpoint was written after; checks magic, version, checksum and fingerprint. Throws InputError
// naming `file` and what is wrong (not a checkpoint, corrupt, another simulation).
int checkpointFrame(const std::string& bytes, const std::string& file, uint64_t fingerprint);

// Puts a checkpoint's state into `scene`, which must be freshly built from the same shot (buildScene). Returns the
// frame. Throws InputError naming `file` when the bytes are corrupt or do not fit the scene; `scene` is then
// unusable.
int restoreCheckpoint(const std::string& bytes, const std::string& file, uint64_t fingerprint, Scene& scene);

// The same for the payload alone (no header, no checksum): what restoreCheckpoint checks once the header holds, and
// what the fuzz target exercises. Throws BinaryFormatError or InputError.
void restorePayload(const std::string& bytes, size_t offset, const std::string& file, Scene& scene);

// OUT/checkpoints/frame_<frame:05d>.ckpt
std::filesystem::path checkpointFile(const std::filesystem::path& out, int frame);

// The checkpoint files in OUT/checkpoints with their frames, oldest first. Temporary files of an interrupted write
// are not listed.
std::vector<std::pair<int, std::filesystem::path>> listCheckpoints(const std::filesystem::path& out);

// Writes the checkpoint of `frame` atomically, then removes all but the newest `keep` checkpoint files.
void writeCheckpoint(const std::filesystem::path& out, const Scene& scene, int frame, uint64_t fingerprint, int keep);

}  // namespace adacloth
