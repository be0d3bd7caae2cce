// The shipped shots run adaptively to the end through the real frame loop (dynamics, collisions, remeshing).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/scene.h"
#include "app/simulate.h"
#include "io/atomic_file.h"
#include "remesh_fixtures.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

void runAdaptively(const std::string& name) {
  const fs::path file = fs::path(ADACLOTH_SOURCE_DIR) / "conf" / (name + ".json");
  config::Json json = config::parseJson(readFile(file), file.string());
  for (auto& cloth : json["cloths"]) cloth["remeshing"] = true;
  Shot shot = parseShot(json.dump(), file);
  Scene scene = buildScene(shot);
  RunOptions options;
  options.out = fs::temp_directory_path() / ("adacloth_test_remesh_" + name);
  options.frames = shot.frames;
  options.progress = Progress::Mode::Quiet;
  simulateShot(shot, scene, options);  // throws SimulationError on a blow-up
  for (const Cloth& cloth : scene.cloths) REQUIRE(testing::problems(cloth.mesh) == "");
  std::ifstream stats(options.out / "stats.jsonl");
  std::string line;
  int lines = 0;
  std::set<long> faceCounts;
  double remeshMs = 0;
  while (std::getline(stats, line)) {
    config::Json j = config::Json::parse(line);
    faceCounts.insert(j["cloths"][0]["faces"].get<long>());
    remeshMs += j["wall_ms"]["remesh"].get<double>();
    ++lines;
  }
  CHECK(lines == shot.frames + 1);
  CHECK(faceCounts.size() > 3);  // the mesh adapted over the shot
  CHECK(remeshMs > 0.0);
  fs::remove_all(options.out);
}

}  // namespace

TEST_CASE("the drape shot runs adaptively to the end", "[remesh][regression]") { runAdaptively("drape"); }

TEST_CASE("the flag shot runs adaptively to the end", "[remesh][regression]") { runAdaptively("flag"); }
