#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/error.h"
#include "config/camera_file.h"
#include "view/camera_path.h"

using namespace adacloth;
using Json = config::Json;

namespace {

Json keyframe(double time, Vec3 eye, Vec3 target = Vec3::Zero()) {
  return Json{{"time", time}, {"eye", {eye.x(), eye.y(), eye.z()}}, {"target", {target.x(), target.y(), target.z()}}};
}

// Four keyframes along +x at varying speed, eye height changing too.
Json fourKeys(const std::string& interpolation) {
  Json j = {{"width", 320}, {"height", 240}, {"interpolation", interpolation}};
  j["keyframes"] = Json::array({keyframe(0.0, {0, 1, 5}), keyframe(1.0, {2, 1.5, 5}), keyframe(3.0, {3, 1, 4}),
                                keyframe(4.0, {6, 2, 5})});
  return j;
}

CameraPath parse(const Json& j) { return parseCameraPath(j.dump(), "cam.json"); }

std::string errorOf(const Json& j) {
  try {
    parse(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("camera path: interpolation hits keyframes exactly", "[camera]") {
  for (const char* mode : {"linear", "smooth"}) {
    const CameraPath p = parse(fourKeys(mode));
    for (size_t i = 0; i < p.keyframes.size(); ++i) {
      const Camera c = p.at(p.keyframes[i].time);
      CHECK((c.eye - p.keyframes[i].eye).norm() < 1e-12);
      CHECK((c.forward - (p.keyframes[i].target - p.keyframes[i].eye).normalized()).norm() < 1e-12);
    }
    CHECK(p.at(0.5).width == 320);
    CHECK(p.at(0.5).height == 240);
  }
}

TEST_CASE("camera path: linear midpoint and clamping outside the range", "[camera]") {
  const CameraPath p = parse(fourKeys("linear"));
  CHECK((p.at(0.5).eye - Vec3(1, 1.25, 5)).norm() < 1e-12);
  CHECK((p.at(2.0).eye - Vec3(2.5, 1.25, 4.5)).norm() < 1e-12);
  CHECK((p.at(-3.0).eye - Vec3(0, 1, 5)).norm() < 1e-12);
  CHECK((p.at(99.0).eye - Vec3(6, 2, 5)).norm() < 1e-12);
}

TEST_CASE("camera path: smooth is continuous with a continuous velocity", "[camera]") {
  const CameraPath p = parse(fourKeys("smooth"));
  const double h = 1e-4;
  double maxStep = 0, maxVelocityJump = 0;
  Vec3 previous = p.at(-0.5).eye, previousVelocity = Vec3::Zero();
  for (double t = -0.5 + h; t <= 4.5; t += h) {
    const Vec3 e = p.at(t).eye, velocity = (e - previous) / h;
    maxStep = std::max(maxStep, (e - previous).norm());
    if (t > -0.5 + 2 * h) maxVelocityJump = std::max(maxVelocityJump, (velocity - previousVelocity).norm());
    previous = e;
    previousVelocity = velocity;
  }
  // Speeds stay below ~10 m/s: steps of 1e-4 s move less than 1e-3 m; the velocity changes only by
  // acceleration x h (no jumps at keyframes, nor where the path meets the holds at its ends).
  CHECK(maxStep < 1e-3);
  CHECK(maxVelocityJump < 0.05);
  // It is not linear: between the first two keyframes it eases in.
  CHECK(p.at(0.25).eye.x() < 0.5 - 1e-3);
  // Up stays orthogonal to the view direction everywhere.
  for (double t = 0; t <= 4; t += 0.37) CHECK(std::abs(p.at(t).up.dot(p.at(t).forward)) < 1e-12);
}

TEST_CASE("camera path: a cut keyframe jumps, no interpolation across it", "[camera]") {
  for (const char* mode : {"linear", "smooth"}) {
    Json j = fourKeys(mode);
    j["keyframes"][2]["cut"] = true;  // the shot cuts at t = 3
    const CameraPath p = parse(j);
    // Before the cut the camera holds the end of the first segment (keyframe 1), from the cut on it is keyframe 2's.
    CHECK((p.at(2.999).eye - Vec3(2, 1.5, 5)).norm() < 1e-12);
    CHECK((p.at(2.0).eye - Vec3(2, 1.5, 5)).norm() < 1e-12);
    CHECK((p.at(3.0).eye - Vec3(3, 1, 4)).norm() < 1e-12);
    // After the cut it interpolates within the new segment.
    CHECK(p.at(3.5).eye.x() > 3.0);
    CHECK(p.at(3.5).eye.x() < 6.0);
    // The segment shown: the first until the cut, the second from it on.
    CHECK(p.segmentAt(-1.0) == 0);
    CHECK(p.segmentAt(2.999) == 0);
    CHECK(p.segmentAt(3.0) == 1);
    CHECK(p.segmentAt(100.0) == 1);
  }
}

TEST_CASE("camera path: a single keyframe is a still camera", "[camera]") {
  Json j = {{"keyframes", Json::array({keyframe(0.0, {0, 1, 5})})}};
  const CameraPath p = parse(j);
  CHECK(p.width == 960);  // defaults
  CHECK(p.interpolation == CameraPath::Interpolation::Smooth);
  CHECK((p.at(10.0).eye - Vec3(0, 1, 5)).norm() == 0.0);
  CHECK(p.at(10.0).fovYDeg == 40.0);
}

TEST_CASE("camera path: every validation error names the file and the JSON pointer", "[camera]") {
  struct Case {
    std::string pointer;
    std::function<void(Json&)> breakIt;
  };
  const std::vector<Case> cases = {
      {"/keyframes/1/fov_y_deg", [](Json& j) { j["keyframes"][1]["fov_y_deg"] = 180; }},
      {"/keyframes/1/fov_y_deg", [](Json& j) { j["keyframes"][1]["fov_y_deg"] = 0; }},
      {"/keyframes/0/near", [](Json& j) { j["keyframes"][0]["near"] = 0; }},
      {"/keyframes/2/far", [](Json& j) { j["keyframes"][2]["near"] = 5; j["keyframes"][2]["far"] = 4; }},
      {"/keyframes/2/far", [](Json& j) { j["keyframes"][2]["near"] = 5; j["keyframes"][2]["far"] = 5; }},
      {"/keyframes/3/up", [](Json& j) { j["keyframes"][3]["up"] = {0, 0, 2}; j["keyframes"][3]["eye"] = {0, 0, 5}; }},
      {"/keyframes/1/target", [](Json& j) { j["keyframes"][1]["target"] = j["keyframes"][1]["eye"]; }},
      {"/keyframes/2/time", [](Json& j) { j["keyframes"][2]["time"] = 1.0; }},
      {"/keyframes/3/time", [](Json& j) { j["keyframes"][3]["time"] = 0.5; }},
      {"/keyframes", [](Json& j) { j["keyframes"] = Json::array(); }},
      {"/width", [](Json& j) { j["width"] = 0; }},
      {"/height", [](Json& j) { j["height"] = -10; }},
      {"/interpolation", [](Json& j) { j["interpolation"] = "cubic"; }},
      {"/keyframes/0/eye", [](Json& j) { j["keyframes"][0]["eye"] = {1, 2}; }},
      {"/keyframes/0/cut", [](Json& j) { j["keyframes"][0]["cut"] = "yes"; }},
      {"/keyframes/1/fov", [](Json& j) { j["keyframes"][1]["fov"] = 30; }},
      {"/keyframes/0", [](Json& j) { j["keyframes"][0].erase("target"); }},
  };
  for (const Case& c : cases) {
    Json j = fourKeys("smooth");
    c.breakIt(j);
    const std::string message = errorOf(j);
    INFO(message);
    CHECK(message.rfind("cam.json: " + c.pointer + ":", 0) == 0);
  }
  // Malformed JSON names the line.
  try {
    parseCameraPath("{\n  \"width\": ,\n}", "cam.json");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind("cam.json:2:", 0) == 0);
  }
}

TEST_CASE("a broken camera makes info and simulate exit with code 2 before writing anything", "[camera]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "adacloth_camera_cli_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  Json camera = fourKeys("linear");
  camera["keyframes"][1]["near"] = -1;
  std::ofstream(dir / "cam.json") << camera.dump();
  std::ofstream(dir / "shot.json")
      << R"({"frames": 1, "camera": "cam.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}]})";
  std::ofstream(dir / "nocam.json")
      << R"({"frames": 1, "camera": "missing.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}]})";
  auto run = [&](const std::string& args) {
    const std::string cmd = std::string(ADACLOTH_EXE) + " " + args + " > " + (dir / "log.txt").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  auto log = [&] {
    std::ifstream in(dir / "log.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(run("info " + (dir / "shot.json").string()) == 2);
  CHECK(log().find("cam.json: /keyframes/1/near:") != std::string::npos);
  CHECK(run("simulate " + (dir / "shot.json").string() + " -o " + (dir / "out").string() + " --quiet") == 2);
  CHECK(log().find("cam.json: /keyframes/1/near:") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
  CHECK(run("info " + (dir / "nocam.json").string()) == 2);
  CHECK(log().find("nocam.json: /camera: camera file") != std::string::npos);
  fs::remove_all(dir);
}
