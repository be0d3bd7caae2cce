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

// JSON compared without regard to key order (config::Json keeps the order keys were written or resolved in).
nlohmann::json unordered(const config::Json& j) { return nlohmann::json::parse(j.dump()); }
nlohmann::json unordered(const char* text) { return nlohmann::json::parse(text); }

}  // namespace

// Every default below is the literal of docs/shot-format.md (or, for the material, of its descriptions), not a
// default-constructed struct: the schema may take its defaults from the structs, and a test comparing with them
// could then never fail. A new key or a changed default must show up here.
TEST_CASE("a minimal shot gets every default", "[config]") {
  Shot shot = parseShot(R"({"cloths": [{"mesh": "../meshes/a.obj"}]})", "conf/minimal.json");
  // Shot (top level)
  CHECK(shot.file == fs::path("conf/minimal.json"));
  CHECK(shot.name == "minimal");
  CHECK(shot.fps == 24.0);
  CHECK(shot.frames == 120);
  REQUIRE(shot.cloths.size() == 1);
  CHECK_FALSE(shot.camera);
  CHECK(shot.obstacles.empty());
  CHECK(shot.stepsPerFrame == 4);
  CHECK(shot.maxObstacleStep == 6.0);
  CHECK(shot.checkpoint.every == 10);
  CHECK(shot.checkpoint.keep == 2);
  // dynamics
  const StepSettings& d = shot.dynamics;
  CHECK(d.gravity == Vec3(0.0, -9.81, 0.0));
  CHECK(d.solver == StepSolver::Auto);
  CHECK(d.pcg.tolerance == 0.003);
  CHECK(d.pcg.maxIterations == 1000);
  CHECK(d.pcg.preconditioner == PcgSettings::Preconditioner::Auto);
  CHECK(d.pcg.ssorMinNodes == 1000);  // not a key: "auto" sweeps (ssor) from 1,000 free nodes
  CHECK(d.pcg.ssorOmega == 0);  // not a key: from the free nodes (ssorOmegaFor)
  CHECK(d.pcg.warmStart);                   // not a key
  CHECK(d.iterations == 1);
  CHECK(d.cgTolerance == 1e-8);
  CHECK(d.maxSpeed == 100.0);
  CHECK(shot.frameTime() == Approx(1.0 / 24).epsilon(1e-15));
  CHECK(shot.stepTime() == Approx(1.0 / 96).epsilon(1e-15));
  // collision
  const CollisionParams& c = shot.collision;
  CHECK(c.enabled);
  CHECK(c.thickness == 0.005);
  CHECK(c.obstacleFriction == 0.3);
  CHECK(c.selfFriction == 0.2);
  CHECK(c.selfCollision);
  CHECK(c.iterations == 8);
  CHECK(c.zoneIterations == 32);  // not a key
  // wind
  const WindParams& w = shot.dynamics.wind;
  CHECK(w.velocity == Vec3(0.0, 0.0, 0.0));
  CHECK(w.density == 1.2);
  CHECK(w.drag == 1.0);
  CHECK(w.lift == 0.0);
  // cloths[0]
  const ClothSpec& cloth = shot.cloths[0];
  CHECK(cloth.name == "cloth0");
  CHECK(cloth.place == "/cloths/0");
  CHECK(cloth.mesh.type == MeshSpec::Type::File);
  // Paths resolve against the shot's folder and are made absolute (the same files from any working directory).
  const fs::path meshFile = (fs::current_path() / "meshes/a.obj").lexically_normal();
  CHECK(cloth.mesh.file == meshFile);
  CHECK(cloth.transform.translate == Vec3(0.0, 0.0, 0.0));
  CHECK(cloth.transform.rotateDeg == Vec3(0.0, 0.0, 0.0));
  CHECK(cloth.transform.scale == 1.0);
  CHECK(cloth.transform.rotation() == Mat3::Identity());
  // material: no preset; "Default 0.15 (cotton)" etc. in the key descriptions
  const MaterialParams& m = cloth.material;
  CHECK(m.preset == "");
  CHECK(m.density == 0.15);
  CHECK(m.stretch == 2000.0);
  CHECK(m.shear == 200.0);
  CHECK(m.bending == 5e-6);
  CHECK(m.damping == 0.002);
  CHECK(m.membrane == MaterialParams::Membrane::Springs);
  CHECK(cloth.handles.empty());
  CHECK_FALSE(cloth.strainLimit.enabled);  // absent: no limiting
  CHECK_FALSE(cloth.remeshing);            // `false`
  CHECK_FALSE(cloth.view);
  CHECK_FALSE(cloth.upsample);
  // The resolved shot (OUT/shot.resolved.json) spells out every default, and nothing else.
  nlohmann::json expected = unordered(R"({
    "name": "minimal", "fps": 24.0, "frames": 120,
    "cloths": [{"name": "cloth0", "mesh": "set below",
                "transform": {"translate": [0.0, 0.0, 0.0], "rotate_deg": [0.0, 0.0, 0.0], "scale": 1.0},
                "material": {"density": 0.15, "stretch": 2000.0, "shear": 200.0, "bending": 5e-6, "damping": 0.002,
                             "membrane": "springs"},
                "handles": [], "remeshing": false}],
    "steps_per_frame": 4, "max_obstacle_step": 6.0, "gravity": [0.0, -9.81, 0.0], "solver": "auto",
    "solver_tolerance": 0.003,
    "preroll_frames": 0, "solver_max_iterations": 1000, "solver_preconditioner": "auto", "iterations": 1,
    "cg_tolerance": 1e-8,
    "max_speed": 100.0, "checkpoint": {"every": 10, "keep": 2},
    "wind": {"velocity": [0.0, 0.0, 0.0], "density": 1.2, "drag": 1.0, "lift": 0.0},
    "obstacles": [],
    "collision": {"enabled": true, "thickness": 0.005, "obstacle_friction": 0.3, "self_friction": 0.2,
                  "self_collision": true, "iterations": 8}
  })");
  expected["cloths"][0]["mesh"] = meshFile.string();
  INFO("resolved: " << shot.resolved.dump());
  CHECK(unordered(shot.resolved) == expected);
}

TEST_CASE("material.membrane chooses springs or triangles, over a preset too; another word is refused", "[config]") {
  const std::string grid = R"({"camera": "c.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}},)";
  const Shot triangles = parseShot(grid + R"( "material": {"membrane": "triangles"}}]})", "conf/s.json");
  CHECK(triangles.cloths[0].material.membrane == MaterialParams::Membrane::Triangles);
  CHECK(triangles.resolved["cloths"][0]["material"]["membrane"] == "triangles");
  const Shot springs = parseShot(grid + R"( "material": {"membrane": "springs", "stretch": 300}}]})", "conf/s.json");
  CHECK(springs.cloths[0].material.membrane == MaterialParams::Membrane::Springs);
  const Shot knit = parseShot(grid + R"( "material": {"preset": "jersey", "membrane": "triangles"}}]})", "conf/s.json");
  CHECK(knit.cloths[0].material.membrane == MaterialParams::Membrane::Triangles);
  CHECK(knit.cloths[0].material.stretch == 300);
  CHECK(errorOf(grid + R"( "material": {"membrane": "fem"}}]})").find("/cloths/0/material/membrane") !=
        std::string::npos);
}

TEST_CASE("strain_limit.tethers turns the tethers on", "[config]") {
  const Shot shot = parseShot(R"({"camera": "c.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}},)"
                              R"( "strain_limit": {"max": 1.05, "tethers": true}}]})",
                              "conf/s.json");
  CHECK(shot.cloths[0].strainLimit.tethers);
  CHECK(shot.cloths[0].strainLimit.max == 1.05);
}

TEST_CASE("strain_limit.stiffening and onset set the limit's face term; out of range they are refused", "[config]") {
  const std::string grid = R"({"camera": "c.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}},)";
  const Shot shot = parseShot(grid + R"( "strain_limit": {"max": 1.05, "stiffening": 30, "onset": 0.4}}]})",
                              "conf/s.json");
  CHECK(shot.cloths[0].strainLimit.stiffening == 30);
  CHECK(shot.cloths[0].strainLimit.onset == 0.4);
  CHECK(errorOf(R"({"cloths": [{"mesh": "x.obj", "strain_limit": {"onset": 1.5}}]})") ==
        "conf/s.json: /cloths/0/strain_limit/onset: expected a value at most 1, got 1.5");
  CHECK(errorOf(R"({"cloths": [{"mesh": "x.obj", "strain_limit": {"stiffening": -1}}]})") ==
        "conf/s.json: /cloths/0/strain_limit/stiffening: expected a value at least 0, got -1");
}

TEST_CASE("strain_limit.stiffening, when absent, is 100 for a tight limit on cloth no handle binds to a body",
          "[config]") {
  // A flag held at two corners with a 1.05 limit: the passes alone leave its edges far past it (a soft knit: 1.35),
  // so the limit goes into the solve by default; a garment's stretch is the body's doing, and a loose limit needs no
  // help, so neither gets it; a given value, 0 included, is kept.
  const std::string head = R"({"camera": "c.json", "obstacles": [{"name": "body", "mesh": {"sphere": {"radius": 0.3}}}],)"
                           R"( "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}},)";
  const std::string held = R"( "handles": [{"region": {"min": [0, 0], "max": [0.1, 0.1]}}],)";
  const std::string bound = R"( "handles": [{"region": {"min": [0, 0], "max": [0.1, 0.1]}, "bind_to": "body"}],)";
  auto limitOf = [&](const std::string& handles, const std::string& limit) {
    return parseShot(head + handles + R"( "strain_limit": )" + limit + "}]}", "conf/s.json").cloths[0].strainLimit;
  };
  auto stiffening = [&](const std::string& handles, const std::string& limit) {
    return limitOf(handles, limit).stiffening;
  };
  CHECK(stiffening(held, R"({"max": 1.05})") == 100);
  CHECK(limitOf(held, R"({"max": 1.05})").onset == 0.1);
  // From an onset of 0.1, or 0.25 on soft cloth (under 500 N/m), where the earlier onset let the limit go.
  auto limitForStretch = [&](double stretch) {
    return limitOf(held + R"( "material": {"stretch": )" + std::to_string(stretch) + "},", R"({"max": 1.05})");
  };
  CHECK(limitForStretch(300).onset == 0.25);
  CHECK(limitForStretch(300).stiffening == 100);
  CHECK(limitForStretch(499).onset == 0.25);
  CHECK(limitForStretch(500).onset == 0.1);
  CHECK(limitForStretch(800).onset == 0.1);
  // 100 x the stretch, at most 200 kN/m (cotton's 100): denim's 8,000 N/m gets 25.
  CHECK(limitForStretch(2000).stiffening == 100);
  CHECK(limitForStretch(8000).stiffening == 25);
  CHECK(limitForStretch(8000).onset == 0.1);
  CHECK(limitOf(held, R"({"max": 1.05, "onset": 0.4})").onset == 0.4);
  CHECK(stiffening(held, R"({"max": 1.02})") == 100);
  CHECK(stiffening("", R"({"max": 1.05})") == 100);
  CHECK(stiffening(held, R"({"max": 1.06})") == 0);
  CHECK(limitOf(held, R"({"max": 1.06})").onset == 0.5);
  CHECK(stiffening(bound, R"({"max": 1.05})") == 0);
  CHECK(stiffening(held, R"({"max": 1.05, "stiffening": 0})") == 0);
  CHECK(stiffening(bound, R"({"max": 1.05, "stiffening": 50})") == 50);
  CHECK(limitOf(bound, R"({"max": 1.05, "stiffening": 50})").onset == 0.5);
}

// The optional objects of a cloth, given empty (or with only their required keys), get every documented default.
TEST_CASE("every optional object of a cloth gets its documented defaults", "[config]") {
  const std::string grid = R"("mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}})";
  Shot shot = parseShot(R"({"camera": "c.json", "cloths": [{)" + grid + R"(, "strain_limit": {},)"
                        R"( "remeshing": true, "view": {}, "upsample": {"operator": "x.bin"},)"
                        R"( "handles": [{"nodes": [0]}, {"region": {"min": [0, 0], "max": [1, 0]}},)"
                        R"(              {"points": [[0, 0, 0]]}]}]})",
                        "conf/s.json");
  const ClothSpec& cloth = shot.cloths[0];
  // strain_limit {}
  CHECK(cloth.strainLimit.enabled);
  CHECK(cloth.strainLimit.min == 0.9);
  CHECK(cloth.strainLimit.max == 1.1);
  CHECK(cloth.strainLimit.iterations == 4);
  CHECK_FALSE(cloth.strainLimit.tethers);
  CHECK(cloth.strainLimit.stiffening == 0);
  CHECK(cloth.strainLimit.onset == 0.5);
  // remeshing: true
  // The documented remeshing defaults, for `remeshing: true` and `remeshing: {}`.
  auto checkDefaultSizing = [](const std::optional<SizingParams>& sizing) {
    REQUIRE(sizing);
    CHECK(sizing->refineAngle == 0.3);
    CHECK(sizing->refineCompression == 0.01);
    CHECK(sizing->refineVelocity == 1.0);
    CHECK(sizing->sizeMin == 0.02);
    CHECK(sizing->sizeMax == 0.2);
    CHECK(sizing->aspectMin == 0.2);
  };
  checkDefaultSizing(cloth.remeshing);
  const nlohmann::json remeshingDefaults = unordered(
      R"({"refine_angle": 0.3, "refine_compression": 0.01, "refine_velocity": 1.0, "size": [0.02, 0.2],)"
      R"( "aspect_min": 0.2})");
  CHECK(unordered(defaultRemeshing()) == remeshingDefaults);
  CHECK(unordered(shot.resolved["cloths"][0]["remeshing"]) == remeshingDefaults);
  // `remeshing: {}` is the same as `true`
  const Shot emptyRemeshing = parseShot(R"({"cloths": [{)" + grid + R"(, "remeshing": {}}]})", "conf/s.json");
  checkDefaultSizing(emptyRemeshing.cloths[0].remeshing);
  // view {}
  REQUIRE(cloth.view);
  const ViewParams& v = *cloth.view;
  CHECK(v.fOut == 0.1);
  CHECK(v.margin == 0.2);
  CHECK(v.anticipationFrames == 12);
  CHECK(v.fullFrames == 4);
  CHECK(v.minPixels == 2.0);
  CHECK_FALSE(v.backface);
  CHECK(v.fBack == 0.3);
  CHECK(v.backRamp == 0.0);
  CHECK_FALSE(v.occlusion);
  CHECK(v.silhouetteThreshold == 0.2);
  CHECK(v.memorySeconds == 0.15);
  CHECK_FALSE(v.keepHeld);
  CHECK(unordered(shot.resolved["cloths"][0]["view"]) ==
        unordered(R"({"f_out": 0.1, "margin": 0.2, "anticipation": {"frames": 12, "full_frames": 4, "cut_ramp": true},)"
                            R"( "min_pixels": 2.0, "backface": false, "f_back": 0.3, "back_ramp": 0.0, "occlusion": false,)"
                            R"( "silhouette_threshold": 0.2, "memory": 0.15, "keep_held": false})"));
  // upsample {"operator": ...}
  REQUIRE(cloth.upsample);
  CHECK(cloth.upsample->operatorFile == fs::current_path() / "conf/x.bin");
  CHECK(cloth.upsample->blendLo == 1.0);
  CHECK(cloth.upsample->blendHi == 2.0);
  CHECK(cloth.upsample->smoothingPasses == 2);
  // handles: each selection, no motion, not bound, max_distance 0.05, bind_smoothing 0.05, bind_rigidity 1
  REQUIRE(cloth.handles.size() == 3);
  const HandleSpec::Select selects[] = {HandleSpec::Select::Nodes, HandleSpec::Select::Region,
                                        HandleSpec::Select::Points};
  for (size_t i = 0; i < 3; ++i) {
    const HandleSpec& h = cloth.handles[i];
    INFO("handle " << i);
    CHECK(h.select == selects[i]);
    CHECK(h.place == "/cloths/0/handles/" + std::to_string(i));
    CHECK(h.motion.empty());
    CHECK(h.bindTo == "");
    CHECK(h.maxDistance == 0.05);
    CHECK(h.bindSmoothing == 0.05);
    CHECK(h.bindRigidity == 1.0);
  }
  CHECK(cloth.handles[0].nodes == std::vector<int>{0});
  CHECK(cloth.handles[1].regionMin == Vec2(0, 0));
  CHECK(cloth.handles[1].regionMax == Vec2(1, 0));
  REQUIRE(cloth.handles[2].points.size() == 1);
  CHECK(cloth.handles[2].points[0] == Vec3(0, 0, 0));
}

TEST_CASE("mesh generators get their documented defaults", "[config]") {
  const Shot shot = parseShot(R"({"cloths": [{"mesh": {"tube": {"radius": 0.3, "length": 0.5}}},)"
                              R"(             {"mesh": {"disc": {"radius": 0.4}}},)"
                              R"(             {"mesh": {"grid": {"size": [2, 1], "cells": [3, 5]}}}]})",
                              "conf/s.json");
  const MeshSpec& tube = shot.cloths[0].mesh;
  CHECK(tube.type == MeshSpec::Type::Tube);
  CHECK(tube.radius == 0.3);
  CHECK(tube.length == 0.5);
  CHECK(tube.cellsAround == 32);
  CHECK(tube.cellsAlong == 16);
  const MeshSpec& disc = shot.cloths[1].mesh;
  CHECK(disc.type == MeshSpec::Type::Disc);
  CHECK(disc.radius == 0.4);
  CHECK(disc.rings == 16);
  const MeshSpec& grid = shot.cloths[2].mesh;
  CHECK(grid.type == MeshSpec::Type::Grid);
  CHECK(grid.size == Vec2(2, 1));
  CHECK(grid.cellsX == 3);
  CHECK(grid.cellsY == 5);
  CHECK(shot.cloths[1].name == "cloth1");
  CHECK(shot.cloths[2].place == "/cloths/2");
}

TEST_CASE("obstacles get their documented defaults", "[config]") {
  const Shot shot = parseShot(R"({"cloths": [{"mesh": "a.obj"}], "obstacles": [)"
                              R"( {"mesh": {"sphere": {"radius": 0.5}}},)"
                              R"( {"mesh": {"ground": {}}},)"
                              R"( {"mesh": {"sequence": {"pattern": "body_%04d.obj"}}},)"
                              R"( {"mesh": {"box": {"size": [1, 2, 3]}}, "motion": [{"time": 0}]}]})",
                              "conf/s.json");
  REQUIRE(shot.obstacles.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    const ObstacleSpec& o = shot.obstacles[i];
    INFO("obstacle " << i);
    CHECK(o.name == "obstacle" + std::to_string(i));
    CHECK(o.place == "/obstacles/" + std::to_string(i));
    CHECK(o.transform.translate == Vec3(0, 0, 0));
    CHECK(o.transform.rotateDeg == Vec3(0, 0, 0));
    CHECK(o.transform.scale == 1.0);
    CHECK_FALSE(o.smooth);  // "linear"
  }
  CHECK(shot.obstacles[0].shape == ObstacleSpec::Shape::Sphere);
  CHECK(shot.obstacles[0].radius == 0.5);
  CHECK(shot.obstacles[0].subdivisions == 3);
  CHECK(shot.obstacles[0].motion.empty());
  CHECK(shot.obstacles[1].shape == ObstacleSpec::Shape::Ground);
  CHECK(shot.obstacles[1].groundSize == 10.0);
  CHECK(shot.obstacles[2].shape == ObstacleSpec::Shape::Sequence);
  CHECK(fs::path(shot.obstacles[2].pattern) == fs::path("conf/body_%04d.obj"));
  CHECK(shot.obstacles[2].sequenceFps == 24.0);
  CHECK(shot.obstacles[2].firstFrame == 0);
  CHECK_FALSE(shot.obstacles[2].sequenceLoop);
  CHECK(shot.obstacles[3].shape == ObstacleSpec::Shape::Box);
  CHECK(shot.obstacles[3].size == Vec3(1, 2, 3));
  REQUIRE(shot.obstacles[3].motion.size() == 1);
  const ObstacleKey& key = shot.obstacles[3].motion[0];
  CHECK(key.time == 0.0);
  CHECK(key.translate == Vec3(0, 0, 0));
  CHECK(key.rotateDeg == Vec3(0, 0, 0));
  CHECK(key.scale == 1.0);
  CHECK(shot.prerollFrames == 0);
  CHECK(shot.obstacles[2].sequenceRest.empty());
  CHECK(shot.obstacles[2].preroll == 0.0);
}

TEST_CASE("a pre-roll: its length reaches every obstacle, and a rest mesh needs one", "[config]") {
  const Shot shot = parseShot(R"({"cloths": [{"mesh": "a.obj"}], "fps": 25, "preroll_frames": 10, "obstacles": [)"
                              R"( {"mesh": {"sequence": {"pattern": "body_%04d.obj", "rest": "rest.obj"}}},)"
                              R"( {"mesh": {"sphere": {"radius": 0.5}}}]})",
                              "conf/s.json");
  CHECK(shot.prerollFrames == 10);
  CHECK(shot.startTime() == Approx(-0.4));
  // Relative to the shot file, as every path.
  CHECK(shot.obstacles[0].sequenceRest.filename() == "rest.obj");
  CHECK(shot.obstacles[0].sequenceRest.parent_path().filename() == "conf");
  for (const ObstacleSpec& o : shot.obstacles) CHECK(o.preroll == Approx(0.4));
  CHECK(errorOf(R"({"cloths": [{"mesh": "a.obj"}], "obstacles": [)"
                R"( {"mesh": {"sequence": {"pattern": "body_%04d.obj", "rest": "rest.obj"}}}]})") ==
        "conf/s.json: /obstacles/0/mesh/sequence/rest: the rest mesh is where the shot's pre-roll starts: set "
        "\"preroll_frames\" (at the top level) to the frames it takes, or remove \"rest\"");
  CHECK_THAT(errorOf(R"({"cloths": [{"mesh": "a.obj"}], "preroll_frames": -1})"),
             Catch::StartsWith("conf/s.json: /preroll_frames: "));
}

TEST_CASE("a generated cloth of more than 10^8 faces is refused at once, naming the key", "[config]") {
  // Its 32-bit node and corner numbers would overflow (and the memory run out after minutes): refused while parsing.
  CHECK(errorOf(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [100000, 100000]}}}]})") ==
        "conf/s.json: /cloths/0/mesh/grid/cells: expected a cloth of at most 100,000,000 faces, got 20000000000 "
        "(fewer cells or rings)");
  CHECK(errorOf(R"({"cloths": [{"mesh": {"tube": {"radius": 1, "length": 1, "cells_around": 10000,)"
                R"( "cells_along": 5001}}}]})") ==
        "conf/s.json: /cloths/0/mesh/tube: expected a cloth of at most 100,000,000 faces, got 100020000 (fewer "
        "cells or rings)");
  CHECK(errorOf(R"({"cloths": [{"mesh": {"disc": {"radius": 1, "rings": 5000}}}]})") ==
        "conf/s.json: /cloths/0/mesh/disc/rings: expected a cloth of at most 100,000,000 faces, got 150000000 (fewer "
        "cells or rings)");
  // At the limit itself: accepted (the error is then a missing camera or nothing; not the size).
  CHECK(errorOf(R"({"cloths": [{"mesh": {"tube": {"radius": 1, "length": 1, "cells_around": 10000,)"
                R"( "cells_along": 5000}}}]})").find("faces") == std::string::npos);
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

TEST_CASE("every solver and preconditioner name reads as its own choice", "[config]") {
  const std::string cloth = R"("cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}])";
  auto read = [&](const std::string& keys) { return parseShot("{" + keys + ", " + cloth + "}", "s.json").dynamics; };
  CHECK(read(R"("solver": "auto")").solver == StepSolver::Auto);
  CHECK(read(R"("solver": "pcg")").solver == StepSolver::Pcg);
  CHECK(read(R"("solver": "direct")").solver == StepSolver::Direct);
  CHECK(read(R"("solver": "kang_cho")").solver == StepSolver::KangCho);
  CHECK(read(R"("solver": "cg")").solver == StepSolver::CG);
  using P = PcgSettings::Preconditioner;
  CHECK(read(R"("solver_preconditioner": "auto")").pcg.preconditioner == P::Auto);
  CHECK(read(R"("solver_preconditioner": "block_jacobi")").pcg.preconditioner == P::BlockJacobi);
  CHECK(read(R"("solver_preconditioner": "multigrid")").pcg.preconditioner == P::Multigrid);
  CHECK(read(R"("solver_preconditioner": "ssor")").pcg.preconditioner == P::Ssor);
}

TEST_CASE("every shot in conf/ runs on production settings, without work-arounds", "[config]") {
  // Issue 16: no per-shot solver, no raised max_speed, self-collision on, and on characters (cloths bound to a body)
  // the 5 mm thickness and a strain limit on every garment.
  const StepSettings defaultDynamics;
  const CollisionParams defaultCollision;
  int shots = 0;
  for (const char* folder : {"conf", "conf/upsample"})
    for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / folder)) {
      const std::string name = entry.path().filename().string();
      if (entry.path().extension() != ".json" || name[0] == '.') continue;  // .stress-*.json: tools/stress.py
      ++shots;
      INFO(entry.path());
      const Shot shot = loadShot(entry.path());
      CHECK(shot.dynamics.solver == defaultDynamics.solver);
      CHECK(shot.dynamics.maxSpeed == defaultDynamics.maxSpeed);
      CHECK(shot.collision.enabled);
      CHECK(shot.collision.selfCollision);
      for (const ClothSpec& cloth : shot.cloths) {
        bool worn = false;
        for (const HandleSpec& handle : cloth.handles) worn = worn || !handle.bindTo.empty();
        if (!worn) continue;
        INFO(cloth.name);
        CHECK(shot.collision.thickness == defaultCollision.thickness);
        CHECK(cloth.strainLimit.enabled);
      }
    }
  CHECK(shots >= 10);
}
