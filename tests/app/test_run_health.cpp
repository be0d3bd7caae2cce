// Contact trouble told while a run goes: each kind once per cloth, with a summary at the end.
#include <catch2/catch.hpp>

#include "app/run_health.h"

using namespace adacloth;

namespace {

config::Json clothLine(const std::string& name, int nodes, int contacts, int intersections, double stretchP99) {
  return {{"name", name}, {"nodes", nodes}, {"contacts", contacts}, {"intersections", intersections},
          {"stretch_p99", stretchP99}};
}

config::Json frameLine(int frame, const std::vector<config::Json>& cloths, int unresolved = 0) {
  config::Json line = {{"frame", frame}, {"cloths", cloths}};
  line["collision"] = {{"unresolved", unresolved}};
  return line;
}

}  // namespace

TEST_CASE("a healthy run raises nothing and sums up to nothing", "[app]") {
  RunHealth health;
  // A garment on a body: a few contacts per node at most, edges near their limit (the conf/ shots stay under 3).
  for (int f = 0; f <= 10; ++f)
    CHECK(health.observe(frameLine(f, {clothLine("skirt", 1000, 2900, 0, 1.09), clothLine("cape", 300, 30, 0, 1.2)}))
              .empty());
  CHECK(health.summary().empty());
}

TEST_CASE("cloth through cloth is told once per cloth, with the frame and the count", "[app]") {
  RunHealth health;
  CHECK(health.observe(frameLine(1, {clothLine("skirt", 1000, 10, 0, 1.05)})).empty());
  std::vector<std::string> w = health.observe(frameLine(2, {clothLine("skirt", 1000, 10, 3, 1.05)}));
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("frame 2: cloth \"skirt\"") == 0);
  CHECK(w[0].find("3 pairs of triangles through each other") != std::string::npos);
  CHECK(health.observe(frameLine(3, {clothLine("skirt", 1000, 10, 7, 1.05)})).empty());  // told already
  CHECK(health.observe(frameLine(4, {clothLine("skirt", 1000, 10, 0, 1.05)})).empty());
  const std::string s = health.summary();
  CHECK(s.find("over the run, ") == 0);
  CHECK(s.find("\"skirt\" ended 2 frames with triangles through each other (first frame 2, at most 7 pairs)") !=
        std::string::npos);
}

TEST_CASE("cloth told at the start to lie crossed is not told again as its frames end crossed", "[app]") {
  RunHealth health;
  health.toldCrossedAtStart("sheet");
  // The other cloth of the shot is told as before.
  std::vector<std::string> w =
      health.observe(frameLine(0, {clothLine("sheet", 500, 10, 40, 1.0), clothLine("skirt", 1000, 10, 2, 1.0)}));
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("cloth \"skirt\"") != std::string::npos);
  CHECK(health.observe(frameLine(1, {clothLine("sheet", 500, 10, 45, 1.0)})).empty());
  // The summary still counts the crossed frames.
  CHECK(health.summary().find("\"sheet\" ended 2 frames with triangles through each other (first frame 0, at most "
                              "45 pairs)") != std::string::npos);
}

TEST_CASE("a cloth crushed into itself is told when its contacts and its stretch both say so", "[app]") {
  RunHealth health;
  // Crumpled by a ball that lets go: 7 pairs per node, or many pairs with the edges near rest.
  CHECK(health.observe(frameLine(60, {clothLine("sheet", 2000, 14000, 0, 2.2)})).empty());
  CHECK(health.observe(frameLine(61, {clothLine("sheet", 2000, 40000, 0, 1.05)})).empty());
  // Knotted: the cotton sheet after the ball's second sweep (29 pairs per node, p99 2.6).
  const std::vector<std::string> w = health.observe(frameLine(120, {clothLine("sheet", 7098, 205073, 0, 2.58)}));
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("frame 120: cloth \"sheet\" is crushed into itself (29 contact pairs per node, edges stretched "
                  "2.6x") == 0);
  CHECK(health.summary() == "over the run, cloth \"sheet\" was crushed into itself in 1 frame (first frame 120)");
  CHECK(health.observe(frameLine(121, {clothLine("sheet", 7248, 247272, 0, 2.57)})).empty());
  CHECK(health.summary() == "over the run, cloth \"sheet\" was crushed into itself in 2 frames (first frame 120)");
}

TEST_CASE("unresolved pairs are summed up at the end, not told as they come", "[app]") {
  RunHealth health;
  CHECK(health.observe(frameLine(60, {clothLine("cape", 300, 30, 0, 1.1)}, 4)).empty());
  CHECK(health.observe(frameLine(63, {clothLine("cape", 300, 30, 0, 1.1)}, 1)).empty());
  CHECK(health.summary() ==
        "over the run, 5 colliding pairs left unresolved by the contact passes in 2 frames (first frame 60)");
}

TEST_CASE("a cloth torn apart is told from its stretch alone", "[app]") {
  RunHealth health;
  // A tablecloth jerked off a table: edges at 2.3x for two frames, few contacts. Not torn.
  CHECK(health.observe(frameLine(21, {clothLine("cloth", 1300, 80, 0, 2.26)})).empty());
  // A sheet torn on a ball that pressed it and let go: p99 3.9, then 22, with 4 contact pairs per node.
  const std::vector<std::string> w = health.observe(frameLine(20, {clothLine("tramp", 1514, 552, 0, 3.92)}));
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("frame 20: cloth \"tramp\" is torn apart (edges stretched 3.9x at the 99th percentile)") == 0);
  CHECK(health.observe(frameLine(30, {clothLine("tramp", 4120, 15661, 0, 21.83)})).empty());  // told already
  CHECK(health.summary() == "over the run, cloth \"tramp\" was torn apart in 2 frames (first frame 20, edges at most "
                            "21.8x at the 99th percentile)");
}

TEST_CASE("a knotted cloth is told as knotted and not also as torn", "[app]") {
  RunHealth health;
  const std::vector<std::string> w = health.observe(frameLine(5, {clothLine("sheet", 1000, 30000, 0, 4.0)}));
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("is crushed into itself") != std::string::npos);
  CHECK(health.summary().find("torn") == std::string::npos);
}
