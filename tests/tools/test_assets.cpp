// The procedural assets of tools/assets (issue 8, item 1): the mannequin is a closed genus-0 surface facing
// outwards, its gaits loop exactly, the garments load as cloth, fit the body and start outside it, and running the
// generator reproduces the committed meshes/ byte for byte.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "assets/asset_files.h"
#include "assets/garments.h"
#include "assets/mannequin.h"
#include "assets/decimate.h"
#include "assets/marching_tets.h"
#include "assets/motions.h"
#include "collision/obstacle.h"
#include "io/atomic_file.h"
#include "io/obj.h"
#include "test_util.h"

using namespace adacloth;
using namespace adacloth::assets;
using adacloth::test::TempDir;

namespace {

const Mannequin& mannequin() {
  static const Mannequin m = makeMannequin(kMannequinFaces);
  return m;
}

double maxDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

// Loads a garment through adacloth's own OBJ reader, as a shot would.
Mesh loadGarment(const Garment& g, const TempDir& dir) {
  const fs::path file = dir / (g.name + ".obj");
  writeFileAtomically(file, formatGarmentObj(g));
  return readObj(file);
}

// Material length (m) of the boundary edges whose two verts lie in the garment's pin rectangle.
double pinnedEdgeLength(const Mesh& mesh, const Garment& g) {
  auto inside = [&](int vert) {
    const Vec2& u = mesh.verts[vert].u;
    return (u.array() >= g.pinMin.array()).all() && (u.array() <= g.pinMax.array()).all();
  };
  double length = 0;
  for (const Face& f : mesh.faces)
    for (int c = 0; c < 3; ++c) {
      const int a = f.verts[c], b = f.verts[(c + 1) % 3];
      if (inside(a) && inside(b)) length += (mesh.verts[a].u - mesh.verts[b].u).norm();
    }
  return length;
}

int vertsInPinRectangle(const Mesh& mesh, const Garment& g) {
  int n = 0;
  for (const Vert& v : mesh.verts)
    n += (v.u.array() >= g.pinMin.array()).all() && (v.u.array() <= g.pinMax.array()).all();
  return n;
}

}  // namespace

TEST_CASE("the mannequin is one closed genus-0 surface of an adult's volume, facing outwards", "[assets]") {
  const Surface& s = mannequin().rest;
  const std::vector<std::string> problems = closedManifoldProblems(s);
  INFO((problems.empty() ? std::string() : problems.front()));
  CHECK(problems.empty());
  CHECK(eulerCharacteristic(s) == 2);
  CHECK(connectedComponents(s) == 1);
  CHECK(s.faces.size() >= 5000);
  CHECK(s.faces.size() <= 20000);
  const double volume = signedVolume(s);  // m^3; positive only when the faces point outwards
  CHECK(volume > 0.06);
  CHECK(volume < 0.09);
  // Proportions: 1.75 m tall, feet on the ground, facing +Z (toes ahead of heels).
  double minY = 1e9, maxY = -1e9, maxZ = -1e9, minZ = 1e9;
  for (const Vec3& p : s.x) {
    minY = std::min(minY, p.y());
    maxY = std::max(maxY, p.y());
    maxZ = std::max(maxZ, p.z());
    minZ = std::min(minZ, p.z());
  }
  CHECK(minY == Approx(0.0).margin(0.005));
  CHECK(maxY == Approx(1.75).margin(0.01));
  CHECK(maxZ > -minZ);
}

TEST_CASE("marching tetrahedra gives a closed surface of a sphere with the right volume", "[assets]") {
  GridSpec grid;
  grid.lower = Vec3(-0.31, -0.3, -0.29);
  grid.upper = Vec3(0.3, 0.3, 0.3);
  grid.spacing = 0.02;
  const Surface s = marchingTetrahedra([](const Vec3& p) { return p.norm() - 0.2; }, grid);
  CHECK(closedManifoldProblems(s).empty());
  CHECK(eulerCharacteristic(s) == 2);
  CHECK(signedVolume(s) == Approx(4.0 / 3.0 * M_PI * 0.008).epsilon(0.03));
  // A torus has genus 1: Euler characteristic 0.
  const Surface torus = marchingTetrahedra(
      [](const Vec3& p) { return Vec2(Vec2(p.x(), p.z()).norm() - 0.2, p.y()).norm() - 0.06; }, grid);
  CHECK(closedManifoldProblems(torus).empty());
  CHECK(eulerCharacteristic(torus) == 0);
}

TEST_CASE("decimation keeps a closed surface of the same genus and shape", "[assets]") {
  GridSpec grid;
  grid.lower = Vec3(-0.31, -0.3, -0.29);
  grid.upper = Vec3(0.3, 0.3, 0.3);
  grid.spacing = 0.02;
  auto torusDistance = [](const Vec3& p) { return Vec2(Vec2(p.x(), p.z()).norm() - 0.2, p.y()).norm() - 0.06; };
  const Surface fine = marchingTetrahedra(torusDistance, grid);
  const Surface coarse = decimate(fine, 1500, torusDistance);
  REQUIRE(fine.faces.size() > 4000);
  CHECK(coarse.faces.size() <= 1500);
  CHECK(closedManifoldProblems(coarse).empty());
  CHECK(eulerCharacteristic(coarse) == 0);
  CHECK(signedVolume(coarse) == Approx(2 * M_PI * M_PI * 0.2 * 0.06 * 0.06).epsilon(0.04));
  for (const Vec3& p : coarse.x) CHECK(std::abs(torusDistance(p)) < 1e-4);  // vertices stay on the surface
}

TEST_CASE("skinning with the rest pose gives back the rest surface", "[assets]") {
  const Mannequin& m = mannequin();
  const std::vector<Vec3> x =
      skin(m.weights, m.rest.x, boneTransforms(m.body.skeleton, restPose(m.body.skeleton)));
  CHECK(maxDistance(x, m.rest.x) < 1e-12);
  for (const auto& w : m.weights.weights) CHECK(w[0] + w[1] + w[2] + w[3] == Approx(1.0));
}

TEST_CASE("walk and run loop exactly, keep their vertices and slide the stance foot at their speed", "[assets]") {
  const Mannequin& m = mannequin();
  const Skeleton& sk = m.body.skeleton;
  for (const Gait& g : {walkGait(), runGait()}) {
    INFO(g.name);
    for (double t : {0.0, 0.13, 0.41}) {
      const Surface a = posedSurface(m, g, t), b = posedSurface(m, g, t + g.period);
      REQUIRE(a.x.size() == m.rest.x.size());
      CHECK(a.faces == m.rest.faces);
      CHECK(maxDistance(a.x, b.x) < 1e-9);
      CHECK(maxDistance(a.x, posedSurface(m, g, t + 0.5 * g.period).x) > 0.05);  // it does move
    }
    // Treadmill: in mid-stance the left ankle moves backwards at the gait's speed and stays near the ground.
    const double t = timeAtPhase(g, 0.25 * g.stance), dt = 1e-4;
    auto ankle = [&](double time) {
      return boneTransforms(sk, gaitPose(sk, g, time))[sk.find("l_foot")].apply(sk.bones[sk.find("l_foot")].head);
    };
    CHECK((ankle(t + dt).z() - ankle(t).z()) / dt == Approx(-g.speed).epsilon(0.02));
    CHECK(ankle(t).y() == Approx(0.08).margin(0.005));
    double lowest = 1e9;
    for (const Vec3& p : posedSurface(m, g, t).x) lowest = std::min(lowest, p.y());
    CHECK(lowest == Approx(0.0).margin(0.01));  // the sole is on the treadmill
  }
  CHECK(walkGait().speed == Approx(1.3));
  CHECK(runGait().period < 0.75);
  CHECK(runGait().speed >= 2.9);
}

TEST_CASE("the garments load as cloth meshes and pass validate()", "[assets]") {
  TempDir dir("garments");
  const BodyModel body = makeBodyModel();
  for (const Garment& g : {makeSkirt(body), makeCape(body), makeCurtain(), makeFlag()}) {
    INFO(g.name);
    const Mesh mesh = loadGarment(g, dir);
    const std::vector<std::string> problems = validate(mesh);
    INFO((problems.empty() ? std::string() : problems.front()));
    CHECK(problems.empty());
    CHECK(mesh.faces.size() >= 1000);
    CHECK(mesh.faces.size() <= 3500);
    // Edges of a few centimetres (remeshing refines from there).
    const auto [shortest, longest] = edgeLengthRange(mesh);
    CHECK(shortest > 0.01);
    CHECK(longest < 0.1);
    // Material and world agree: the panels are developed without stretch (within the chord error).
    CHECK(mesh.totalWorldArea() == Approx(mesh.totalMaterialArea()).epsilon(0.01));
  }
}

TEST_CASE("the skirt is sewn from panels whose waistband rests on the hips", "[assets]") {
  TempDir dir("skirt");
  const BodyModel body = makeBodyModel();
  const Garment skirt = makeSkirt(body);
  const Mesh mesh = loadGarment(skirt, dir);
  int seamNodes = 0;
  for (const Node& n : mesh.nodes) seamNodes += n.seam;
  CHECK(seamNodes == 4 * 18);  // four side seams, 18 nodes from waist to hem
  // The waistband (the pinned top row) is shorter than the hips and longer than the waist: it cannot fall off.
  const double waistband = pinnedEdgeLength(mesh, skirt);
  double hips = 0;
  for (double y = 0.85; y <= 0.98; y += 0.01) hips = std::max(hips, girth(body, y));
  const double waist = girth(body, 1.09);
  INFO("waist " << waist << " m, waistband " << waistband << " m, hips " << hips << " m");
  CHECK(waist < waistband);
  CHECK(waistband < hips - 0.03);
  CHECK(hips > 0.85);
  CHECK(hips < 1.1);
}

TEST_CASE("the pin rectangles select exactly the top edges", "[assets]") {
  TempDir dir("pins");
  const BodyModel body = makeBodyModel();
  CHECK(vertsInPinRectangle(loadGarment(makeSkirt(body), dir), makeSkirt(body)) == 4 * 13);
  CHECK(vertsInPinRectangle(loadGarment(makeCape(body), dir), makeCape(body)) == 29);
  CHECK(vertsInPinRectangle(loadGarment(makeCurtain(), dir), makeCurtain()) == 41);
  CHECK(vertsInPinRectangle(loadGarment(makeFlag(), dir), makeFlag()) == 21);
}

TEST_CASE("skirt and cape start outside the body, with clearance", "[assets]") {
  const BodyModel body = makeBodyModel();
  const std::vector<BoneTransform> walkStart =
      boneTransforms(body.skeleton, gaitPose(body.skeleton, walkGait(), 0.0));
  for (const Garment& g : {makeSkirt(body), makeCoarseSkirt(body), makeCape(body)}) {
    INFO(g.name);
    double nearest = 1e9, nearestWalking = 1e9;
    for (const Vec3& p : g.x) {
      nearest = std::min(nearest, bodyDistance(body, p));
      nearestWalking = std::min(nearestWalking, posedBodyDistance(body, walkStart, p));
    }
    CHECK(nearest > 0.008);
    CHECK(nearest < 0.03);            // close to the body, not floating
    CHECK(nearestWalking > 0.0);      // also clear of the first pose of the walk
  }
}

// Tagged [regression] (Release ctest only): it regenerates every asset, which takes a minute under the sanitizers.
TEST_CASE("make_assets reproduces the committed meshes/ byte for byte", "[assets][regression]") {
  TempDir dir("assets");
  writeAssets(dir.path());
  const fs::path committed = test::sourceDir() / "meshes";
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), dir.path());
    INFO(relative.string());
    REQUIRE(fs::exists(committed / relative));
    CHECK(readFile(committed / relative) == readFile(entry.path()));
    ++files;
  }
  CHECK(files > 20);
}

TEST_CASE("the walk sequence plays as a looping obstacle", "[assets]") {
  ObstacleSpec spec;
  spec.shape = ObstacleSpec::Shape::Sequence;
  spec.name = "mannequin";
  spec.pattern = (test::sourceDir() / "meshes/mannequin_walk/mannequin_walk_%04d.obj").string();
  spec.sequenceFps = kSequenceFilesPerSecond;
  spec.sequenceLoop = true;
  const Obstacle body(spec, "conf/s.json");
  const double period = walkGait().period;
  CHECK(maxDistance(body.positionsAt(0.1), body.positionsAt(0.1 + period)) < 1e-12);
  CHECK(maxDistance(body.positionsAt(period - 1e-4), body.positionsAt(0.0)) < 2e-3);  // no jump at the wrap
  CHECK(maxDistance(body.positionsAt(0.5 * period), body.positionsAt(0.0)) > 0.1);
}
