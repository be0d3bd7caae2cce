#pragma once
// The patch-wise MLP upsampler (seed 004 §3.3; patches and features in patch_stencil.h): a small fully connected
// network, ReLU after every layer but the last (seed 004: four layers, here 119 -> 64 -> 64 -> 64 -> 3 x nodes per
// face), maps a face's standardized stencil over three frames and rest shape to the standardized displacements of
// the fine nodes in the face from the barycentric prediction. Inference runs all faces at once, one float GEMM per
// layer (faces are columns); it is single-threaded when Eigen::nbThreads() is 1 (the evaluations and benchmarks set
// it; otherwise Eigen may split a GEMM over OpenMP threads). Trained by tools/train_patch_mlp.py on the data of
// `adacloth upsample mlp-data`.
//
// Model file (little-endian, no padding), written by tools/train_patch_mlp.py and savePatchMlp:
//   magic[8] "ADCPMLP1", u32 version (2; version 1 took a one-ring stencil, 54 inputs), u64 B, B bytes of mesh pair
//   (writeMeshPair),
//   u32 L (layers), u32 width[L + 1] (width[0] = kPatchInputs = 119 inputs, width[L] = 3 x patchNodeCount(levels)
//   outputs),
//   per layer l: f32 W[width[l+1]][width[l]] (row-major, as torch.nn.Linear.weight), f32 b[width[l+1]],
//   f32 input mean[width[0]], f32 input std[width[0]], f32 output mean[width[L]], f32 output std[width[L]] (m),
//   u64 fnv1a64 of every byte before it.
// The network computes y = W_L(...relu(W_1 ((x - input mean) / input std) + b_1)...) + b_L and the displacement
// (m, local axes) is y * output std + output mean.
#include <string>
#include <vector>

#include "upsample/mesh_pair.h"
#include "upsample/patch_stencil.h"

namespace adacloth {

inline constexpr char kPatchMlpMagic[8] = {'A', 'D', 'C', 'P', 'M', 'L', 'P', '1'};
inline constexpr uint32_t kPatchMlpVersion = 2;

struct PatchMlpLayer {
  Eigen::MatrixXf W;  // outputs x inputs
  Eigen::VectorXf b;
};

// Reused buffers of PatchMlp::apply, so that a frame allocates nothing once the sizes are known.
struct PatchMlpWorkspace {
  Eigen::MatrixXf inputs, hidden[2];
  std::vector<PatchFrame> frames;
  Eigen::MatrixX3d predicted;
};

struct PatchMlp {
  MeshPair pair;
  PatchStencil stencil;
  std::vector<PatchMlpLayer> layers;  // ReLU after every layer but the last
  Eigen::VectorXf inputMean, inputStd;    // per input (m)
  Eigen::VectorXf outputMean, outputStd;  // per output (m)

  // (inputs - mean) / std, one column per patch.
  Eigen::MatrixXf standardize(const Eigen::MatrixXf& inputs) const;
  // The network on standardized inputs (one column per patch): standardized outputs.
  Eigen::MatrixXf infer(const Eigen::MatrixXf& standardizedInputs) const;
  // outputs * std + mean: displacements (m, local axes).
  Eigen::MatrixXf destandardize(const Eigen::MatrixXf& outputs) const;

  // Fine node positions (m, rows) from coarse node positions (m, rows) at the current frame and the two before
  // (at the first frames of a sequence, repeat the first frame).
  Eigen::MatrixX3d apply(const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous,
                         const Eigen::MatrixX3d& beforePrevious) const;
  void apply(const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous, const Eigen::MatrixX3d& beforePrevious,
             PatchMlpWorkspace& work, Eigen::MatrixX3d& fine) const;

  size_t coarseCount() const { return pair.coarse.nodes.size(); }
  size_t fineCount() const { return pair.sub.fine.nodes.size(); }
};

// A network over `pair` with the given hidden widths (e.g. {64, 64, 64}), all weights zero and identity
// normalization (mean 0, std 1): it predicts exactly the barycentric map until its weights are set.
PatchMlp makePatchMlp(MeshPair pair, const std::vector<int>& hiddenWidths);

// Fine positions (m) of every frame of a sequence of coarse positions (m), with the first frame repeated before it.
std::vector<Eigen::MatrixX3d> applyPatchMlp(const PatchMlp& mlp, const std::vector<Eigen::MatrixX3d>& coarse);

// Atomic write. std::invalid_argument when the sizes are inconsistent.
void savePatchMlp(const PatchMlp& mlp, const std::string& file);
// InputError naming the file for: unreadable, bad magic, other version, truncation or trailing bytes, checksum
// mismatch, a bad mesh pair, widths that do not fit the mesh (inputs != kPatchInputs, outputs != 3 x nodes per
// face), non-finite
// numbers or standard deviations <= 0.
PatchMlp loadPatchMlp(const std::string& file);

}  // namespace adacloth
