#include <catch2/catch.hpp>

#include "io/atomic_file.h"
#include "config/camera_file.h"
#include "view/camera_path.h"

using namespace adacloth;

TEST_CASE("docs/camera-format.md is the camera path schema's reference", "[camera]") {
  const std::string expected = config::toMarkdown(cameraPathSchema(), "Camera path format");
  const std::string actual = readFile(std::string(ADACLOTH_SOURCE_DIR) + "/docs/camera-format.md");
  INFO("regenerate it: ./build/adacloth render --camera-schema > docs/camera-format.md");
  CHECK(actual == expected);
}

TEST_CASE("cameras/*.json of the repository are valid camera paths", "[camera]") {
  for (const auto& entry : std::filesystem::directory_iterator(std::string(ADACLOTH_SOURCE_DIR) + "/cameras")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    CHECK_NOTHROW(loadCameraPath(entry.path()));
  }
}
