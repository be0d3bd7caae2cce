// Self-tests of the regression comparator (no simulation): summaries, tolerances, NaN checks, thread-identity and
// image checks, the scene list.
#include <catch2/catch.hpp>

#include "io/error.h"
#include "regression/image_check.h"
#include "regression/output_identity.h"
#include "regression/scene_list.h"
#include "regression/summary.h"
#include "regression/summary_compare.h"
#include "render/png.h"
#include "test_util.h"

namespace adacloth::regression {
namespace {

using test::TempDir;
using test::writeText;

ClothFrame sheetAt(int frame) {
  ClothFrame c;
  c.name = "sheet";
  c.nodes = 1089;
  c.faces = 2048;
  c.bboxMin = Vec3(-0.5, 1.0 - 0.01 * frame, -0.5);
  c.bboxMax = Vec3(0.5, 1.5, 0.5);
  c.maxPenetration = 0.0005;
  c.intersections = 0;
  c.kineticEnergy = 0.2 + 0.01 * frame;
  c.potentialEnergy = 2.0;
  c.elasticEnergy = 0.05;
  return c;
}

Summary drapeSummary() {
  Summary s;
  s.scene = "drape";
  for (int f = 0; f <= 4; ++f) s.frames.push_back({f, {sheetAt(f)}});
  return s;
}

// The sheet of drapeSummary(): 0.15 kg under 9.81 m/s^2 (1.4715 N), so its potential energy of 2 J puts its centre
// of mass 1.359 m high.
const ClothWeights drapeWeights = {{"sheet", 0.15 * 9.81}};

bool anyContains(const std::vector<std::string>& messages, const std::string& part) {
  for (const std::string& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a regression summary agrees with itself and survives its JSON form", "[regression-suite]") {
  const Summary s = drapeSummary();
  CHECK(compareSummaries(s, s, Tolerances(), drapeWeights).empty());
  const Summary back = fromSummaryJson(toSummaryJson(s), "summary.json");
  // summary.json keeps six significant digits.
  Tolerances tight;
  tight.countRelative = tight.countAbsolute = tight.bboxRelative = 0;
  tight.bboxAbsolute = tight.penetrationSlack = tight.heightAbsolute = 1e-6;
  tight.kineticPeakShare = tight.elasticPeakShare = 1e-6;
  tight.intersectionsSlack = 0;
  CHECK(compareSummaries(s, back, tight, drapeWeights).empty());
  Summary moved = back;
  moved.frames[0].cloths[0].faces += 1;
  CHECK(compareSummaries(s, moved, tight, drapeWeights).size() == 1);
  CHECK_THROWS_AS(fromSummaryJson("{\"scene\": \"x\"}", "summary.json"), InputError);
}

TEST_CASE("the comparator names scene, frame, cloth and metric of a changed face count", "[regression-suite]") {
  const Summary ref = drapeSummary();
  Summary moved = ref;
  moved.frames[3].cloths[0].faces = 3120;
  const auto failures = compareSummaries(ref, moved, Tolerances(), drapeWeights);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0] == "drape frame 3 cloth sheet: faces 3120 outside reference range [1946, 2150] (reference 2048)");
  // Within max(5 %, 20) it passes.
  moved.frames[3].cloths[0].faces = 2048 + 100;
  CHECK(compareSummaries(ref, moved, Tolerances(), drapeWeights).empty());
}

TEST_CASE("the comparator catches a moved bounding box beyond max(2 cm, 2 % of the diagonal)", "[regression-suite]") {
  const Summary ref = drapeSummary();
  Summary moved = ref;
  // The diagonal is about 1.5 m, so 2 % = 3 cm is allowed.
  moved.frames[2].cloths[0].bboxMin.y() -= 0.025;
  CHECK(compareSummaries(ref, moved, Tolerances(), drapeWeights).empty());
  moved.frames[2].cloths[0].bboxMin.y() -= 0.02;
  const auto failures = compareSummaries(ref, moved, Tolerances(), drapeWeights);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].rfind("drape frame 2 cloth sheet: bbox_min moved 0.045 m (allowed 0.0", 0) == 0);
}

TEST_CASE("the comparator reports every moved metric of a scene, not only the first", "[regression-suite]") {
  const Summary ref = drapeSummary();
  Summary moved = ref;
  moved.frames[1].cloths[0].kineticEnergy = 0.5;
  moved.frames[4].cloths[0].maxPenetration = 0.003;
  moved.frames[4].cloths[0].intersections = 7;
  moved.frames[4].cloths[0].bboxMax.x() += 0.5;
  const auto failures = compareSummaries(ref, moved, Tolerances(), drapeWeights);
  CHECK(failures.size() == 4);
  CHECK(anyContains(failures, "drape frame 1 cloth sheet: kinetic_energy 0.5 J, reference 0.21 J: moved 0.29 J = "));
  CHECK(anyContains(failures, "drape frame 4 cloth sheet: max_penetration 0.003 m above reference 0.0005 m"));
  CHECK(anyContains(failures, "drape frame 4 cloth sheet: intersections 7 above reference 0 + allowed 2"));
  CHECK(anyContains(failures, "drape frame 4 cloth sheet: bbox_max moved 0.5 m"));
}

TEST_CASE("potential energy is compared as the height of the cloth's centre of mass", "[regression-suite]") {
  const Summary ref = drapeSummary();
  Summary moved = ref;
  // 1 cm of height is 0.014715 J for this sheet (0.7 % of its potential energy).
  moved.frames[2].cloths[0].potentialEnergy += 0.014;  // 0.95 cm
  CHECK(compareSummaries(ref, moved, Tolerances(), drapeWeights).empty());
  moved.frames[2].cloths[0].potentialEnergy += 0.002;  // 1.09 cm
  auto failures = compareSummaries(ref, moved, Tolerances(), drapeWeights);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0] == "drape frame 2 cloth sheet: centre of mass 1.37003 m high (potential_energy 2.016 J / weight "
                       "1.4715 N), reference 1.35916 m: moved 0.0108733 m (allowed 0.01 m)");
  // The same joules on a cloth ten times heavier are a tenth of the height.
  CHECK(compareSummaries(ref, moved, Tolerances(), {{"sheet", 14.715}}).empty());
  // Without gravity there is no potential energy to compare; a cloth the shot does not know is a failure.
  CHECK(compareSummaries(ref, moved, Tolerances(), {{"sheet", 0.0}}).empty());
  failures = compareSummaries(ref, ref, Tolerances(), {{"other", 1.0}});
  CHECK(failures.size() == ref.frames.size());
  CHECK(failures[0] == "drape frame 0 cloth sheet: no weight (mass and gravity) for this cloth in the shot");
}

TEST_CASE("a cloth's weight is its node mass under the shot's gravity", "[regression-suite]") {
  // conf/drape.json: a 1 m x 1 m cotton sheet (0.15 kg/m^2), default gravity 9.81 m/s^2.
  const ClothWeights drape = clothWeightsOf(test::sourceDir() / "conf" / "drape.json");
  REQUIRE(drape.size() == 1);
  CHECK(drape.at("sheet") == Approx(0.15 * 9.81).epsilon(1e-12));
  // conf/jump_cut.json: two 2.0 m x 2.4 m cotton curtains (meshes/README.md).
  const ClothWeights curtains = clothWeightsOf(test::sourceDir() / "conf" / "jump_cut.json");
  REQUIRE(curtains.size() == 2);
  CHECK(curtains.at("curtain_left") == Approx(2.0 * 2.4 * 0.15 * 9.81).epsilon(1e-3));
  CHECK(curtains.at("curtain_right") == curtains.at("curtain_left"));
}

TEST_CASE("kinetic and elastic energy are compared with the cloth's peak over the reference frames",
          "[regression-suite]") {
  Summary ref = drapeSummary();  // kinetic 0.20 .. 0.24 J (peak at frame 4), elastic 0.05 J
  ref.frames[3].cloths[0].elasticEnergy = 0.5;  // elastic peak 0.5 J at frame 3
  const Tolerances t;
  const double kineticAllowed = t.kineticPeakShare * 0.24, elasticAllowed = t.elasticPeakShare * 0.5;
  Summary moved = ref;
  // A frame far below the peak may move by the same joules as the peak frame itself, no more.
  moved.frames[0].cloths[0].kineticEnergy += 0.9 * kineticAllowed;
  moved.frames[4].cloths[0].kineticEnergy -= 0.9 * kineticAllowed;
  moved.frames[1].cloths[0].elasticEnergy += 0.9 * elasticAllowed;
  CHECK(compareSummaries(ref, moved, t, drapeWeights).empty());
  moved.frames[0].cloths[0].kineticEnergy += 0.2 * kineticAllowed;
  moved.frames[1].cloths[0].elasticEnergy -= 2 * elasticAllowed;
  const auto failures = compareSummaries(ref, moved, t, drapeWeights);
  REQUIRE(failures.size() == 2);
  CHECK(failures[0].rfind("drape frame 0 cloth sheet: kinetic_energy ", 0) == 0);
  CHECK_THAT(failures[0], Catch::Contains("= 1.1 % of the cloth's peak 0.24 J (allowed 1 %)"));
  CHECK(failures[1].rfind("drape frame 1 cloth sheet: elastic_energy ", 0) == 0);
  CHECK_THAT(failures[1], Catch::Contains("= 1.1 % of the cloth's peak 0.5 J (allowed 1 %)"));
  // Each kind has its own share (a contact scene's elastic energy is far more chaotic than its motion).
  Tolerances loose;
  loose.elasticPeakShare = 0.2;
  CHECK(compareSummaries(ref, moved, loose, drapeWeights).size() == 1);
}

TEST_CASE("the comparator reports missing frames and cloths on either side", "[regression-suite]") {
  const Summary ref = drapeSummary();
  Summary shorter = ref;
  shorter.frames.pop_back();
  shorter.frames[0].cloths[0].name = "other";
  const auto failures = compareSummaries(ref, shorter, Tolerances(), drapeWeights);
  CHECK(anyContains(failures, "drape frame 4: missing from the measured output"));
  CHECK(anyContains(failures, "drape frame 0 cloth sheet: missing from the measured output"));
  CHECK(anyContains(failures, "drape frame 0 cloth other: not in the reference"));
}

TEST_CASE("summarizing an output folder reads stats and frame OBJs and catches NaN", "[regression-suite]") {
  TempDir out("regression-summary");
  const std::string cloth = "{\"name\":\"sheet\",\"nodes\":3,\"faces\":1,\"max_penetration\":0.0,\"intersections\":0,"
                            "\"kinetic_energy\":0.1,\"potential_energy\":1.0,\"elastic_energy\":";
  writeText(out / "stats.jsonl", "{\"frame\":0,\"cloths\":[" + cloth + "0.0}]}\n{\"frame\":1,\"cloths\":[" + cloth +
                                     "null}]}\n");
  writeText(out / "frames/sheet_00000.obj", "v 0 0 0\nv 1 2 0\nv 0 1 -1\nf 1 2 3\n");
  writeText(out / "frames/sheet_00001.obj", "v 0 0 0\nv nan 2 0\nv 0 1 -1\nf 1 2 3\n");
  std::vector<std::string> problems;
  const Summary s = summarizeOutput(out.path(), "tiny", problems);
  REQUIRE(s.frames.size() == 2);
  CHECK(s.frames[0].cloths[0].faces == 1);
  CHECK(s.frames[0].cloths[0].bboxMin == Vec3(0, 0, -1));
  CHECK(s.frames[0].cloths[0].bboxMax == Vec3(1, 2, 0));
  CHECK(s.frames[0].cloths[0].potentialEnergy == 1.0);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] == "stats.jsonl line 2: /cloths/0/elastic_energy is not a finite number (null)");
  CHECK(problems[1] == "frames/sheet_00001.obj line 2: not three finite coordinates: 'v nan 2 0'");
}

TEST_CASE("a missing frame OBJ or stats key is a problem, not a silent zero", "[regression-suite]") {
  TempDir out("regression-missing");
  writeText(out / "stats.jsonl", "{\"frame\":0,\"cloths\":[{\"name\":\"sheet\",\"nodes\":3,\"faces\":1}]}\n");
  std::vector<std::string> problems;
  summarizeOutput(out.path(), "tiny", problems);
  CHECK(anyContains(problems, "stats.jsonl line 1 cloth sheet: no \"kinetic_energy\""));
  CHECK(anyContains(problems, "frames/sheet_00000.obj: missing or unreadable"));
}

TEST_CASE("outputs of two thread counts must match byte for byte, apart from wall times", "[regression-suite]") {
  TempDir a("regression-a"), b("regression-b");
  for (const TempDir* d : {&a, &b}) {
    writeText(*d / "frames/sheet_00000.obj", "v 0 0 0\nv 1 0 0\n");
    writeText(*d / "obstacles/ball_00000.obj", "v 0 0 0\n");
  }
  writeText(a / "stats.jsonl", "{\"frame\":0,\"wall_ms\":{\"total\":12.5},\"cloths\":[]}\n");
  writeText(b / "stats.jsonl", "{\"frame\":0,\"wall_ms\":{\"total\":9.0},\"cloths\":[]}\n");
  CHECK(compareOutputs("drape", a.path(), "1 thread", b.path(), "2 threads").empty());

  writeText(b / "frames/sheet_00000.obj", "v 0 0 0\nv 1 0 1e-17\n");
  writeText(b / "frames/sheet_00001.obj", "v 0 0 0\n");
  const auto failures = compareOutputs("drape", a.path(), "1 thread", b.path(), "2 threads");
  REQUIRE(failures.size() == 2);
  CHECK(failures[0] == "drape: frames/sheet_00000.obj differs at line 2 (1 thread vs 2 threads): 'v 1 0 0' vs "
                       "'v 1 0 1e-17'");
  CHECK(failures[1] == "drape: frames/sheet_00001.obj written with 2 threads but not with 1 thread");
  CHECK(firstDifference("a\nb\n", "a\nb\nc\n").line == 3);
  CHECK(firstDifference("same\n", "same\n").line == 0);
}

TEST_CASE("a rendered frame is compared with its reference PNG by the share of differing pixels",
          "[regression-suite]") {
  TempDir dir("regression-png");
  Image grey(40, 20);
  std::fill(grey.pixels.begin(), grey.pixels.end(), 128);
  writePng(grey, dir / "ref.png");
  Image slightly = grey;
  slightly.at(3, 4)[0] = 255;  // one pixel of 800: 0.125 %, within 1 %
  writePng(slightly, dir / "one.png");
  Image half = grey;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 40; ++x) half.at(x, y)[1] = 0;
  writePng(half, dir / "half.png");
  const Tolerances t;
  CHECK_FALSE(checkFrameImage("flag", 6, dir / "ref.png", dir / "one.png", t));
  const auto failure = checkFrameImage("flag", 6, dir / "ref.png", dir / "half.png", t);
  REQUIRE(failure);
  CHECK(failure->rfind("flag frame 6: image: 50.000% of pixels differ by more than 32 (allowed 1.000%)", 0) == 0);
  const auto missing = checkFrameImage("flag", 6, dir / "none.png", dir / "half.png", t);
  REQUIRE(missing);
  CHECK(missing->find("no reference") != std::string::npos);
}

TEST_CASE("the scene list names existing shots and reads tolerances with their documented defaults",
          "[regression-suite]") {
  const auto scenes = loadSceneList(regressionDir() / "scenes.json", ADACLOTH_SOURCE_DIR);
  REQUIRE_FALSE(scenes.empty());
  for (const SceneSpec& s : scenes) {
    INFO(s.name);
    CHECK(std::filesystem::is_regular_file(s.shot));
    CHECK(s.threads.size() >= 2);
  }
  TempDir dir("regression-list");
  writeText(dir / "scenes.json", "{\"scenes\": [{\"name\": \"a\", \"shot\": \"conf/drape.json\", \"frames\": 3,"
                                 " \"tolerances\": {\"bbox_absolute\": 0.05, \"elastic_peak_share\": 0.8}}]}");
  const auto one = loadSceneList(dir / "scenes.json", ADACLOTH_SOURCE_DIR);
  REQUIRE(one.size() == 1);
  CHECK(one[0].tolerances.bboxAbsolute == 0.05);
  CHECK(one[0].tolerances.elasticPeakShare == 0.8);
  CHECK(one[0].tolerances.kineticPeakShare == Tolerances().kineticPeakShare);
  CHECK(one[0].tolerances.heightAbsolute == Tolerances().heightAbsolute);
  CHECK(one[0].tolerances.countAbsolute == Tolerances().countAbsolute);
  CHECK(one[0].tolerances.imageMaxShare == Tolerances().imageMaxShare);
  CHECK(one[0].threads == std::vector<int>{1, 2});
  writeText(dir / "bad.json", "{\"scenes\": [{\"name\": \"a\", \"shot\": \"conf/drape.json\", \"frames\": 3,"
                              " \"tolerances\": {\"bbox_absolut\": 0.05}}]}");
  try {
    loadSceneList(dir / "bad.json", ADACLOTH_SOURCE_DIR);
    FAIL("an unknown key was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("/scenes/0/tolerances/bbox_absolut: unknown key") != std::string::npos);
  }
}

}  // namespace adacloth::regression
