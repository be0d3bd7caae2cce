#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <fstream>

#include "io/atomic_file.h"
#include "io/error.h"
#include "mesh/generators.h"
#include "test_util.h"
#include "upsample/evaluate.h"
#include "upsample/model_kind.h"
#include "upsample/wrinkle_file.h"

using namespace adacloth;

namespace {

// A 1 x 0.5 m grid squeezed along x by `squeeze` (coarse: uniformly; fine: the same plus a wrinkle of amplitude
// proportional to the squeeze, as compressed cloth does), so the fine detail follows from the coarse edge lengths.
struct SqueezeFrame {
  Eigen::MatrixX3d coarse, fine;
};

SqueezeFrame squeezed(const MeshPair& pair, double squeeze) {
  SqueezeFrame f;
  f.coarse = nodePositions(pair.coarse);
  f.coarse.col(0) *= 1.0 - squeeze;
  f.fine = pair.sub.midpoint * f.coarse;
  for (Eigen::Index n = 0; n < f.fine.rows(); ++n)
    f.fine(n, 2) += 0.2 * squeeze * std::sin(20 * f.fine(n, 0)) * std::sin(M_PI * f.fine(n, 1) / 0.5);
  return f;
}

TrainingSequence squeezeSequence(const MeshPair& pair, const std::vector<double>& squeezes) {
  TrainingSequence seq;
  for (double s : squeezes) {
    const SqueezeFrame f = squeezed(pair, s);
    seq.coarse.push_back(f.coarse);
    seq.fine.push_back(f.fine);
    seq.time.push_back(double(seq.time.size()) / 24);
  }
  return seq;
}

double maxDistance(const Eigen::MatrixX3d& a, const Eigen::MatrixX3d& b) { return (a - b).rowwise().norm().maxCoeff(); }

}  // namespace

TEST_CASE("the edge metric of a node weighs its own edges most and sums to 1", "[upsample]") {
  Mesh grid = makeGrid(1.0, 0.5, 4, 2);
  grid.buildAdjacency();
  const auto metrics = nodeEdgeMetrics(grid, 0.5, 16);
  REQUIRE(metrics.size() == grid.nodes.size());
  for (size_t i = 0; i < metrics.size(); ++i) {
    double sum = 0;
    for (double w : metrics[i].weights) sum += w;
    CHECK(sum == Approx(1.0));
    CHECK(metrics[i].edges.size() == 16);
    // The first (heaviest) edge touches the node.
    const auto& e = grid.edges[size_t(metrics[i].edges.front())].nodes;
    CHECK((e[0] == int(i) || e[1] == int(i)));
  }
}

TEST_CASE("wrinkles: the rest pose alone reproduces the rest fine mesh", "[upsample]") {
  WrinkleParams params;
  params.poses = 1;
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 4, 2), 2);
  const TrainingSequence seq = squeezeSequence(pair, {0.1});
  const WrinkleTraining t = trainWrinkles(pair, params, {seq}, {});
  REQUIRE(t.model.poseCount() == 1);
  CHECK(maxDistance(t.model.apply(nodePositions(pair.coarse)), nodePositions(pair.sub.fine)) < 1e-6);
}

TEST_CASE("wrinkles: greedy poses reproduce their frames, interpolate between them, and follow rigid motion",
          "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 4, 2), 2);
  const TrainingSequence seq = squeezeSequence(pair, {0.02, 0.05, 0.08, 0.11, 0.14});
  WrinkleParams params;
  params.poses = 3;
  params.rbfDamping = 1e-9;
  const WrinkleTraining t = trainWrinkles(pair, params, {seq}, {});
  REQUIRE(t.model.poseCount() == 3);
  // The largest wrinkle is the farthest from the rest pose: chosen first.
  REQUIRE(t.chosen.size() == 2);
  CHECK(t.chosen[0] == std::array<int, 2>{0, 4});
  CHECK(t.trainingError[1] < t.trainingError[0]);
  CHECK(t.trainingError[2] <= t.trainingError[1]);
  for (const auto& c : t.chosen)
    CHECK(maxDistance(t.model.apply(seq.coarse[size_t(c[1])]), seq.fine[size_t(c[1])]) < 1e-5);
  // A squeeze between the examples gets a wrinkle between theirs: closer than the smooth surface alone.
  const SqueezeFrame mid = squeezed(pair, 0.125);
  const Eigen::MatrixX3d predicted = t.model.apply(mid.coarse);
  CHECK((predicted - mid.fine).rowwise().norm().mean() <
        0.5 * (t.model.smoothMap() * mid.coarse - mid.fine).rowwise().norm().mean());
  // Edge lengths and surface frames move with the cloth: a rigid motion of the coarse mesh moves the output alike.
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::RowVector3d shift(0.3, -1.0, 2.0);
  const Eigen::MatrixX3d moved = (mid.coarse * R.transpose()).rowwise() + shift;
  const Eigen::MatrixX3d expected = (predicted * R.transpose()).rowwise() + shift;
  CHECK(maxDistance(t.model.apply(moved), expected) < 1e-5);
}

TEST_CASE("wrinkles: validation keeps the pose count with the lowest validation error", "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 4, 2), 1);
  const TrainingSequence train = squeezeSequence(pair, {0.03, 0.06, 0.09, 0.12}),
                         valid = squeezeSequence(pair, {0.045, 0.105});
  WrinkleParams params;
  params.poses = 4;
  const WrinkleTraining t = trainWrinkles(pair, params, {train}, {valid});
  REQUIRE(t.validationError.size() == 4);
  const size_t best = size_t(std::min_element(t.validationError.begin(), t.validationError.end()) -
                             t.validationError.begin());
  CHECK(t.model.poseCount() == best + 1);
  CHECK(upsamplingError([&](const TrainingSequence& s, size_t f) { return t.model.apply(s.coarse[f]); }, {valid})
            .mean == Approx(t.validationError[best]).epsilon(1e-9));
}

TEST_CASE("wrinkle model files round-trip and reject corruption", "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 4, 2), 2);
  WrinkleParams params;
  params.poses = 2;
  params.base = WrinkleBase::Loop;
  const WrinkleTraining t = trainWrinkles(pair, params, {squeezeSequence(pair, {0.05, 0.1})}, {});
  test::TempDir dir("wrinkles");
  const std::string file = (dir / "w.bin").string();
  saveWrinkleModel(t.model, file);
  CHECK(modelFileMethod(file) == UpsampleMethod::Wrinkles);
  const WrinkleModel back = loadWrinkleModel(file);
  CHECK(back.poseCount() == 2);
  CHECK(back.params.base == WrinkleBase::Loop);
  const SqueezeFrame f = squeezed(pair, 0.07);
  CHECK(maxDistance(back.apply(f.coarse), t.model.apply(f.coarse)) == 0.0);
  const std::string bytes = readFile(file);
  auto rejects = [&](const std::string& content, const char* what) {
    writeFileAtomically(file, content);
    CHECK_THROWS_WITH(loadWrinkleModel(file), Catch::Contains(file) && Catch::Contains(what));
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  rejects(flipped, "checksum");
  rejects(bytes.substr(0, bytes.size() - 9), "checksum");
  rejects("ADCUPSMP" + bytes.substr(8), "magic");
  std::string version = bytes;
  version[8] = 7;
  rejects(version, "version");
}

TEST_CASE("mean absolute curvature of a cylinder is 1 / (2 r), of a plane 0, and a camera sees the near side",
          "[upsample]") {
  const double r = 0.25;
  Mesh tube = makeTube(r, 1.0, 64, 16);
  tube.buildAdjacency();
  std::vector<Tri> faces;
  for (int f = 0; f < int(tube.faces.size()); ++f) faces.push_back(tube.faceNodes(f));
  const Eigen::MatrixX3d x = nodePositions(tube);
  CHECK(meanAbsoluteCurvature(faces, x) == Approx(1 / (2 * r)).epsilon(0.02));
  Mesh grid = makeGrid(1.0, 1.0, 8, 8);
  grid.buildAdjacency();
  std::vector<Tri> flat;
  for (int f = 0; f < int(grid.faces.size()); ++f) flat.push_back(grid.faceNodes(f));
  CHECK(meanAbsoluteCurvature(flat, nodePositions(grid)) == Approx(0.0).margin(1e-12));
  // Looking at the tube from far away along one axis sees about half of it (the faces turned towards the eye).
  Camera camera;
  const Vec3 centre = x.colwise().mean().transpose();
  const Vec3 axis = (x.row(x.rows() - 1) - x.row(0)).transpose();
  const Vec3 side = axis.cross(Vec3::UnitX()).norm() > 0.1 ? axis.cross(Vec3::UnitX()).normalized()
                                                           : axis.cross(Vec3::UnitY()).normalized();
  camera.eye = centre + 20 * side;
  camera.forward = -side;
  camera.up = axis.normalized();
  camera.right = camera.forward.cross(camera.up);
  camera.fovYDeg = 20;
  const std::vector<char> seen = facesInView(faces, x, camera);
  const double fraction = double(std::count(seen.begin(), seen.end(), 1)) / double(seen.size());
  CHECK(fraction > 0.4);
  CHECK(fraction < 0.5);
}
