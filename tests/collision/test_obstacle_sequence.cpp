// Deforming obstacles from OBJ sequences: interpolation between files, hold after the last file, and looping
// (`mesh.sequence.loop`) with a phase given by `first`.
#include <catch2/catch.hpp>

#include "collision/obstacle.h"
#include "config/shot.h"
#include "test_util.h"

using namespace adacloth;
using adacloth::test::TempDir;

namespace {

// A triangle shifted along X by `dx` (m): the x of its first vertex tells which blend of files we see.
std::string triangleAt(double dx) {
  auto v = [&](double x, double y) { return "v " + std::to_string(x + dx) + " " + std::to_string(y) + " 0\n"; };
  return v(0, 0) + v(1, 0) + v(0, 1) + "f 1 2 3\n";
}

// Files body_0000..body_0002 with the triangle at x = 0, 1 and 4, played at 2 files per second (period 1.5 s).
struct ThreeFiles {
  TempDir dir{"sequence"};
  ThreeFiles() {
    const double shift[3] = {0, 1, 4};
    for (int k = 0; k < 3; ++k) test::writeText(dir / ("body_000" + std::to_string(k) + ".obj"), triangleAt(shift[k]));
  }
  Obstacle obstacle(bool loop, int first, std::shared_ptr<SequenceFiles> shared = nullptr) const {
    ObstacleSpec spec;
    spec.shape = ObstacleSpec::Shape::Sequence;
    spec.name = "body";
    spec.place = "/obstacles/0";
    spec.pattern = (dir.path() / "body_%04d.obj").string();
    spec.sequenceFps = 2;
    spec.firstFrame = first;
    spec.sequenceLoop = loop;
    return Obstacle(spec, "conf/s.json", std::move(shared));
  }
};

double xAt(const Obstacle& o, double t) { return o.positionsAt(t)[0].x(); }

}  // namespace

TEST_CASE("a sequence without loop interpolates between files and holds the last", "[obstacle-sequence]") {
  ThreeFiles files;
  Obstacle o = files.obstacle(false, 0);
  CHECK(o.moves());
  CHECK(xAt(o, 0.0) == Approx(0.0));
  CHECK(xAt(o, 0.25) == Approx(0.5));   // halfway between files 0 and 1
  CHECK(xAt(o, 0.75) == Approx(2.5));   // halfway between files 1 and 2
  CHECK(xAt(o, 1.0) == Approx(4.0));
  CHECK(xAt(o, 1.25) == Approx(4.0));   // held
  CHECK(xAt(o, 10.0) == Approx(4.0));
}

TEST_CASE("a looping sequence wraps from the last file back to the first", "[obstacle-sequence]") {
  ThreeFiles files;
  Obstacle o = files.obstacle(true, 0);
  CHECK(xAt(o, 0.25) == Approx(0.5));   // inside the cycle
  CHECK(xAt(o, 1.0) == Approx(4.0));    // on the last file
  CHECK(xAt(o, 1.25) == Approx(2.0));   // between the last file and the first: no hold
  CHECK(xAt(o, 1.5) == Approx(0.0));    // one period: back to file 0
  CHECK(xAt(o, 1.75) == Approx(0.5));   // second cycle
  CHECK(xAt(o, 30 * 1.5 + 0.75) == Approx(2.5));  // many periods later
  for (double t : {0.1, 0.4, 0.9, 1.3}) CHECK(xAt(o, t + 1.5) == Approx(xAt(o, t)));
}

TEST_CASE("a looping sequence starts mid-cycle at file `first`", "[obstacle-sequence]") {
  ThreeFiles files;
  Obstacle o = files.obstacle(true, 1);
  CHECK(xAt(o, 0.0) == Approx(1.0));    // file 1 at time 0
  CHECK(xAt(o, 0.25) == Approx(2.5));
  CHECK(xAt(o, 0.75) == Approx(2.0));   // wraps: between file 2 and file 0
  CHECK(xAt(o, 1.0) == Approx(0.0));    // file 0 (lower than `first`) belongs to the cycle
  CHECK(xAt(o, 1.5) == Approx(1.0));    // a period later: back at file 1
  // Without loop, `first` skips the lower files and holds the last.
  Obstacle plain = files.obstacle(false, 1);
  CHECK(xAt(plain, 0.0) == Approx(1.0));
  CHECK(xAt(plain, 1.0) == Approx(4.0));
}

TEST_CASE("the loop key is read from the shot and defaults to false", "[obstacle-sequence]") {
  auto shot = [](const std::string& sequence) {
    return parseShot(R"({"frames": 1, "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}],
                         "obstacles": [{"mesh": {"sequence": )" + sequence + "}}]}",
                     "conf/s.json");
  };
  CHECK_FALSE(shot(R"({"pattern": "b_%04d.obj"})").obstacles[0].sequenceLoop);
  Shot looping = shot(R"({"pattern": "b_%04d.obj", "loop": true, "first": 5})");
  CHECK(looping.obstacles[0].sequenceLoop);
  CHECK(looping.obstacles[0].firstFrame == 5);
  CHECK_THAT(test::shotErrorOf(R"({"cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}}],
               "obstacles": [{"mesh": {"sequence": {"pattern": "b_%04d.obj", "loop": 1}}}]})"),
             Catch::Contains("/obstacles/0/mesh/sequence/loop"));
}

TEST_CASE("obstacles playing one sequence read each file once", "[obstacle-sequence]") {
  // A crowd plays one cycle on several characters, and a bound garment keeps a copy of its character.
  ThreeFiles files;
  auto shared = std::make_shared<SequenceFiles>();
  Obstacle a = files.obstacle(true, 0, shared), b = files.obstacle(true, 1, shared);
  const Obstacle copy = a;
  CHECK(shared->reads() == 2);  // files 0 and 1, each read by the constructor of the obstacle starting there
  CHECK(xAt(a, 0.25) == Approx(0.5));
  CHECK(xAt(b, 0.25) == Approx(2.5));  // half a file later: between files 1 and 2
  CHECK(xAt(copy, 0.25) == Approx(0.5));
  CHECK(xAt(b, 0.0) == Approx(1.0));
  CHECK(shared->reads() == 3);  // files 0, 1 and 2, each once
}

TEST_CASE("the shared sequence cache drops the least recently used file", "[obstacle-sequence]") {
  ThreeFiles files;
  auto shared = std::make_shared<SequenceFiles>(2);
  Obstacle o = files.obstacle(false, 0, shared);  // reads file 0
  CHECK(xAt(o, 0.5) == Approx(1.0));               // file 1
  CHECK(xAt(o, 1.0) == Approx(4.0));               // file 2, dropping file 0
  CHECK(shared->reads() == 3);
  CHECK(xAt(o, 0.5) == Approx(1.0));               // file 1: still kept
  CHECK(shared->reads() == 3);
  CHECK(xAt(o, 0.0) == Approx(0.0));               // file 0 again
  CHECK(shared->reads() == 4);
}

TEST_CASE("a pre-roll moves a sequence from its rest mesh to its pose at time 0", "[obstacle-sequence]") {
  ThreeFiles files;
  test::writeText(files.dir / "rest.obj", triangleAt(-2));
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Sequence;
  spec.name = "body";
  spec.place = "/obstacles/0";
  spec.pattern = (files.dir.path() / "body_%04d.obj").string();
  spec.sequenceFps = 2;
  spec.firstFrame = 1;  // the pose at time 0 is file 1: x = 1
  spec.sequenceRest = files.dir.path() / "rest.obj";
  spec.preroll = 0.5;
  const Obstacle o(spec, "conf/s.json");
  CHECK(xAt(o, -1.0) == Approx(-2.0));   // before the pre-roll: the rest mesh
  CHECK(xAt(o, -0.5) == Approx(-2.0));   // its start
  CHECK(xAt(o, -0.25) == Approx(-0.5));  // halfway (eased: the middle is the middle)
  CHECK(xAt(o, -0.375) > -2.0 + 0.25 * 3 * 0.5 - 1e-9);  // eased in: slower than linear near the start...
  CHECK(xAt(o, -0.375) < -2.0 + 0.25 * 3);               // ...and behind the linear blend
  CHECK(xAt(o, 0.0) == Approx(1.0));     // the animation takes over
  CHECK(xAt(o, 0.25) == Approx(2.5));
  // Without a rest mesh the pre-roll holds the pose at time 0; without a pre-roll a looping cycle runs backwards
  // before 0.
  spec.sequenceRest.clear();
  spec.sequenceLoop = true;
  const Obstacle held(spec, "conf/s.json");
  CHECK(xAt(held, -0.25) == Approx(1.0));
  spec.preroll = 0;
  const Obstacle none(spec, "conf/s.json");
  CHECK(xAt(none, -0.25) == Approx(0.5));
  spec.sequenceLoop = false;
  // A rest mesh of another shape is bad input, named by its JSON pointer.
  test::writeText(files.dir / "bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n");
  spec.preroll = 0.5;
  spec.sequenceRest = files.dir.path() / "bad.obj";
  CHECK_THROWS_WITH(Obstacle(spec, "conf/s.json"),
                    Catch::StartsWith("conf/s.json: /obstacles/0/mesh/sequence/rest: ") &&
                        Catch::Contains("has 4 vertices and 2 faces; expected the sequence's (3 vertices, 1 faces"));
}
