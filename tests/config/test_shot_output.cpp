#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "io/error.h"
#include "render/frame_scene.h"
#include "config/shot_output.h"

using namespace adacloth;
namespace fs = std::filesystem;

TEST_CASE("obstacles: the latest file at or before the frame, per obstacle", "[render]") {
  const fs::path out = fs::temp_directory_path() / "adacloth_obstacle_files_test";
  fs::remove_all(out);
  fs::create_directories(out / "obstacles");
  const std::string quad = "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 3 2\nf 1 4 3\n";
  // A still obstacle (frame 0 only) and a moving one (every frame), as simulate writes them.
  for (const char* name : {"ball_00000.obj", "arm_00000.obj", "arm_00001.obj", "arm_00002.obj", "notes.txt"})
    std::ofstream(out / "obstacles" / name) << quad;
  const auto files = obstacleFrameFiles(out, 1);
  REQUIRE(files.size() == 2);
  CHECK(files[0].filename() == "arm_00001.obj");
  CHECK(files[1].filename() == "ball_00000.obj");
  CHECK(obstacleFrameFiles(out, 7)[0].filename() == "arm_00002.obj");
  CHECK(obstacleFrameFiles(out / "missing", 0).empty());

  const RenderMesh mesh = obstacleRenderMesh(out / "obstacles" / "ball_00000.obj");
  CHECK(mesh.positions.size() == 4);
  CHECK(mesh.triangles.size() == 2);
  CHECK(mesh.normals[0].isApprox(Vec3::UnitY()));  // counter-clockwise seen from above
  std::ofstream(out / "obstacles" / "bad_00000.obj") << "v 0 0 0\nf 1 2 3\n";
  CHECK_THROWS_AS(obstacleRenderMesh(out / "obstacles" / "bad_00000.obj"), InputError);
  fs::remove_all(out);
}

TEST_CASE("readShotOutput: each cloth's view settings, the defaults without one, a bad value named", "[render]") {
  const fs::path out = fs::temp_directory_path() / "adacloth_shot_output_views_test";
  fs::remove_all(out);
  fs::create_directories(out / "frames");
  std::ofstream(out / "frames" / "skirt_00000.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  auto write = [&](const std::string& skirtView) {
    std::ofstream(out / "shot.resolved.json")
        << R"({"fps": 24, "cloths": [{"name": "skirt", "view": )" + skirtView + R"(}, {"name": "flag"}]})";
  };
  write(R"({"f_out": 0.2, "backface": true, "f_back": 0.5, "back_ramp": 0.25, "margin": 0.2})");
  const ShotOutput output = readShotOutput(out);
  REQUIRE(output.clothViews.size() == 2);
  CHECK(output.clothViews[0].fOut == 0.2);
  CHECK(output.clothViews[0].backFacesHidden);
  CHECK(output.clothViews[0].fBack == 0.5);
  CHECK(output.clothViews[0].backRamp == 0.25);
  // No `view`: drawn with the defaults of `view: {}` (back faces not hidden).
  CHECK(output.clothViews[1].fOut == ViewParams{}.fOut);
  CHECK_FALSE(output.clothViews[1].backFacesHidden);
  CHECK(output.clothViews[1].fBack == ViewParams{}.fBack);
  write(R"({"backface": "yes"})");
  CHECK_THROWS_WITH(readShotOutput(out), Catch::Contains("/cloths/0/view/backface: expected true or false"));
  write(R"({"f_back": 0})");
  CHECK_THROWS_WITH(readShotOutput(out), Catch::Contains("/cloths/0/view/f_back: expected a number in (0, 1]"));
  fs::remove_all(out);
}
