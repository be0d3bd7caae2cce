#include <catch2/catch.hpp>
#include <cstring>

#include "io/atomic_file.h"
#include "io/error.h"
#include "mesh/generators.h"
#include "test_util.h"
#include "upsample/patch_dataset.h"
#include "upsample/patch_stencil.h"

using namespace adacloth;

namespace {

// A tracked sequence over `coarse`: coarse frames bent in time, fine frames barycentric plus a wrinkle-like
// displacement that depends on the fine rest position.
TrackedData syntheticTrack(const Mesh& coarse, int levels, int frames, double phase) {
  const MeshPair pair = makeMeshPair(coarse, levels);
  TrackedData d;
  d.coarse = pair.coarse;
  d.levels = levels;
  const Eigen::MatrixX3d rest = nodePositions(pair.coarse), fineRest = nodePositions(pair.sub.fine);
  for (int t = 0; t < frames; ++t) {
    Eigen::MatrixX3d x = rest;
    for (Eigen::Index i = 0; i < x.rows(); ++i) x(i, 2) += 0.1 * std::sin(3 * x(i, 0) + phase + 0.3 * t);
    Eigen::MatrixX3d fine = pair.sub.midpoint * x;
    for (Eigen::Index i = 0; i < fine.rows(); ++i)
      fine.row(i) += 0.002 * std::sin(40 * fineRest(i, 0) + t) * Eigen::RowVector3d(0.2, 0.3, 1.0);
    d.frames.coarse.push_back(x);
    d.frames.fine.push_back(fine);
    d.frames.time.push_back(t / 24.0);
  }
  return d;
}

template <class T>
T at(const std::string& bytes, size_t& pos) {
  T v;
  REQUIRE(bytes.size() >= pos + sizeof(T));
  std::memcpy(&v, bytes.data() + pos, sizeof(T));
  pos += sizeof(T);
  return v;
}

}  // namespace

TEST_CASE("patch dataset: one sample per face and frame, targets that rebuild the fine frames", "[upsample]") {
  test::TempDir dir("pmlpdata");
  const Mesh grid = makeGrid(1.0, 0.5, 3, 2);
  const std::vector<TrackedData> data = {syntheticTrack(grid, 2, 3, 0.0), syntheticTrack(grid, 2, 2, 1.0)};
  const std::string file = (dir / "data.bin").string();
  CHECK(writePatchDataset(data, file) == 12 * 5u);
  const std::string bytes = readFile(file);
  size_t pos = 0;
  REQUIRE(bytes.compare(0, 8, std::string(kPatchDatasetMagic, 8)) == 0);
  pos = 8;
  CHECK(at<uint32_t>(bytes, pos) == kPatchDatasetVersion);
  const uint64_t meshSize = at<uint64_t>(bytes, pos);
  const std::string meshBytes = bytes.substr(pos, meshSize);
  pos += meshSize;
  BinaryReader meshReader(meshBytes, "mesh");
  const MeshPair pair = readMeshPair(meshReader);
  CHECK(pair.levels == 2);
  CHECK(at<uint32_t>(bytes, pos) == uint32_t(kPatchInputs));
  CHECK(at<uint32_t>(bytes, pos) == 3 * 15u);
  CHECK(at<uint32_t>(bytes, pos) == 12u);
  CHECK(at<uint32_t>(bytes, pos) == 2u);
  CHECK(at<uint64_t>(bytes, pos) == 3u);
  CHECK(at<uint64_t>(bytes, pos) == 2u);
  const size_t n = 60;
  REQUIRE(bytes.size() == pos + n * 4 * (kPatchInputs + 45));
  Eigen::MatrixXf inputs(kPatchInputs, n), targets(45, n);
  std::memcpy(inputs.data(), bytes.data() + pos, inputs.size() * 4);
  std::memcpy(targets.data(), bytes.data() + pos + inputs.size() * 4, targets.size() * 4);

  // Sample order: sequence, frame, face; frames before the first repeat it.
  const PatchStencil s = makePatchStencil(pair);
  const TrainingSequence& seq = data[0].frames;
  Eigen::MatrixXf expected;
  std::vector<PatchFrame> frames;
  patchInputs(s, seq.coarse[1], seq.coarse[0], seq.coarse[0], expected, frames);
  CHECK(inputs.middleCols(12, 12) == expected);
  // Targets are local displacements: turned back to world axes and added to barycentric, they give the fine frame
  // (every face holding a node has the same displacement for it, so the mean is exact).
  const Eigen::MatrixX3d predicted = pair.sub.midpoint * seq.coarse[1];
  const Eigen::MatrixX3d rebuilt = patchOutputsToFine(s, frames, targets.middleCols(12, 12), predicted);
  CHECK((rebuilt - seq.fine[1]).cwiseAbs().maxCoeff() < 1e-8);
  const TrainingSequence& second = data[1].frames;
  patchInputs(s, second.coarse[0], second.coarse[0], second.coarse[0], expected, frames);
  CHECK(inputs.middleCols(36, 12) == expected);
}

TEST_CASE("patch dataset refuses folders with different meshes", "[upsample]") {
  test::TempDir dir("pmlpdatabad");
  const std::string file = (dir / "data.bin").string();
  const std::vector<TrackedData> levels = {syntheticTrack(makeGrid(1.0, 0.5, 3, 2), 2, 2, 0),
                                           syntheticTrack(makeGrid(1.0, 0.5, 3, 2), 1, 2, 0)};
  CHECK_THROWS_WITH(writePatchDataset(levels, file, {"out/a", "out/b"}),
                    Catch::Contains("out/b") && Catch::Contains("differ from those of out/a"));
  const std::vector<TrackedData> cells = {syntheticTrack(makeGrid(1.0, 0.5, 3, 2), 1, 2, 0),
                                          syntheticTrack(makeGrid(1.0, 0.5, 2, 3), 1, 2, 0)};
  CHECK_THROWS_WITH(writePatchDataset(cells, file), Catch::Contains("folder 2"));
  CHECK_FALSE(test::fs::exists(file));
}
