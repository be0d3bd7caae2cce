#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "sizing/sizing_field.h"
#include "sizing/sizing_terms.h"

using namespace adacloth;

namespace {

// An obstacle that is the plane z = 0, seen from above.
class FloorPlane : public ProximityQuery {
 public:
  std::optional<ProximitySample> query(const Vec3& x) const override {
    if (x.z() > 1.0) return std::nullopt;
    return ProximitySample{x.z(), Vec3::UnitZ()};
  }
};

}  // namespace

TEST_CASE("curvature sizing of a cylinder", "[sizing]") {
  const double R = 0.2, angle = 0.3;
  Mesh tube = makeTube(R, 0.5, 128, 8);
  // Around the tube (material u0) the normal turns at 1/R radians per metre; along it (u1) not at all.
  for (int f = 0; f < int(tube.faces.size()); f += 37) {
    Mat2 M = curvatureSizing(tube, f, angle);
    CHECK(M(0, 0) == Approx(1 / (R * R * angle * angle)).epsilon(0.02));
    CHECK(std::abs(M(1, 1)) < 1e-6 * M(0, 0));
  }
  Mesh flat = makeGrid(1, 1, 4, 4);
  CHECK(curvatureSizing(flat, 3, angle).norm() < 1e-12);
}

TEST_CASE("velocity sizing of a shear flow", "[sizing]") {
  Mesh sheet = makeGrid(1, 1, 4, 4);
  for (Node& n : sheet.nodes) n.v = Vec3(0, 0, 2.0 * n.x.x());  // dv/du0 = 2 (1/s)
  Mat2 M = velocitySizing(sheet, 5, 0.5);
  CHECK(M(0, 0) == Approx(4.0 / 0.25));
  CHECK(std::abs(M(0, 1)) < 1e-9);
  CHECK(std::abs(M(1, 1)) < 1e-9);
}

TEST_CASE("compression sizing of a squeezed sheet", "[sizing]") {
  Mesh sheet = makeGrid(1, 1, 4, 4);
  for (Node& n : sheet.nodes) n.x.x() *= 0.9;  // compressed along u0, flat: no curvature to excuse it
  sheet.updateGeometry();
  const double c = 0.01;
  Mat2 M = compressionSizing(sheet, 2, c);
  double g = 0.81 - 1.0;  // FᵀF − I, as ARCSim's sizing takes it (not half of it, the Green strain)
  CHECK(M(0, 0) == Approx(-g / (c * c)));
  CHECK(std::abs(M(1, 1)) < 1e-6);
  for (Node& n : sheet.nodes) n.x.x() /= 0.81;  // stretched instead: no refinement
  sheet.updateGeometry();
  CHECK(compressionSizing(sheet, 2, c).norm() < 1e-9);
}

TEST_CASE("obstacle sizing of a sheet sloping over a floor", "[sizing]") {
  Mesh sheet = makeGrid(1, 1, 4, 4);
  for (Node& n : sheet.nodes) n.x.z() = 0.1 + 0.5 * n.x.x();  // h = z, dh/du0 = 0.5
  sheet.updateGeometry();
  FloorPlane floor;
  std::vector<std::optional<ProximitySample>> samples;
  for (const Node& n : sheet.nodes) samples.push_back(floor.query(n.x));
  const int f = 0;
  double expected = 0;
  for (int k = 0; k < 3; ++k) {
    double h = sheet.nodes[sheet.nodeOf(f, k)].x.z();
    expected += 0.25 / (h * h) / 3.0;
  }
  Mat2 M = obstacleSizing(sheet, f, samples);
  CHECK(M(0, 0) == Approx(expected));
  CHECK(std::abs(M(1, 1)) < 1e-9);
  // Without obstacles the term vanishes, and the field falls back to the largest size everywhere.
  std::vector<std::optional<ProximitySample>> none(sheet.nodes.size());
  CHECK(obstacleSizing(sheet, f, none).norm() == 0.0);
  SizingParams params;
  Mesh rest = makeGrid(1, 1, 4, 4);
  for (const Mat2& V : computeVertexSizing(rest, params, NoObstacles()))
    CHECK((V - Mat2::Identity() / (params.sizeMax * params.sizeMax)).norm() < 1e-9 * V.norm());
}
