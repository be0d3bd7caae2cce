#include "upsample/patch_mlp.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "patch-MLP files are little-endian f32");

constexpr uint32_t kMaxLayers = 16;
constexpr uint32_t kMaxWidth = 1 << 14;

void putFloats(BinaryWriter& w, const float* data, size_t count) {
  w.raw(std::string(reinterpret_cast<const char*>(data), count * sizeof(float)));
}

// `count` floats, refusing non-finite ones (and, with `positive`, values <= 0) by name.
void getFloats(BinaryReader& r, float* data, size_t count, const std::string& what, bool positive = false) {
  const std::string bytes = r.raw(count * sizeof(float), what.c_str());
  std::memcpy(data, bytes.data(), bytes.size());
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) r.fail(what + " has a non-finite value at index " + std::to_string(i));
    if (positive && !(data[i] > 0)) r.fail(what + " has a value <= 0 at index " + std::to_string(i));
  }
}

std::vector<uint32_t> widthsOf(const PatchMlp& mlp) {
  std::vector<uint32_t> widths;
  if (mlp.layers.empty()) return widths;
  widths.push_back(uint32_t(mlp.layers.front().W.cols()));
  for (const PatchMlpLayer& l : mlp.layers) widths.push_back(uint32_t(l.W.rows()));
  return widths;
}

// Payload bytes after the widths: weights, biases and normalization.
uint64_t parameterBytes(const std::vector<uint32_t>& widths) {
  uint64_t floats = 2 * uint64_t(widths.front()) + 2 * uint64_t(widths.back());
  for (size_t l = 0; l + 1 < widths.size(); ++l) floats += uint64_t(widths[l + 1]) * (widths[l] + 1);
  return floats * sizeof(float);
}

void reluInPlace(Eigen::MatrixXf& m) { m = m.cwiseMax(0.0f); }

// layer(x) into `out` (resized only when the patch count changes).
void layerInto(const PatchMlpLayer& layer, const Eigen::MatrixXf& in, Eigen::MatrixXf& out) {
  out.resize(layer.W.rows(), in.cols());
  out.noalias() = layer.W * in;
  out.colwise() += layer.b;
}

// The layers on standardized inputs `x` (one column per patch), ReLU after all but the last, through the two
// buffers of `hidden`; returns the one that holds the standardized outputs.
const Eigen::MatrixXf& runLayers(const std::vector<PatchMlpLayer>& layers, const Eigen::MatrixXf& x,
                                 Eigen::MatrixXf (&hidden)[2]) {
  const Eigen::MatrixXf* in = &x;
  for (size_t l = 0; l < layers.size(); ++l) {
    Eigen::MatrixXf& out = hidden[l % 2];
    layerInto(layers[l], *in, out);
    if (l + 1 < layers.size()) reluInPlace(out);
    in = &out;
  }
  return *in;
}

}  // namespace

Eigen::MatrixXf PatchMlp::standardize(const Eigen::MatrixXf& inputs) const {
  return (inputs.colwise() - inputMean).array().colwise() / inputStd.array();
}

Eigen::MatrixXf PatchMlp::infer(const Eigen::MatrixXf& standardizedInputs) const {
  Eigen::MatrixXf hidden[2];
  return runLayers(layers, standardizedInputs, hidden);
}

Eigen::MatrixXf PatchMlp::destandardize(const Eigen::MatrixXf& outputs) const {
  return (outputs.array().colwise() * outputStd.array()).colwise() + outputMean.array();
}

Eigen::MatrixX3d PatchMlp::apply(const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous,
                                 const Eigen::MatrixX3d& beforePrevious) const {
  PatchMlpWorkspace work;
  Eigen::MatrixX3d fine;
  apply(now, previous, beforePrevious, work, fine);
  return fine;
}

void PatchMlp::apply(const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous,
                     const Eigen::MatrixX3d& beforePrevious, PatchMlpWorkspace& work, Eigen::MatrixX3d& fine) const {
  const size_t M = coarseCount();
  if (size_t(now.rows()) != M || size_t(previous.rows()) != M || size_t(beforePrevious.rows()) != M)
    throw std::invalid_argument("PatchMlp::apply: " + std::to_string(M) + " coarse nodes expected");
  patchInputs(stencil, now, previous, beforePrevious, work.inputs, work.frames);
  work.inputs = standardize(work.inputs);
  const Eigen::MatrixXf& out = runLayers(layers, work.inputs, work.hidden);
  work.predicted.noalias() = pair.sub.midpoint * now;
  fine = patchOutputsToFine(stencil, work.frames, destandardize(out), work.predicted);
}

PatchMlp makePatchMlp(MeshPair pair, const std::vector<int>& hiddenWidths) {
  PatchMlp mlp;
  mlp.stencil = makePatchStencil(pair);
  mlp.pair = std::move(pair);
  std::vector<int> widths = {kPatchInputs};
  widths.insert(widths.end(), hiddenWidths.begin(), hiddenWidths.end());
  widths.push_back(3 * mlp.stencil.nodesPerFace);
  for (size_t l = 0; l + 1 < widths.size(); ++l)
    mlp.layers.push_back({Eigen::MatrixXf::Zero(widths[l + 1], widths[l]), Eigen::VectorXf::Zero(widths[l + 1])});
  mlp.inputMean = Eigen::VectorXf::Zero(widths.front());
  mlp.inputStd = Eigen::VectorXf::Ones(widths.front());
  mlp.outputMean = Eigen::VectorXf::Zero(widths.back());
  mlp.outputStd = Eigen::VectorXf::Ones(widths.back());
  return mlp;
}

std::vector<Eigen::MatrixX3d> applyPatchMlp(const PatchMlp& mlp, const std::vector<Eigen::MatrixX3d>& coarse) {
  std::vector<Eigen::MatrixX3d> fine(coarse.size());
  PatchMlpWorkspace work;
  for (size_t t = 0; t < coarse.size(); ++t)
    mlp.apply(coarse[t], coarse[frameBefore(t, 1)], coarse[frameBefore(t, 2)], work, fine[t]);
  return fine;
}

void savePatchMlp(const PatchMlp& mlp, const std::string& file) {
  const std::vector<uint32_t> widths = widthsOf(mlp);
  if (widths.empty() || widths.front() != uint32_t(kPatchInputs) ||
      widths.back() != uint32_t(3 * mlp.stencil.nodesPerFace) || size_t(mlp.inputMean.size()) != widths.front() ||
      size_t(mlp.inputStd.size()) != widths.front() || size_t(mlp.outputMean.size()) != widths.back() ||
      size_t(mlp.outputStd.size()) != widths.back())
    throw std::invalid_argument("savePatchMlp: inconsistent network sizes");
  for (size_t l = 0; l < mlp.layers.size(); ++l)
    if (mlp.layers[l].W.cols() != widths[l] || mlp.layers[l].b.size() != widths[l + 1])
      throw std::invalid_argument("savePatchMlp: layer " + std::to_string(l) + " does not chain");
  BinaryWriter mesh;
  writeMeshPair(mesh, mlp.pair);
  BinaryWriter w;
  w.raw(std::string(kPatchMlpMagic, 8));
  w.u32(kPatchMlpVersion);
  w.u64(mesh.bytes().size());
  w.raw(mesh.bytes());
  w.u32(uint32_t(mlp.layers.size()));
  for (uint32_t width : widths) w.u32(width);
  for (const PatchMlpLayer& l : mlp.layers) {
    const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = l.W;
    putFloats(w, rows.data(), size_t(rows.size()));
    putFloats(w, l.b.data(), size_t(l.b.size()));
  }
  for (const Eigen::VectorXf* v : {&mlp.inputMean, &mlp.inputStd, &mlp.outputMean, &mlp.outputStd})
    putFloats(w, v->data(), size_t(v->size()));
  w.u64(fnv1a64(w.bytes()));
  writeFileAtomically(file, w.bytes());
}

PatchMlp loadPatchMlp(const std::string& file) {
  const std::string bytes = readFile(file);
  const std::string what = file + ": not a valid patch-MLP model";
  try {
    BinaryReader r(bytes, what);
    if (r.left() < 8 || std::memcmp(r.raw(8, "magic").data(), kPatchMlpMagic, 8) != 0)
      r.fail("bad magic (expected an adacloth patch-MLP file, ADCPMLP1)");
    if (const uint32_t version = r.u32("version"); version != kPatchMlpVersion)
      r.fail("unsupported version " + std::to_string(version) + " (this build reads version " +
             std::to_string(kPatchMlpVersion) + (version == 1 ? "; version 1 models take a one-ring stencil: train "
                                                               "again from new `upsample mlp-data`)" : ")"));
    const uint64_t meshSize = r.u64("mesh pair size");
    if (meshSize > r.left()) r.fail("truncated (the mesh pair needs " + std::to_string(meshSize) + " bytes)");
    const std::string meshBytes = r.raw(meshSize, "mesh pair");
    const uint32_t layerCount = r.u32("layer count");
    if (layerCount < 1 || layerCount > kMaxLayers) r.fail("implausible layer count " + std::to_string(layerCount));
    std::vector<uint32_t> widths(layerCount + 1);
    for (uint32_t& width : widths) {
      width = r.u32("layer width");
      if (width < 1 || width > kMaxWidth) r.fail("implausible layer width " + std::to_string(width));
    }
    // The exact size follows from the widths: truncation and trailing bytes are told apart from corruption.
    const uint64_t size = r.offset() + parameterBytes(widths) + 8;
    if (bytes.size() < size)
      r.fail("truncated (" + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(size) + ")");
    if (bytes.size() > size) r.fail("trailing bytes after the model");
    uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + size - 8, sizeof stored);
    if (fnv1a64(bytes.substr(0, size - 8)) != stored) r.fail("checksum mismatch (the file is corrupt)");

    PatchMlp mlp;
    BinaryReader meshReader(meshBytes, what + ": mesh pair");
    mlp.pair = readMeshPair(meshReader);
    if (!meshReader.atEnd()) meshReader.fail("bytes left after the mesh pair");
    mlp.stencil = makePatchStencil(mlp.pair);
    if (widths.front() != uint32_t(kPatchInputs))
      r.fail("the network takes " + std::to_string(widths.front()) + " inputs, patches have " +
             std::to_string(kPatchInputs));
    if (widths.back() != uint32_t(3 * mlp.stencil.nodesPerFace))
      r.fail("the network gives " + std::to_string(widths.back()) + " outputs, the mesh pair (levels " +
             std::to_string(mlp.pair.levels) + ") needs 3 x " + std::to_string(mlp.stencil.nodesPerFace));
    mlp.layers.resize(layerCount);
    for (uint32_t l = 0; l < layerCount; ++l) {
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows(widths[l + 1], widths[l]);
      getFloats(r, rows.data(), size_t(rows.size()), "layer " + std::to_string(l + 1) + " weights");
      mlp.layers[l].W = rows;
      mlp.layers[l].b.resize(widths[l + 1]);
      getFloats(r, mlp.layers[l].b.data(), widths[l + 1], "layer " + std::to_string(l + 1) + " biases");
    }
    mlp.inputMean.resize(widths.front());
    mlp.inputStd.resize(widths.front());
    mlp.outputMean.resize(widths.back());
    mlp.outputStd.resize(widths.back());
    getFloats(r, mlp.inputMean.data(), widths.front(), "input mean");
    getFloats(r, mlp.inputStd.data(), widths.front(), "input standard deviation", true);
    getFloats(r, mlp.outputMean.data(), widths.back(), "output mean");
    getFloats(r, mlp.outputStd.data(), widths.back(), "output standard deviation", true);
    return mlp;
  } catch (const BinaryFormatError& e) {
    throw InputError(e.what());
  } catch (const MeshError& e) {
    throw InputError(what + ": mesh pair: " + e.what());
  }
}

}  // namespace adacloth
