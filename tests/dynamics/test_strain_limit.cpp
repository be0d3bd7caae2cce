// Strain limiting as a constraint (dynamics/strain_limit.h): limits reached, only movable nodes move, no speed added.
#include <catch2/catch.hpp>

#include <Eigen/SVD>

#include "assets/held_sheet.h"
#include "dynamics/handles.h"
#include "dynamics/step.h"
#include "dynamics/strain_limit.h"

using namespace adacloth;

namespace {

// The limiter on a whole cloth, as the contact pass runs it: held nodes do not move.
int limitCloth(Mesh& mesh, const DynamicsState& state, const StrainLimitParams& limit) {
  const std::vector<char> held = pinnedMask(state.handles, mesh.nodes.size());
  std::vector<Vec3> x, v;
  std::vector<double> invMass;
  for (size_t i = 0; i < mesh.nodes.size(); ++i) {
    x.push_back(mesh.nodes[i].x);
    v.push_back(mesh.nodes[i].v);
    invMass.push_back(held[i] ? 0.0 : 1.0 / mesh.nodes[i].mass);
  }
  const int passes = limitStrain(x, v, invMass, strainLimits(mesh, state, limit, held), 1e-3);
  for (size_t i = 0; i < mesh.nodes.size(); ++i) mesh.nodes[i].x = x[i], mesh.nodes[i].v = v[i];
  return passes;
}

double kinetic(const std::vector<Vec3>& v, const std::vector<double>& invMass) {
  double e = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (invMass[i] > 0) e += 0.5 * v[i].squaredNorm() / invMass[i];
  return e;
}

}  // namespace

TEST_CASE("strain limiting keeps a soft hanging sheet's edges within the limits", "[dynamics]") {
  MaterialParams soft;
  soft.stretch = 20;
  soft.shear = 2;
  StepSettings settings;
  assets::HeldSheet free = assets::makeHeldSheet(8, soft), limited = assets::makeHeldSheet(8, soft);
  const StrainLimitParams limit{true, 0.9, 1.1, 20};
  for (int k = 0; k < 48; ++k) {
    stepCloth(free.mesh, free.state, free.material, settings, 1.0 / 96);
    stepCloth(limited.mesh, limited.state, limited.material, settings, 1.0 / 96);
    limitCloth(limited.mesh, limited.state, limit);
  }
  const double unlimited = maxStretchRatio(free.mesh, free.state);
  INFO("unlimited " << unlimited);
  CHECK(unlimited > 1.2);
  CHECK(maxStretchRatio(limited.mesh, limited.state) < 1.1 * 1.002);
}

TEST_CASE("the strain limiter moves only movable nodes and adds no speed", "[dynamics]") {
  // A chain of three edges, rest length 1, limits [0.9, 1.1]: node 0 held, the rest stretched and moving apart.
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(1.5, 0, 0), Vec3(3.2, 0, 0), Vec3(3.2, 0.5, 0)};
  std::vector<Vec3> v = {Vec3(0, 0, 0), Vec3(2, 1, 0), Vec3(3, -1, 0), Vec3(0, 0, 4)};
  const std::vector<double> invMass = {0, 1, 2, 1};
  StrainLimits chain;
  chain.edges = {{0, 1, 0.9, 1.1}, {1, 2, 0.9, 1.1}, {2, 3, 0.9, 1.1}};
  chain.min = 0.9, chain.max = 1.1, chain.passes = 200;
  const double before = kinetic(v, invMass);
  const int passes = limitStrain(x, v, invMass, chain, 1e-4);
  CHECK(passes < 200);  // converged before the cap
  CHECK(x[0] == Vec3(0, 0, 0));
  CHECK(v[0] == Vec3(0, 0, 0));
  for (const LengthLimit& l : chain.edges) {
    const double len = (x[l.b] - x[l.a]).norm();
    CHECK(len >= 0.9 * (1 - 1e-4));
    CHECK(len <= 1.1 * (1 + 1e-4));
  }
  CHECK(kinetic(v, invMass) <= before);
}

TEST_CASE("the strain limiter compresses to the lower limit and stops after a clean pass", "[dynamics]") {
  std::vector<Vec3> x = {Vec3(0, 0, 0), Vec3(0.5, 0, 0)};
  std::vector<Vec3> v = {Vec3(1, 0, 0), Vec3(-1, 0, 0)};  // closing in
  const std::vector<double> invMass = {1, 1};
  StrainLimits one;
  one.edges = {{0, 1, 0.9, 1.1}};
  one.min = 0.9, one.max = 1.1, one.passes = 10;
  CHECK(limitStrain(x, v, invMass, one, 1e-6) == 2);  // one correcting pass, one clean
  CHECK((x[1] - x[0]).norm() == Approx(0.9));
  CHECK(x[0].x() == Approx(-0.2));  // equal masses share the correction
  CHECK(v[0].x() == Approx(0.0));   // the closing speed is gone, nothing more
  CHECK(v[1].x() == Approx(0.0));
  CHECK(limitStrain(x, v, invMass, one, 1e-6) == 1);
}

TEST_CASE("the strain limiter limits a face's stretch between its edges' directions", "[dynamics]") {
  // Material triangle (0,0), (1,0), (0,1), stretched 1.3x along the diagonal (1,1): its legs stretch 1.16x only and
  // its hypotenuse not at all, so edge limits of 1.2 do not see it; the face's principal stretch does.
  const Vec3 d = Vec3(1, 1, 0).normalized();
  const Mat3 F = Mat3::Identity() + 0.3 * d * d.transpose();
  std::vector<Vec3> x = {Vec3::Zero(), F * Vec3(1, 0, 0), F * Vec3(0, 1, 0)};
  std::vector<Vec3> v(3, Vec3::Zero());
  const std::vector<double> invMass = {0, 1, 1};  // corner 0 held
  StrainLimits face;
  face.faces.resize(1);
  face.faces[0].nodes[0] = 0, face.faces[0].nodes[1] = 1, face.faces[0].nodes[2] = 2;
  face.min = 0.8, face.max = 1.2, face.passes = 20;
  auto largestStretch = [&] {
    Mat32 ds;
    ds << x[1] - x[0], x[2] - x[0];
    return Eigen::JacobiSVD<Mat32>(ds).singularValues()[0];  // material edge matrix: the identity
  };
  REQUIRE(largestStretch() == Approx(1.3));
  limitStrain(x, v, invMass, face, 1e-6);
  CHECK(largestStretch() <= 1.2 * (1 + 1e-6));
  CHECK(x[0] == Vec3::Zero());
  CHECK((x[1] - x[0]).norm() >= 0.8);
}
