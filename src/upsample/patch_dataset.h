#pragma once
// Training samples of the patch-wise MLP upsampler (patch_mlp.h), for tools/train_patch_mlp.py: every face of every
// frame of every tracked training folder is one sample (frames before the first repeat the first frame), with the
// unstandardized inputs and targets of patch_stencil.h. The trainer computes the normalization itself and copies the
// mesh pair block into the model file it writes, which is then self-contained.
//
// File (little-endian, no padding; an intermediate file: no checksum, its exact size is checked instead):
//   magic[8] "ADCPMLPD", u32 version (2: 119 inputs; version 1 had 54), u64 B, B bytes of mesh pair (writeMeshPair),
//   u32 I (inputs per sample, kPatchInputs), u32 O (outputs per sample, 3 x patchNodeCount(levels)),
//   u32 F (coarse faces),
//   u32 S (sequences), u64 frames[S],
//   f32 inputs[n][I], f32 targets[n][O] with n = F x (frames[0] + ... + frames[S-1]) samples ordered by sequence,
//   then frame, then face.
// Inputs are positions (m) in the face's local frame and the face's rest lengths and material coordinates (m),
// targets displacements (m) from the barycentric prediction.
#include <string>
#include <vector>

#include "upsample/training_data.h"

namespace adacloth {

inline constexpr char kPatchDatasetMagic[8] = {'A', 'D', 'C', 'P', 'M', 'L', 'P', 'D'};
inline constexpr uint32_t kPatchDatasetVersion = 2;

// Writes the samples of all folders (atomically) and returns their count. With `maxResidual` > 0 (m), a frame with a
// fine node farther than that from barycentric gives no samples (training_data.h, frameWithin; it still serves as
// an earlier frame of the next ones), frames[i] in the file counts the frames written, and `framesKept` (when given)
// gets that count per folder. The folders must share one coarse mesh
// (same verts, nodes, faces) and level count: InputError naming the folder (`names[i]`, or "folder i") otherwise,
// and for a folder without frames or with fine frames of the wrong size.
size_t writePatchDataset(const std::vector<TrackedData>& data, const std::string& file,
                         const std::vector<std::string>& names = {}, double maxResidual = 0,
                         std::vector<size_t>* framesKept = nullptr);

}  // namespace adacloth
