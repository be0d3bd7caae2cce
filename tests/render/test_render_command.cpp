#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/obj.h"
#include "mesh/generators.h"
#include "render/png.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) : path(fs::temp_directory_path() / name) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

int run(const std::string& args, const fs::path& log) {
  const std::string cmd = std::string(ADACLOTH_EXE) + " " + args + " > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readText(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A minimal output folder as `simulate` writes it: a resolved shot, two frames of one cloth.
void writeOutputFolder(const fs::path& out, bool withCamera) {
  fs::create_directories(out / "frames");
  std::ofstream(out / "cam.json") << R"({"width": 96, "height": 54, "keyframes": [
      {"time": 0, "eye": [0.5, 0.6, 2.0], "target": [0.5, 0.5, 0.0]},
      {"time": 1, "eye": [1.5, 0.8, 1.5], "target": [0.5, 0.5, 0.0]}]})";
  std::string shot = R"({"name": "t", "fps": 2, "frames": 1, )";
  if (withCamera) shot += "\"camera\": \"" + (out / "cam.json").string() + "\", ";
  shot += R"("cloths": [{"name": "sheet"}]})";
  std::ofstream(out / "shot.resolved.json") << shot;
  Mesh grid = makeGrid(1.0, 1.0, 8, 8);
  writeObj(grid, out / "frames" / "sheet_00000.obj");
  for (Node& n : grid.nodes) n.x.z() += 0.2 * n.x.y();
  grid.updateGeometry();
  writeObj(grid, out / "frames" / "sheet_00001.obj");
}

}  // namespace

TEST_CASE("render writes one PNG per frame of the camera's size", "[render]") {
  TempDir dir("adacloth_render_cmd_test");
  const fs::path out = dir.path / "out", log = dir.path / "log.txt";
  writeOutputFolder(out, true);
  REQUIRE(run("render " + out.string() + " --quiet --threads 2", log) == 0);
  for (const char* name : {"00000.png", "00001.png"}) {
    const Image image = readPng(out / "render" / name);
    CHECK(image.width == 96);
    CHECK(image.height == 54);
    CHECK(image.channels == 3);
  }
  // The camera moves between frames 0 and 1, so the images differ.
  CHECK(readPng(out / "render" / "00000.png").pixels != readPng(out / "render" / "00001.png").pixels);
  // --width alone keeps the aspect ratio; --frames selects; the other colour modes and the wireframe run.
  REQUIRE(run("render " + out.string() + " --quiet --width 48 --frames 1:1 --color sizing --wireframe", log) == 0);
  CHECK(readPng(out / "render" / "00001.png").height == 27);
  // A-B is the same as A:B (the farm's render chunks, issue 18).
  REQUIRE(run("render " + out.string() + " --quiet --width 40 --frames 1-1", log) == 0);
  CHECK(readPng(out / "render" / "00001.png").width == 40);
  CHECK(readPng(out / "render" / "00000.png").width == 96);
  REQUIRE(run("render " + out.string() + " --quiet --frames 0: --color view --threads 1", log) == 0);
  // Same input, 1 vs 2 threads: the same bytes.
  const Image viewOneThread = readPng(out / "render" / "00000.png");
  REQUIRE(run("render " + out.string() + " --quiet --frames 0 --color view --threads 2", log) == 0);
  CHECK(readPng(out / "render" / "00000.png").pixels == viewOneThread.pixels);
  // compare: identical -> 0, different -> 1.
  CHECK(run("compare " + (out / "render" / "00000.png").string() + " " + (out / "render" / "00000.png").string(),
            log) == 0);
  REQUIRE(run("render " + out.string() + " --quiet --frames 0 --color material", log) == 0);
  CHECK(run("compare " + (out / "render" / "00000.png").string() + " " + (out / "render" / "00001.png").string() +
                " --threshold 8 --max-share 0.01", log) == 1);
  CHECK(readText(log).find("DIFFERENT") != std::string::npos);
  // contact sheet
  REQUIRE(run("contact-sheet " + out.string(), log) == 0);
  CHECK(readPng(out / "contact_sheet.png").width > 0);
}

TEST_CASE("render -o keeps a second rendering beside the first; contact-sheet --from shows them side by side",
          "[render]") {
  TempDir dir("adacloth_render_folders_test");
  const fs::path out = dir.path / "out", log = dir.path / "log.txt";
  writeOutputFolder(out, true);
  REQUIRE(run("render " + out.string() + " --quiet", log) == 0);
  REQUIRE(run("render " + out.string() + " --quiet --color view -o " + (out / "render_view").string(), log) == 0);
  // The second rendering went to its own folder and left the first alone.
  const Image material = readPng(out / "render" / "00001.png"), view = readPng(out / "render_view" / "00001.png");
  CHECK(view.width == material.width);
  CHECK(view.pixels != material.pixels);
  // One folder: 2 thumbnails in a row; two folders: each frame twice, so twice as wide with the same thumbnails.
  REQUIRE(run("contact-sheet " + out.string() + " -o " + (dir.path / "one.png").string() + " --thumb-width 40", log) ==
          0);
  REQUIRE(run("contact-sheet " + out.string() + " --from render,render_view -o " + (dir.path / "two.png").string() +
                  " --thumb-width 40", log) == 0);
  CHECK(readText(log).find("from 2 folders side by side") != std::string::npos);
  const Image one = readPng(dir.path / "one.png"), two = readPng(dir.path / "two.png");
  CHECK(one.width == 2 * 40 + 3 * 4);
  CHECK(two.width == 4 * 40 + 5 * 4);
  CHECK(two.height == one.height);
  // A --from folder without the frames of the first is an input error that names it.
  fs::create_directories(out / "partial");
  fs::copy_file(out / "render" / "00000.png", out / "partial" / "00000.png");
  CHECK(run("contact-sheet " + out.string() + " --from render,partial", log) == 2);
  CHECK(readText(log).find("partial/00001.png: missing") != std::string::npos);
  CHECK(run("contact-sheet " + out.string() + " --from render,", log) == 2);
  CHECK(readText(log).find("--from: expected folder names separated by commas") != std::string::npos);
}

TEST_CASE("render: bad input exits with code 2 and a clear message", "[render]") {
  TempDir dir("adacloth_render_bad_test");
  const fs::path out = dir.path / "out", log = dir.path / "log.txt";
  CHECK(run("render " + out.string(), log) == 2);
  CHECK(readText(log).find("no such output folder") != std::string::npos);
  writeOutputFolder(out, false);
  CHECK(run("render " + out.string(), log) == 2);
  CHECK(readText(log).find("no camera") != std::string::npos);
  CHECK(run("render " + out.string() + " --camera " + (dir.path / "nope.json").string(), log) == 2);
  CHECK(readText(log).find("nope.json: camera file does not exist") != std::string::npos);
  CHECK(run("render " + out.string() + " --camera " + (out / "cam.json").string() + " --frames 5:9", log) == 2);
  CHECK(run("render " + out.string() + " --camera " + (out / "cam.json").string() + " --color heat", log) == 2);
  fs::remove_all(out / "frames");
  fs::create_directories(out / "frames");
  CHECK(run("render " + out.string() + " --camera " + (out / "cam.json").string(), log) == 2);
  CHECK(readText(log).find("no frames") != std::string::npos);
  CHECK_FALSE(fs::exists(out / "render"));
}

TEST_CASE("render --color view draws each cloth with its own backface and f_back", "[render]") {
  TempDir dir("adacloth_render_view_options_test");
  const fs::path out = dir.path / "out", log = dir.path / "log.txt";
  writeOutputFolder(out, true);
  // The sheet lies in z = 0 with its front towards +z; a camera behind it sees its back.
  std::ofstream(out / "cam.json") << R"({"width": 96, "height": 54, "keyframes": [
      {"time": 0, "eye": [0.5, 0.6, -2.0], "target": [0.5, 0.5, 0.0]}]})";
  auto renderWith = [&](const std::string& view) {
    std::ofstream(out / "shot.resolved.json") << R"({"name": "t", "fps": 2, "frames": 1, "camera": ")" +
                                                     (out / "cam.json").string() +
                                                     R"(", "cloths": [{"name": "sheet", "view": )" + view + "}]}";
    REQUIRE(run("render " + out.string() + " --quiet --frames 0 --color view --no-ground", log) == 0);
    return readPng(out / "render" / "00000.png").pixels;
  };
  const auto shown = renderWith(R"({"backface": false})"), hidden = renderWith(R"({"backface": true, "f_back": 0.3})");
  CHECK(shown != hidden);  // the back is drawn in view when the cloth does not hide it, at f_back when it does
  CHECK(renderWith(R"({"backface": true, "f_back": 0.6})") != hidden);
  CHECK(renderWith("{}") == shown);  // the defaults: back faces not hidden
}
