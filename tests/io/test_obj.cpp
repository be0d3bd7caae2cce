#include <catch2/catch.hpp>

#include "io/error.h"
#include "io/obj.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

void requireSameMesh(const Mesh& a, const Mesh& b) {
  REQUIRE(a.nodes.size() == b.nodes.size());
  REQUIRE(a.verts.size() == b.verts.size());
  REQUIRE(a.faces.size() == b.faces.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) REQUIRE(a.nodes[i].x == b.nodes[i].x);
  for (size_t i = 0; i < a.verts.size(); ++i) {
    REQUIRE(a.verts[i].u == b.verts[i].u);
    REQUIRE(a.verts[i].node == b.verts[i].node);
  }
  for (size_t i = 0; i < a.faces.size(); ++i) REQUIRE(a.faces[i].verts == b.faces[i].verts);
}

// The error message of parsing `text`, or "" when it parses.
std::string errorOf(const std::string& text) {
  try {
    parseObj(text, "bad.obj");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* kSquare =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n";

}  // namespace

TEST_CASE("OBJ round trip keeps topology, seams and coordinates bit for bit", "[io]") {
  for (Mesh original : {makeGrid(0.7, 1.3, 5, 7), makeTube(0.123456789, 0.987654321, 9, 4), makeDisc(0.3, 4)}) {
    for (Node& n : original.nodes) n.x += Vec3(1.0 / 3.0, -2.0 / 7.0, 1e-9);  // numbers with long expansions
    std::string text = formatObj(original);
    Mesh read = parseObj(text, "roundtrip.obj");
    requireSameMesh(original, read);
    CHECK(validate(read).empty());
    CHECK(formatObj(read) == text);
  }
}

TEST_CASE("OBJ with seams and quads", "[io]") {
  Mesh m = readObj(std::string(ADACLOTH_TEST_DATA) + "/two_panels.obj");
  CHECK(validate(m).empty());
  CHECK(m.nodes.size() == 6);
  CHECK(m.verts.size() == 8);
  CHECK(m.faces.size() == 4);  // two quads, fan-triangulated
  CHECK(m.totalMaterialArea() == Approx(2.0));
  int seams = 0;
  for (size_t e = 0; e < m.edges.size(); ++e) seams += m.isSeam(int(e));
  CHECK(seams == 1);
}

TEST_CASE("OBJ without vt is unfolded from its plane", "[io]") {
  Mesh m = parseObj("v 0 0 0\nv 0 0 2\nv 0 1 2\nv 0 1 0\nf 1 2 3 4\n", "flat.obj");
  CHECK(validate(m).empty());
  CHECK(m.totalMaterialArea() == Approx(2.0));
  std::string err = errorOf("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0.5\nf 1 2 3\nf 1 3 4\n");
  CHECK_THAT(err, Catch::Contains("bad.obj") && Catch::Contains("not flat"));
}

TEST_CASE("OBJ whose vt run clockwise everywhere is mirrored, a mix is an error", "[io]") {
  Mesh m = parseObj("v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt -1 0\nvt -1 1\nf 1/1 2/2 3/3\n", "mirrored.obj");
  CHECK(validate(m).empty());
  // Consistent in the world, but the second face's vt run clockwise.
  std::string err = errorOf("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 1 -1\n"
                            "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\n");
  CHECK_THAT(err, Catch::Contains("bad.obj:10:") && Catch::Contains("flipped"));
}

TEST_CASE("every kind of broken OBJ is an input error naming file and line", "[io]") {
  using Catch::Contains;
  CHECK_THAT(errorOf("v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n"), Contains("bad.obj:2:") && Contains("finite"));
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0 inf\nv 0 1 0\nf 1 2 3\n"), Contains("bad.obj:2:") && Contains("finite"));
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0 zero\nv 0 1 0\nf 1 2 3\n"), Contains("bad.obj:2:") && Contains("not a number"));
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n"), Contains("bad.obj:2:") && Contains("expected 3"));
  CHECK_THAT(errorOf(std::string(kSquare) + "f 1/1 2/2 3/3\nf 1/1 3/3 9/4\n"),
             Contains("bad.obj:10:") && Contains("vertex 9"));
  CHECK_THAT(errorOf(std::string(kSquare) + "f 1/1 2/2 3/7\n"), Contains("bad.obj:9:") && Contains("coordinate 7"));
  CHECK_THAT(errorOf(std::string(kSquare) + "f 1/1 2/2 2/2\n"), Contains("bad.obj:9:") && Contains("degenerate"));
  // Collinear material coordinates: zero area.
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0 0\nv 2 0 0\nvt 0 0\nvt 1 0\nvt 2 0\nf 1/1 2/2 3/3\n"),
             Contains("bad.obj:7:") && Contains("degenerate"));
  // Three faces on the edge 1-2.
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0.5 0.5 0\n"
                     "f 1 2 3\nf 2 1 4\nf 1 2 5\n"),
             Contains("bad.obj:8:") && Contains("more than two faces"));
  CHECK_THAT(errorOf(std::string(kSquare) + "f 1/1 2/2 3/3\nf 1 3 4\n"), Contains("bad.obj:10:") && Contains("vt"));
  CHECK_THAT(errorOf("v 0 0 0\nv 1 0 0\n"), Contains("bad.obj") && Contains("no faces"));
  CHECK_THAT(errorOf(std::string(kSquare) + "f 1/1 2/2 3/3\nf 1/1 3/2 4/4\n"),
             Contains("bad.obj:10:") && Contains("two vertices"));
}

TEST_CASE("a missing OBJ file is an input error naming it", "[io]") {
  REQUIRE_THROWS_WITH(readObj("/nonexistent/cloth.obj"), Catch::Contains("/nonexistent/cloth.obj"));
}
