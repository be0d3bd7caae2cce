#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "config/shot.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "test_util.h"

using namespace adacloth;

namespace {

std::string errorOf(const std::string& text) { return test::shotErrorOf(text); }

}  // namespace

TEST_CASE("a minimal shot gets every default", "[config]") {
  Shot shot = parseShot(R"({"cloths": [{"mesh": "../meshes/a.obj"}]})", "conf/minimal.json");
  CHECK(shot.name == "minimal");
  CHECK(shot.fps == 24.0);
  CHECK(shot.cloths.size() == 1);
  CHECK(shot.cloths[0].name == "cloth0");
  CHECK(shot.cloths[0].mesh.type == MeshSpec::Type::File);
  CHECK(shot.cloths[0].mesh.file == fs::path("meshes/a.obj"));
  CHECK(shot.resolved["cloths"][0]["transform"]["scale"] == 1.0);
  CHECK(shot.resolved["name"] == "minimal");
}

TEST_CASE("shot-level errors", "[config]") {
  using Catch::Contains;
  CHECK(errorOf(R"({"cloths": []})") == "conf/s.json: /cloths: expected at least 1 item(s), got 0");
  CHECK(errorOf(R"({"cloths": [{"mesh": {}}]})") ==
        "conf/s.json: /cloths/0/mesh: expected exactly one generator (\"grid\", \"tube\" or \"disc\"), got 0");
  CHECK(errorOf(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2.5, 3]}}}]})") ==
        "conf/s.json: /cloths/0/mesh/grid/cells/0: expected a whole number, got 2.5");
  CHECK(errorOf(R"({"cloths": [{"name": "a b", "mesh": "x.obj"}]})") ==
        "conf/s.json: /cloths/0/name: expected 1 to 64 letters, digits, '_' or '-' (it names output files), got \"a b\"");
  CHECK(errorOf(R"({"cloths": [{"name": "a", "mesh": "x.obj"}, {"name": "a", "mesh": "y.obj"}]})") ==
        "conf/s.json: /cloths/1/name: the name \"a\" is used by another cloth; names must be unique");
  CHECK(errorOf(R"({"cloths": [{"mesh": "x.obj", "material": {"density": "heavy"}}]})") ==
        "conf/s.json: /cloths/0/material/density: expected a number, got \"heavy\"");
}

TEST_CASE("docs/shot-format.md is the generated schema reference", "[config]") {
  // Regenerate with: ./build/adacloth schema > docs/shot-format.md
  std::string docs = readFile(test::sourceDir() / "docs" / "shot-format.md");
  CHECK(docs == config::toMarkdown(shotSchema(), "Shot file format"));
}
