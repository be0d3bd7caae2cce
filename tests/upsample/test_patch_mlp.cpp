#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>

#include "io/atomic_file.h"
#include "io/error.h"
#include "mesh/generators.h"
#include "test_util.h"
#include "upsample/patch_mlp.h"

using namespace adacloth;

namespace {

// A network over `pair` with random weights of trained-like size and a normalization for positions of ~0.1 m and
// displacements of ~mm (deterministic: Eigen's Random uses std::rand, seeded here).
PatchMlp randomMlp(MeshPair pair, unsigned seed = 1) {
  std::srand(seed);
  PatchMlp mlp = makePatchMlp(std::move(pair), {64, 64, 64});
  for (PatchMlpLayer& l : mlp.layers) {
    l.W = Eigen::MatrixXf::Random(l.W.rows(), l.W.cols()) / std::sqrt(float(l.W.cols()));
    l.b = 0.3f * Eigen::VectorXf::Random(l.b.size());
  }
  mlp.inputMean = 0.05f * Eigen::VectorXf::Random(mlp.inputMean.size());
  mlp.inputStd = Eigen::VectorXf::Constant(mlp.inputStd.size(), 0.1f);
  mlp.outputMean = 1e-3f * Eigen::VectorXf::Random(mlp.outputMean.size());
  mlp.outputStd = Eigen::VectorXf::Constant(mlp.outputStd.size(), 2e-3f);
  return mlp;
}

Eigen::MatrixX3d wavy(const Mesh& mesh, double phase) {
  Eigen::MatrixX3d x = nodePositions(mesh);
  for (Eigen::Index i = 0; i < x.rows(); ++i) x(i, 2) += 0.08 * std::sin(4 * x(i, 0) + phase) * x(i, 1);
  return x;
}

std::string loadError(const std::string& file) {
  try {
    loadPatchMlp(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// `bytes` with its trailing checksum recomputed (a consistent file with wrong content, as a buggy writer makes).
std::string rehashed(std::string bytes) {
  const uint64_t h = fnv1a64(bytes.substr(0, bytes.size() - 8));
  std::memcpy(&bytes[bytes.size() - 8], &h, 8);
  return bytes;
}

Eigen::MatrixXf floatsAt(const std::string& bytes, size_t& pos, int rows, int cols) {
  // Stored sample-major ([cols][rows] row-major): the column-major storage of a rows x cols matrix.
  Eigen::MatrixXf m(rows, cols);
  REQUIRE(bytes.size() >= pos + m.size() * sizeof(float));
  std::memcpy(m.data(), bytes.data() + pos, m.size() * sizeof(float));
  pos += m.size() * sizeof(float);
  return m;
}

}  // namespace

TEST_CASE("patch MLP with zero weights is exactly barycentric", "[upsample]") {
  const PatchMlp mlp = makePatchMlp(makeMeshPair(makeGrid(1.0, 0.6, 4, 3), 2), {64, 64, 64});
  REQUIRE(mlp.layers.size() == 4);
  CHECK(mlp.layers.back().W.rows() == 3 * 15);
  const Eigen::MatrixX3d a = wavy(mlp.pair.coarse, 0), b = wavy(mlp.pair.coarse, 0.2), c = wavy(mlp.pair.coarse, 0.4);
  const Eigen::MatrixX3d fine = mlp.apply(c, b, a);
  CHECK(fine == Eigen::MatrixX3d(mlp.pair.sub.midpoint * c));
}

TEST_CASE("patch MLP output moves rigidly with its input", "[upsample]") {
  const PatchMlp mlp = randomMlp(makeMeshPair(makeTube(0.3, 0.6, 8, 3), 3));
  const Eigen::MatrixX3d x0 = wavy(mlp.pair.coarse, 0), x1 = wavy(mlp.pair.coarse, 0.3),
                         x2 = wavy(mlp.pair.coarse, 0.7);
  const Eigen::MatrixX3d fine = mlp.apply(x2, x1, x0);
  // The network adds something (else the check below would hold trivially).
  CHECK((fine - mlp.pair.sub.midpoint * x2).rowwise().norm().maxCoeff() > 1e-4);
  const Mat3 R = Eigen::AngleAxisd(0.9, Vec3(0.3, -1.0, 0.5).normalized()).toRotationMatrix();
  const Eigen::RowVector3d T(1.5, -0.4, 2.0);
  auto moved = [&](const Eigen::MatrixX3d& x) -> Eigen::MatrixX3d { return (x * R.transpose()).rowwise() + T; };
  const Eigen::MatrixX3d movedFine = mlp.apply(moved(x2), moved(x1), moved(x0));
  const double scale = moved(fine).cwiseAbs().maxCoeff();
  CHECK((movedFine - moved(fine)).cwiseAbs().maxCoeff() <= 1e-5 * scale);
}

TEST_CASE("patch MLP over a sequence repeats the first frame", "[upsample]") {
  const PatchMlp mlp = randomMlp(makeMeshPair(makeGrid(0.5, 0.5, 2, 2), 1));
  const std::vector<Eigen::MatrixX3d> seq = {wavy(mlp.pair.coarse, 0), wavy(mlp.pair.coarse, 0.5),
                                             wavy(mlp.pair.coarse, 1.0)};
  const std::vector<Eigen::MatrixX3d> fine = applyPatchMlp(mlp, seq);
  REQUIRE(fine.size() == 3);
  CHECK(fine[0] == mlp.apply(seq[0], seq[0], seq[0]));
  CHECK(fine[1] == mlp.apply(seq[1], seq[0], seq[0]));
  CHECK(fine[2] == mlp.apply(seq[2], seq[1], seq[0]));
}

TEST_CASE("patch MLP file round trip", "[upsample]") {
  test::TempDir dir("pmlp");
  const PatchMlp mlp = randomMlp(makeMeshPair(makeTube(0.3, 0.5, 6, 2), 2));
  const std::string file = (dir / "model.bin").string();
  savePatchMlp(mlp, file);
  const PatchMlp back = loadPatchMlp(file);
  CHECK(back.pair.levels == 2);
  CHECK(back.coarseCount() == mlp.coarseCount());
  CHECK(back.fineCount() == mlp.fineCount());
  CHECK(back.stencil.fineNodes == mlp.stencil.fineNodes);
  REQUIRE(back.layers.size() == mlp.layers.size());
  for (size_t l = 0; l < mlp.layers.size(); ++l) {
    CHECK(back.layers[l].W == mlp.layers[l].W);
    CHECK(back.layers[l].b == mlp.layers[l].b);
  }
  CHECK(back.inputMean == mlp.inputMean);
  CHECK(back.inputStd == mlp.inputStd);
  CHECK(back.outputMean == mlp.outputMean);
  CHECK(back.outputStd == mlp.outputStd);
  const Eigen::MatrixX3d x = wavy(mlp.pair.coarse, 0.3);
  CHECK(back.apply(x, x, x) == mlp.apply(x, x, x));
  savePatchMlp(back, (dir / "again.bin").string());
  CHECK(readFile(dir / "again.bin") == readFile(file));
}

TEST_CASE("patch MLP file errors name the file and the problem", "[upsample]") {
  test::TempDir dir("pmlpbad");
  const std::string file = (dir / "model.bin").string();
  PatchMlp mlp = randomMlp(makeMeshPair(makeGrid(0.5, 0.5, 2, 2), 1));
  savePatchMlp(mlp, file);
  const std::string good = readFile(file);
  auto load = [&](const std::string& bytes) {
    writeFileAtomically(file, bytes);
    return loadError(file);
  };
  REQUIRE(load(good).empty());

  std::string bad = good;
  bad[3] = 'X';
  CHECK_THAT(load(bad), Catch::Contains(file) && Catch::Contains("bad magic"));
  bad = good;
  bad[8] = char(kPatchMlpVersion + 1);
  CHECK_THAT(load(bad), Catch::Contains(file) && Catch::Contains("unsupported version 3"));
  bad[8] = 1;  // a model of the one-ring stencil: told to train again
  CHECK_THAT(load(bad), Catch::Contains(file) && Catch::Contains("unsupported version 1") &&
                            Catch::Contains("train again"));
  CHECK_THAT(load(good.substr(0, good.size() - 7)), Catch::Contains(file) && Catch::Contains("truncated"));
  CHECK_THAT(load(good.substr(0, 30)), Catch::Contains("truncated"));
  CHECK_THAT(load(good.substr(0, 5)), Catch::Contains("bad magic"));
  CHECK_THAT(load(good + "x"), Catch::Contains("trailing bytes"));
  bad = good;
  bad[good.size() - 100] ^= 0x04;  // a weight: only the checksum can tell
  CHECK_THAT(load(bad), Catch::Contains(file) && Catch::Contains("checksum mismatch"));
  bad = good;
  bad[good.size() - 3] ^= 0x01;  // the checksum itself
  CHECK_THAT(load(bad), Catch::Contains("checksum mismatch"));

  // Consistent checksums, wrong content.
  PatchMlp nan = mlp;
  nan.layers[1].W(3, 5) = std::numeric_limits<float>::quiet_NaN();
  savePatchMlp(nan, file);
  CHECK_THAT(loadError(file), Catch::Contains(file) && Catch::Contains("layer 2 weights has a non-finite value"));
  PatchMlp zeroStd = mlp;
  zeroStd.outputStd(4) = 0;
  savePatchMlp(zeroStd, file);
  CHECK_THAT(loadError(file), Catch::Contains("output standard deviation has a value <= 0"));
  // A network for 2 levels (3 x 15 outputs) stored with a mesh pair of 1 level (6 nodes per face).
  PatchMlp wrongLevels = randomMlp(makeMeshPair(makeGrid(0.5, 0.5, 2, 2), 2));
  wrongLevels.pair = makeMeshPair(makeGrid(0.5, 0.5, 2, 2), 1);
  savePatchMlp(wrongLevels, file);
  CHECK_THAT(loadError(file), Catch::Contains(file) && Catch::Contains("gives 45 outputs") &&
                                  Catch::Contains("needs 3 x 6"));
  // A mesh pair that is not valid (a face vert out of range).
  bad = good;
  const size_t faceVert = 8 + 4 + 8 + 4 + 8 + 9 * 20 + 8 + 9 * 24 + 8;  // first vert of face 0
  bad[faceVert] = char(100);
  CHECK_THAT(load(rehashed(bad)), Catch::Contains(file) && Catch::Contains("face vert index out of range"));

  CHECK_THAT(loadError((dir / "missing.bin").string()), Catch::Contains("missing.bin"));
}

// tools/patch_mlp_crosscheck.py writes a model with random weights and the PyTorch outputs for random inputs; the
// committed tests/data/upsample/patch_mlp/ is one such pair, ADACLOTH_PATCH_MLP_CROSSCHECK names a fresh one (ctest
// `patch-mlp crosscheck: live`). The model file is written by the Python side too, so this also checks the format.
TEST_CASE("patch MLP inference matches PyTorch", "[upsample][mlp]") {
  const char* env = std::getenv("ADACLOTH_PATCH_MLP_CROSSCHECK");
  const test::fs::path folder = env ? test::fs::path(env) : test::fs::path(ADACLOTH_TEST_DATA) / "upsample/patch_mlp";
  INFO("cases from " << folder);
  const PatchMlp mlp = loadPatchMlp((folder / "model.bin").string());
  const std::string bytes = readFile(folder / "cases.bin");
  REQUIRE(bytes.size() >= 24);
  REQUIRE(bytes.compare(0, 8, "ADCPMLPX") == 0);
  uint32_t header[4];
  std::memcpy(header, bytes.data() + 8, sizeof header);
  REQUIRE(header[0] == 1);
  const int n = int(header[1]), inputs = int(header[2]), outputs = int(header[3]);
  REQUIRE(inputs == kPatchInputs);
  REQUIRE(outputs == int(mlp.layers.back().W.rows()));
  size_t pos = 24;
  const Eigen::MatrixXf raw = floatsAt(bytes, pos, inputs, n), network = floatsAt(bytes, pos, outputs, n),
                        displacement = floatsAt(bytes, pos, outputs, n);
  REQUIRE(pos == bytes.size());
  const Eigen::MatrixXf y = mlp.infer(mlp.standardize(raw)), d = mlp.destandardize(y);
  // Relative to each case's largest value (single-precision sums in a different order: ~1e-7 expected).
  for (int i = 0; i < n; ++i) {
    INFO("case " << i);
    CHECK((y.col(i) - network.col(i)).cwiseAbs().maxCoeff() <= 1e-5 * network.col(i).cwiseAbs().maxCoeff());
    CHECK((d.col(i) - displacement.col(i)).cwiseAbs().maxCoeff() <=
          1e-5 * displacement.col(i).cwiseAbs().maxCoeff());
  }
}
