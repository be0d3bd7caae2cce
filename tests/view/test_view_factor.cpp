// View factor field, screen-space clamp, silhouette transfer and the `view` config (docs/design.md §4).
#include <catch2/catch.hpp>

#include <random>

#include "view_fixtures.h"

#include "test_util.h"

#include "config/shot.h"
#include "io/error.h"
#include "mesh/generators.h"
#include "sizing/sizing_field.h"
#include "sizing/tensor.h"
#include "view/screen_clamp.h"
#include "view/view_factor.h"
#include "view/view_factor_field.h"
#include "view/view_sizing.h"

using namespace adacloth;

namespace {

Mat2 sym(double a, double b, double c) {
  Mat2 m;
  m << a, b, b, c;
  return m;
}

std::string errorOf(const std::string& text) { return test::shotErrorOf(text); }

}  // namespace

TEST_CASE("anticipation weights: full within n frames, then linear", "[view-dependent]") {
  CHECK(anticipationWeight(0, 4, 12) == 1.0);
  CHECK(anticipationWeight(4, 4, 12) == 1.0);
  CHECK(anticipationWeight(-4, 4, 12) == 1.0);
  CHECK(anticipationWeight(5, 4, 12) == Approx(1.0 - 1.0 / 12));
  CHECK(anticipationWeight(12, 4, 12) == Approx(4.0 / 12));
  CHECK(anticipationWeight(-12, 4, 12) == Approx(4.0 / 12));
  CHECK(anticipationWeight(3, 0, 0) == 1.0);
}

TEST_CASE("smoothed view factor: 1 inside, linear fall over the margin outside, f_out beyond", "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0.0);
  ViewParams spec;
  spec.fOut = 0.2;
  spec.margin = 0.5;
  // A small triangle facing the camera at lateral position x on the plane z = 0.
  auto factorAt = [&](double x) {
    return smoothedViewFactor(cam, {x, 0.5, 0.0}, {x + 0.01, 0.5, 0.0}, {x, 0.51, 0.0}, spec);
  };
  const double edge = -cam.frustumPlanes()[kLeftPlane].offset / cam.frustumPlanes()[kLeftPlane].normal.x();
  CHECK(factorAt(0.0) == 1.0);
  CHECK(factorAt(edge + 0.001) == 1.0);  // reaches into the frustum
  for (double d : {0.1, 0.25, 0.4}) {
    // Distance to the left plane of a point at x = edge - s on z = 0 is s |n.x|.
    const double s = d / std::abs(cam.frustumPlanes()[kLeftPlane].normal.x());
    const double expected = (1 - d / 0.5) * 1.0 + d / 0.5 * 0.2;
    CHECK(factorAt(edge - s - 0.01) == Approx(expected).margin(1e-9));
  }
  CHECK(factorAt(edge - 2.0) == 0.2);
  CHECK(factorAt(-edge + 2.0) == 0.2);
}

TEST_CASE("back faces are coarsened only when the cloth's backface switch is on", "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0.0);
  ViewParams spec;
  spec.fOut = 0.1;
  spec.fBack = 0.25;
  const Vec3 a(0, 0.5, 0), b(0.1, 0.5, 0), c(0, 0.6, 0);  // counter-clockwise seen from +z: front faces the camera
  spec.backface = false;
  CHECK(smoothedViewFactor(cam, a, b, c, spec) == 1.0);
  CHECK(smoothedViewFactor(cam, a, c, b, spec) == 1.0);
  spec.backface = true;
  CHECK(smoothedViewFactor(cam, a, b, c, spec) == 1.0);
  CHECK(smoothedViewFactor(cam, a, c, b, spec) == 0.25);
  CHECK(faceInView(cam, a, b, c, spec));
  CHECK_FALSE(faceInView(cam, a, c, b, spec));
}

TEST_CASE("f_back sets the factor of hidden back faces; cloth beyond the margin takes f_out", "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0.0);
  ViewParams spec;
  spec.fOut = 0.1;
  spec.margin = 0.5;
  spec.backface = true;
  spec.fBack = 0.4;
  const Vec3 a(0, 0.5, 0), b(0.1, 0.5, 0), c(0, 0.6, 0);
  CHECK(smoothedViewFactor(cam, a, b, c, spec) == 1.0);
  CHECK(smoothedViewFactor(cam, a, c, b, spec) == 0.4);
  CHECK_FALSE(faceInView(cam, a, c, b, spec));  // still not seen: only its resolution differs
  // A back face within the margin outside the frustum blends f_back with f_out; beyond the margin it is f_out.
  const double edge = -cam.frustumPlanes()[kLeftPlane].offset / cam.frustumPlanes()[kLeftPlane].normal.x();
  const double perMetre = std::abs(cam.frustumPlanes()[kLeftPlane].normal.x());
  auto backFaceAt = [&](double x) {
    return smoothedViewFactor(cam, {x, 0.5, 0.0}, {x, 0.51, 0.0}, {x + 0.01, 0.5, 0.0}, spec);
  };
  const double d = 0.25;
  CHECK(backFaceAt(edge - d / perMetre - 0.01) == Approx(0.5 * 0.4 + 0.5 * 0.1).margin(1e-9));
  CHECK(backFaceAt(edge - 2.0) == 0.1);
  spec.backface = false;
  CHECK(smoothedViewFactor(cam, a, c, b, spec) == 1.0);  // f_back alone hides nothing
}

TEST_CASE("back_ramp: a back face's factor falls with the cosine past the silhouette, from 1 to f_back",
          "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0.0);
  ViewParams spec;
  spec.backface = true;
  spec.fBack = 0.3;
  spec.backRamp = 0.5;
  // A small face at the middle of the view, tilted about y: its normal (counter-clockwise a, b, c) is
  // (sin t, 0, cos t) and points away from the camera when reversed (a, c, b).
  const Vec3 centre = cam.eye + 2.0 * cam.forward;
  auto factorAt = [&](double tiltRad, bool reversed) {
    const Vec3 u(std::cos(tiltRad), 0.0, -std::sin(tiltRad)), v(0.0, 0.01, 0.0);
    const Vec3 a = centre - 0.005 * u, b = centre + 0.005 * u, c = centre + v;
    return reversed ? smoothedViewFactor(cam, a, c, b, spec) : smoothedViewFactor(cam, a, b, c, spec);
  };
  const double toEye = std::acos(std::clamp(cam.forward.dot(-Vec3::UnitZ()), -1.0, 1.0));
  REQUIRE(toEye < 1e-9);  // the still camera looks along -z
  CHECK(factorAt(0.0, false) == 1.0);
  CHECK(factorAt(0.0, true) == Approx(0.3));                     // cosine -1: past the ramp
  // Reversed and tilted by t, the face's cosine with the direction to the eye is about -cos t.
  CHECK(factorAt(std::acos(0.25), true) == Approx(1.0 - 0.5 * 0.7).epsilon(0.02));  // cosine -0.25: half way
  CHECK(factorAt(std::acos(0.05), true) == Approx(1.0 - 0.1 * 0.7).epsilon(0.02));  // near the silhouette
  spec.backRamp = 0.0;
  CHECK(factorAt(std::acos(0.05), true) == 0.3);  // 0: the step of f_back at the silhouette
  // Whether a face is in view does not depend on the ramp.
  spec.backRamp = 0.5;
  const Vec3 a(0, 0.5, 0), b(0.1, 0.5, 0), c(0, 0.6, 0);
  CHECK_FALSE(faceInView(cam, a, c, b, spec));
}

TEST_CASE("the basic factor (render --color view) follows the cloth's backface, f_back and f_out",
          "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0.0);
  const Vec3 inside = cam.eye + 2.0 * cam.forward, outside = cam.eye - 2.0 * cam.forward;
  const Vec3 towards = -cam.forward, away = cam.forward;
  ViewFactorOptions options;  // the defaults of a cloth's `view`: back faces not hidden
  CHECK_FALSE(options.backFacesHidden);
  CHECK(basicViewFactor(cam, inside, away, options) == 1.0);
  options.backFacesHidden = true;
  options.fBack = 0.4;
  options.fOut = 0.2;
  CHECK(basicViewFactor(cam, inside, towards, options) == 1.0);
  CHECK(basicViewFactor(cam, inside, away, options) == 0.4);
  CHECK(basicViewFactor(cam, outside, towards, options) == 0.2);
  options.backRamp = 0.5;  // as the simulation's: cosine -1 is past the ramp, -0.25 half way
  CHECK(basicViewFactor(cam, inside, away, options) == Approx(0.4));
  const Vec3 tipped = (away + std::sqrt(15.0) * Vec3::UnitX()).normalized();  // cosine -0.25 with the view
  CHECK(basicViewFactor(cam, inside, tipped, options) == Approx(1.0 - 0.5 * 0.6).epsilon(1e-6));
}

TEST_CASE("screen-space clamp equals S^T clamp(S^-T M S^-1) S and survives a singular S", "[view-dependent]") {
  const Mat2 S = sym(0.3, 0.05, 0.1) + Mat2(Eigen::Vector2d(0.0, 0.02).asDiagonal());
  const Mat2 M = sym(400.0, 30.0, 90.0);
  const double l = 0.02;  // screen heights
  const Mat2 Sinv = S.inverse();
  Eigen::SelfAdjointEigenSolver<Mat2> eig(Sinv.transpose() * M * Sinv);
  const Vec2 lambda = eig.eigenvalues().cwiseMin(1.0 / (l * l));
  const Mat2 expected = S.transpose() * (eig.eigenvectors() * lambda.asDiagonal() * eig.eigenvectors().transpose()) * S;
  REQUIRE(eig.eigenvalues().maxCoeff() > 1.0 / (l * l));  // the clamp is active in this case
  const Mat2 got = clampScreenSpace(M, S, l);
  CHECK((got - expected).norm() < 1e-9 * expected.norm());

  // Not active: the tensor comes back bit for bit.
  const Mat2 small = sym(1.0, 0.1, 2.0);
  CHECK(clampScreenSpace(small, S, l) == small);

  // Edge-on: S flattens direction (0, 1). Along it no screen length exists, so no sizing is kept; along (1, 0) the
  // clamp is 0.5^2 / l^2 (1/m^2), below M's demand.
  Mat2 edgeOn = Mat2::Zero();
  edgeOn(0, 0) = 0.5;
  const Mat2 flat = clampScreenSpace(sym(5000.0, 0.0, 5000.0), edgeOn, l);
  CHECK(flat.allFinite());
  CHECK(flat(0, 0) == Approx(0.25 / (l * l)));
  CHECK(std::abs(flat(1, 1)) < 1e-6);
  CHECK(std::abs(flat(0, 1)) < 1e-6);
}

TEST_CASE("silhouette transfer takes the tensor max where the view factor jumps", "[view-dependent]") {
  Mesh mesh = makeGrid(1.0, 1.0, 2, 2);
  const int nf = int(mesh.faces.size());
  std::vector<Mat2> faceSizing(nf);
  std::vector<double> smooth(nf, 1.0), jump(nf, 1.0);
  for (int f = 0; f < nf; ++f) {
    faceSizing[f] = f % 2 ? sym(100, 0, 1) : sym(1, 0, 100);
    if (f >= nf / 2) jump[f] = 0.1;
  }
  const std::vector<Mat2> averaged = silhouetteVertexSizing(mesh, faceSizing, smooth, 0.2);
  const std::vector<Mat2> expectedAverage = vertexSizing(mesh, faceSizing);
  for (size_t v = 0; v < averaged.size(); ++v) CHECK(averaged[v] == expectedAverage[v]);
  const std::vector<Mat2> kept = silhouetteVertexSizing(mesh, faceSizing, jump, 0.2);
  int maxed = 0;
  for (size_t v = 0; v < kept.size(); ++v) {
    std::vector<Mat2> around;
    double lo = 1, hi = 0;
    for (int f : mesh.verts[v].faces) {
      around.push_back(faceSizing[f]);
      lo = std::min(lo, jump[f]);
      hi = std::max(hi, jump[f]);
    }
    if (hi - lo > 0.2) {
      ++maxed;
      CHECK((kept[v] - tensorMax(around)).norm() < 1e-12);
      CHECK(kept[v].trace() > expectedAverage[v].trace() + 1.0);
    } else {
      CHECK(kept[v] == expectedAverage[v]);
    }
  }
  CHECK(maxed > 0);
}

TEST_CASE("the view factor field is the weighted max over the anticipation window, the nearest camera on ties",
          "[view-dependent]") {
  // A camera panning along a crumpled sheet: faces come into view, leave it and turn away within the window.
  // viewFactorField skips cameras that cannot beat the best so far; the answer must be the full search's, bit for bit.
  CameraPath path = test::stillCameraPath(-1.0);
  CameraKeyframe end = path.keyframes[0];
  end.time = 2.0;
  end.eye.x() = end.target.x() = 3.0;
  path.keyframes.push_back(end);
  Mesh sheet = makeGrid(2.0, 1.0, 40, 20);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> bump(-0.05, 0.05);
  for (Node& n : sheet.nodes) n.x.z() += bump(random);
  int seen = 0, away = 0, ahead = 0;
  for (bool backface : {false, true}) {
    ViewParams spec;
    spec.backface = backface;
    spec.fOut = 0.2;
    for (double t : {0.3, 1.0, 1.7}) {
      const ViewWindow window = makeViewWindow(path, t, 1.0 / 24, spec);
      const ViewFactorField field = viewFactorField(sheet, window, spec);
      for (int f = 0; f < int(sheet.faces.size()); ++f) {
        const Tri n = sheet.faceNodes(f);
        const Vec3 &a = sheet.nodes[n[0]].x, &b = sheet.nodes[n[1]].x, &c = sheet.nodes[n[2]].x;
        double best = smoothedViewFactor(window.cameras[window.current], a, b, c, spec);
        int camera = window.current;
        for (int k = 1; k < int(window.cameras.size()); ++k)
          for (int side : {+1, -1}) {
            const int i = window.current + side * k;
            if (i < 0 || i >= int(window.cameras.size())) continue;
            const double value = window.weights[i] * smoothedViewFactor(window.cameras[i], a, b, c, spec);
            if (value > best) best = value, camera = i;
          }
        CHECK(field.factor[f] == best);
        CHECK(field.camera[f] == camera);
        seen += best == 1.0;
        away += best < 1.0;
        ahead += camera != window.current;
      }
    }
  }
  CHECK(seen > 100);  // the cases the skip is for
  CHECK(away > 100);
  CHECK(ahead > 100);  // another camera of the window won
}

TEST_CASE("`view` config: defaults, and errors without camera or remeshing", "[view-dependent]") {
  const std::string cloth = R"({"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, "remeshing": true, )";
  Shot shot = parseShot(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {}}]})", "conf/s.json");
  REQUIRE(shot.cloths[0].view);
  const ViewParams& v = *shot.cloths[0].view;
  CHECK(v.fOut == 0.1);
  CHECK(v.margin == 0.2);
  CHECK(v.anticipationFrames == 12);
  CHECK(v.fullFrames == 4);
  CHECK(v.minPixels == 2.0);
  CHECK_FALSE(v.backface);
  CHECK(shot.resolved["cloths"][0]["view"]["anticipation"]["full_frames"] == 4);
  CHECK_FALSE(parseShot(R"({"camera": "c.json", "cloths": [)" + cloth + R"("name": "a"}]})", "conf/s.json")
                  .cloths[0].view);

  using Catch::Contains;
  CHECK_THAT(errorOf(R"({"cloths": [)" + cloth + R"("view": {}}]})"),
             Contains("conf/s.json: /cloths/0/view: view-dependent refinement needs the shot's camera"));
  CHECK_THAT(errorOf(R"({"camera": "c.json", "cloths": [{"mesh": {"grid": {"size": [1, 1], "cells": [2, 2]}}, )"
                     R"("view": {}}]})"),
             Contains("conf/s.json: /cloths/0/view: view-dependent refinement needs adaptive remeshing"));
  CHECK_THAT(errorOf(R"({"camera": "c.json", "cloths": [)" + cloth +
                     R"("view": {"anticipation": {"frames": 2, "full_frames": 3}}}]})"),
             Contains("/cloths/0/view/anticipation/full_frames: expected at most"));
  CHECK_THAT(errorOf(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {"f_out": 0}}]})"),
             Contains("/cloths/0/view/f_out"));
  CHECK_THAT(errorOf(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {"memory": -0.1}}]})"),
             Contains("/cloths/0/view/memory"));
  CHECK(parseShot(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {"memory": 0}}]})", "conf/s.json")
            .cloths[0].view->memorySeconds == 0.0);
  CHECK(v.fBack == 0.3);  // milder than f_out (docs/view-dependent.md)
  const ViewParams withBack =
      *parseShot(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {"f_out": 0.2, "f_back": 0.5}}]})",
                 "conf/s.json").cloths[0].view;
  CHECK(withBack.fBack == 0.5);
  CHECK(withBack.fOut == 0.2);
  CHECK_THAT(errorOf(R"({"camera": "c.json", "cloths": [)" + cloth + R"("view": {"f_back": 1.5}}]})"),
             Contains("/cloths/0/view/f_back"));
}
