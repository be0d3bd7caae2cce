#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "app/cmd_upsample_mlp.h"
#include "app/commands.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "mesh/generators.h"
#include "test_util.h"
#include "upsample/patch_dataset.h"
#include "upsample/patch_mlp.h"

using namespace adacloth;

namespace {

// A tracked folder over a 3 x 2 grid, one level: coarse frames bent in time, fine frames barycentric plus a ripple.
void writeTrack(const test::fs::path& dir, double phase) {
  const MeshPair pair = makeMeshPair(makeGrid(0.6, 0.4, 3, 2), 1);
  TrackedData d;
  d.coarse = pair.coarse;
  d.levels = 1;
  for (int t = 0; t < 4; ++t) {
    Eigen::MatrixX3d x = nodePositions(pair.coarse);
    x.col(2) += 0.05 * (3 * x.col(0).array() + phase + 0.2 * t).sin().matrix();
    Eigen::MatrixX3d fine = pair.sub.midpoint * x;
    fine.col(2).array() += 0.001 * std::cos(t + phase);
    d.frames.coarse.push_back(x);
    d.frames.fine.push_back(fine);
    d.frames.time.push_back(t / 24.0);
  }
  writeTrackedData(d, dir);
}

// Runs a command function on `args` as `adacloth upsample SUB args...` would pass them.
int run(int (*command)(int, char**), const std::string& sub, std::vector<std::string> args) {
  std::vector<std::string> all = {"adacloth", "upsample", sub};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  return command(int(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("upsample mlp-data writes the samples, eval compares an MLP model with barycentric", "[upsample]") {
  test::TempDir dir("mlpcmd");
  writeTrack(dir / "a", 0.0);
  writeTrack(dir / "b", 0.7);
  const std::string data = (dir / "data.bin").string();
  CHECK(run(runUpsampleMlpData, "mlp-data", {(dir / "a").string(), (dir / "b").string(), "-o", data}) == 0);
  // 8 frames x 12 faces; 54 inputs and 3 x 6 outputs each, after the header.
  CHECK(readFile(data).size() > 96 * 4 * (54 + 18));
  CHECK(readFile(data).compare(0, 8, std::string(kPatchDatasetMagic, 8)) == 0);

  // A model with zero weights and mean is barycentric: the same error on every set.
  const std::string model = (dir / "model.bin").string(), json = (dir / "eval.json").string();
  savePatchMlp(makePatchMlp(makeMeshPair(makeGrid(0.6, 0.4, 3, 2), 1), {8}), model);
  CHECK(run(runUpsampleCommand, "eval",
            {model, "--training", (dir / "a").string(), "--heldout", (dir / "b").string(), "--json", json}) == 0);
  const nlohmann::json j = nlohmann::json::parse(readFile(json));
  CHECK(j["heldout"]["barycentric"].get<double>() > 1e-4);
  CHECK(j["heldout"]["mlp"].get<double>() == Approx(j["heldout"]["barycentric"].get<double>()).epsilon(1e-12));
  CHECK(j["training"]["mlp"].get<double>() == Approx(j["training"]["barycentric"].get<double>()).epsilon(1e-12));

  CHECK_THROWS_WITH(run(runUpsampleMlpData, "mlp-data", {(dir / "a").string()}), Catch::Contains("-o DATASET.bin"));
  CHECK_THROWS_WITH(run(runUpsampleMlpData, "mlp-data", {"-o", data}), Catch::Contains("track folders"));
  CHECK_THROWS_WITH(run(runUpsampleCommand, "eval", {model}), Catch::Contains("--heldout"));
  // A model for another mesh.
  savePatchMlp(makePatchMlp(makeMeshPair(makeGrid(0.6, 0.4, 3, 2), 2), {8}), model);
  CHECK_THROWS_WITH(run(runUpsampleCommand, "eval",
                        {model, "--training", (dir / "a").string(), "--heldout", (dir / "b").string()}),
                    Catch::Contains(model) && Catch::Contains("levels 1, not 2"));
}
