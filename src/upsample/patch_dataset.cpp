#include "upsample/patch_dataset.h"

#include "io/atomic_file.h"
#include "io/error.h"
#include "upsample/patch_stencil.h"

namespace adacloth {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "patch datasets are little-endian f32");

std::string nameOf(const std::vector<std::string>& names, size_t i) {
  return i < names.size() ? names[i] : "folder " + std::to_string(i + 1);
}


void appendColumns(std::string& out, const Eigen::MatrixXf& m) {
  out.append(reinterpret_cast<const char*>(m.data()), size_t(m.size()) * sizeof(float));
}

}  // namespace

size_t writePatchDataset(const std::vector<TrackedData>& data, const std::string& file,
                         const std::vector<std::string>& names, double maxResidual, std::vector<size_t>* framesKept) {
  if (data.empty()) throw InputError("patch dataset: no training folders");
  const MeshPair pair = makeMeshPair(data.front().coarse, data.front().levels);
  for (size_t i = 0; i < data.size(); ++i) {
    // Same topology and levels as the first folder: a different mesh would give samples whose outputs mean other
    // nodes.
    const std::string bad = meshPairMismatch(pair, data[i].coarse, data[i].levels);
    if (!bad.empty())
      throw InputError(nameOf(names, i) + ": its coarse mesh or levels differ from those of " + nameOf(names, 0) +
                       " (" + bad + "; all training folders must share one coarse mesh)");
    if (data[i].frames.coarse.empty()) throw InputError(nameOf(names, i) + ": no frames");
  }
  const PatchStencil stencil = makePatchStencil(pair);
  const Eigen::Index M = Eigen::Index(pair.coarse.nodes.size()), N = Eigen::Index(pair.sub.fine.nodes.size());
  // Columns of the feature matrices are samples, so their column-major storage is the row-major file layout.
  std::string inputs, targets;
  Eigen::MatrixXf x;
  std::vector<PatchFrame> frames;
  std::vector<size_t> kept(data.size(), 0);
  for (size_t i = 0; i < data.size(); ++i) {
    const TrainingSequence& seq = data[i].frames;
    for (size_t t = 0; t < seq.coarse.size(); ++t) {
      if (seq.coarse[t].rows() != M || seq.fine[t].rows() != N)
        throw InputError(nameOf(names, i) + ": frame " + std::to_string(t) + " has " +
                         std::to_string(seq.coarse[t].rows()) + " coarse and " + std::to_string(seq.fine[t].rows()) +
                         " fine nodes, the meshes have " + std::to_string(M) + " and " + std::to_string(N));
      const Eigen::MatrixX3d predicted = pair.sub.midpoint * seq.coarse[t];
      if (!frameWithin(predicted, seq.fine[t], maxResidual)) continue;
      patchInputs(stencil, seq.coarse[t], seq.coarse[frameBefore(t, 1)], seq.coarse[frameBefore(t, 2)], x, frames);
      appendColumns(inputs, x);
      appendColumns(targets, patchTargets(stencil, frames, seq.fine[t], predicted));
      ++kept[i];
    }
  }
  BinaryWriter mesh;
  writeMeshPair(mesh, pair);
  BinaryWriter w;
  w.raw(std::string(kPatchDatasetMagic, 8));
  w.u32(kPatchDatasetVersion);
  w.u64(mesh.bytes().size());
  w.raw(mesh.bytes());
  w.u32(kPatchInputs);
  w.u32(uint32_t(3 * stencil.nodesPerFace));
  w.u32(uint32_t(stencil.faceCount()));
  w.u32(uint32_t(data.size()));
  size_t samples = 0;
  for (size_t k : kept) w.u64(k), samples += k * size_t(stencil.faceCount());
  w.raw(inputs);
  w.raw(targets);
  writeFileAtomically(file, w.bytes());
  if (framesKept) *framesKept = kept;
  return samples;
}

}  // namespace adacloth
