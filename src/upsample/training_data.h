#pragma once
// A tracked training sequence on disk (written by `adacloth upsample track`, read by `train` and `eval`):
//   DIR/coarse.obj   the coarse mesh at rest (v = world positions, vt = material coordinates, as every OBJ here)
//   DIR/frames.bin   magic "ADCTRACK", u32 version, u32 levels, u64 M (coarse nodes), u64 N (fine nodes),
//                    u64 F (frames), then per frame: f64 time (s), f32[M][3] coarse and f32[N][3] fine node
//                    positions (m); little-endian.
// The fine mesh is not stored: it is `levels` midpoint subdivisions of coarse.obj (subdivide.h), the same every time.
#include <filesystem>
#include <string>

#include "upsample/subdivide.h"
#include "upsample/train_operator.h"

namespace adacloth {

struct TrackedData {
  Mesh coarse;      // rest shape
  int levels = 0;   // subdivision levels from coarse to fine
  TrainingSequence frames;
  std::string failure;  // empty, or why the tracked run stopped early (frames holds the good frames before it)
};

// True when every fine node (m, rows) is within `maxResidual` (m) of its barycentric prediction (m, rows), or
// maxResidual <= 0.
bool frameWithin(const Eigen::MatrixX3d& predicted, const Eigen::MatrixX3d& fine, double maxResidual);

// Per frame of `d`: 1 when every fine node is within `maxResidual` (m) of the barycentric prediction B p_c, 0 for
// a frame with a local glitch of the fine simulation (a node thrown far off that later recovers), which a learner
// would otherwise fit as if it were detail; maxResidual <= 0 keeps every frame.
std::vector<char> framesWithin(const TrackedData& d, const SparseMatrixD& B, double maxResidual);

// `seq` without the frames whose `keep` is 0.
TrainingSequence keptFrames(const TrainingSequence& seq, const std::vector<char>& keep);

void writeTrackedData(const TrackedData& data, const std::filesystem::path& dir);
// InputError naming the file and what is wrong (missing, bad magic, truncated, sizes that do not match the mesh).
TrackedData readTrackedData(const std::filesystem::path& dir);

}  // namespace adacloth
