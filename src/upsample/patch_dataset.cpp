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

// Same topology (vert -> node, faces) and levels as the first folder: a different mesh would give samples whose
// outputs mean other nodes.
void checkSameMesh(const TrackedData& first, const TrackedData& d, const std::string& name,
                   const std::string& firstName) {
  bool same = d.levels == first.levels && d.coarse.nodes.size() == first.coarse.nodes.size() &&
              d.coarse.verts.size() == first.coarse.verts.size() && d.coarse.faces.size() == first.coarse.faces.size();
  for (size_t v = 0; same && v < d.coarse.verts.size(); ++v) same = d.coarse.verts[v].node == first.coarse.verts[v].node;
  for (size_t f = 0; same && f < d.coarse.faces.size(); ++f) same = d.coarse.faces[f].verts == first.coarse.faces[f].verts;
  if (!same)
    throw InputError(name + ": its coarse mesh or levels differ from those of " + firstName +
                     " (all training folders must share one coarse mesh)");
}

void appendColumns(std::string& out, const Eigen::MatrixXf& m) {
  out.append(reinterpret_cast<const char*>(m.data()), size_t(m.size()) * sizeof(float));
}

}  // namespace

size_t writePatchDataset(const std::vector<TrackedData>& data, const std::string& file,
                         const std::vector<std::string>& names, const std::vector<std::vector<char>>& keep) {
  auto kept = [&](size_t i, size_t t) { return keep.empty() || keep[i][t]; };
  if (data.empty()) throw InputError("patch dataset: no training folders");
  for (size_t i = 0; i < data.size(); ++i) {
    checkSameMesh(data.front(), data[i], nameOf(names, i), nameOf(names, 0));
    if (data[i].frames.coarse.empty()) throw InputError(nameOf(names, i) + ": no frames");
  }
  const MeshPair pair = makeMeshPair(data.front().coarse, data.front().levels);
  const PatchStencil stencil = makePatchStencil(pair);
  const Eigen::Index M = Eigen::Index(pair.coarse.nodes.size()), N = Eigen::Index(pair.sub.fine.nodes.size());
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
  for (size_t i = 0; i < data.size(); ++i) {
    size_t frames = 0;
    for (size_t t = 0; t < data[i].frames.coarse.size(); ++t) frames += kept(i, t);
    w.u64(frames);
  }
  // Columns of the feature matrices are samples, so their column-major storage is the row-major file layout.
  std::string inputs, targets;
  Eigen::MatrixXf x;
  std::vector<PatchFrame> frames;
  size_t samples = 0;
  for (size_t i = 0; i < data.size(); ++i) {
    const TrainingSequence& seq = data[i].frames;
    for (size_t t = 0; t < seq.coarse.size(); ++t) {
      if (seq.coarse[t].rows() != M || seq.fine[t].rows() != N)
        throw InputError(nameOf(names, i) + ": frame " + std::to_string(t) + " has " +
                         std::to_string(seq.coarse[t].rows()) + " coarse and " + std::to_string(seq.fine[t].rows()) +
                         " fine nodes, the meshes have " + std::to_string(M) + " and " + std::to_string(N));
      if (!kept(i, t)) continue;
      patchInputs(stencil, seq.coarse[t], seq.coarse[t >= 1 ? t - 1 : 0], seq.coarse[t >= 2 ? t - 2 : 0], x, frames);
      appendColumns(inputs, x);
      const Eigen::MatrixX3d predicted = pair.sub.midpoint * seq.coarse[t];
      appendColumns(targets, patchTargets(stencil, frames, seq.fine[t], predicted));
      samples += size_t(stencil.faceCount());
    }
  }
  w.raw(inputs);
  w.raw(targets);
  writeFileAtomically(file, w.bytes());
  return samples;
}

}  // namespace adacloth
