// Occlusion for view-dependent refinement: depth pre-pass and faces hidden behind other surfaces.
#include <catch2/catch.hpp>

#include "view_fixtures.h"

#include "mesh/generators.h"
#include "view/occlusion.h"
#include "view/view_factor_field.h"

using namespace adacloth;

namespace {

// A wall (two triangles) in the plane z = 1 covering x in [xmin, xmax], y in [-1, 2].
Occluders wall(double xmin, double xmax) {
  Occluders o;
  o.add({{xmin, -1, 1}, {xmax, -1, 1}, {xmax, 2, 1}, {xmin, 2, 1}}, {{0, 1, 2}, {0, 2, 3}});
  return o;
}

}  // namespace

TEST_CASE("depth map: nearest surface, perspective-correct, nothing where nothing is drawn", "[view-dependent]") {
  const Camera cam = test::stillCameraPath(0.0).at(0);
  const DepthMap map = renderDepthMap(cam, wall(-5, 0.0));
  CHECK(map.height == kDepthMapHeight);
  // Behind the wall (x < 0 side): 1 m behind it, minus the bias.
  CHECK(map.occludedDistance({-0.3, 0.5, 0.0}) == Approx(1.0 - kOcclusionBias - kOcclusionBiasPerMetre * 3.0));
  // In front of the wall: negative.
  CHECK(map.occludedDistance({-0.3, 0.5, 1.5}) < 0);
  // Where no wall is drawn (x > 0 side, away from its edge): not occluded at all.
  CHECK(map.occludedDistance({0.4, 0.5, 0.0}) == -std::numeric_limits<double>::infinity());
}

TEST_CASE("occluded faces are treated like faces out of view, with the margin", "[view-dependent]") {
  Mesh sheet = makeGrid(2.0, 1.0, 40, 10);  // x in [0, 2] at z = 0, in view of a camera at x = 1
  sheet.updateGeometry();
  ViewParams spec;
  spec.fOut = 0.1;
  spec.margin = 0.3;
  spec.anticipationFrames = 0;
  spec.fullFrames = 0;
  ViewWindow window = makeViewWindow(test::stillCameraPath(1.0), 0.0, 1.0 / 24, spec);
  const ViewFactorField open = viewFactorField(sheet, window, spec);
  for (double f : open.factor) REQUIRE(f == 1.0);

  // A wall at z = 1 hiding x < 0.7 from the camera (the sheet at z = 0 lies 1 m behind it: beyond the margin), and
  // the sheet itself among the occluders: it must not hide itself.
  Occluders occluders = wall(-5, 0.7);
  occluders.add(sheet);
  addOcclusion(window, occluders);
  const ViewFactorField hidden = viewFactorField(sheet, window, spec);
  int behind = 0, seen = 0;
  for (int f = 0; f < int(sheet.faces.size()); ++f) {
    const Tri n = sheet.faceNodes(f);
    double xmax = -1e9, xmin = 1e9;
    for (int k = 0; k < 3; ++k) {
      xmax = std::max(xmax, sheet.nodes[n[k]].x.x());
      xmin = std::min(xmin, sheet.nodes[n[k]].x.x());
    }
    // The wall's edge at x = 0.7, z = 1 shadows the plane z = 0 up to x = 1 - 0.3 * 3 / 2 = 0.55 (seen from x = 1).
    if (xmax < 0.45) {
      ++behind;
      CHECK(hidden.factor[f] == spec.fOut);
    } else if (xmin > 0.65) {
      ++seen;
      CHECK(hidden.factor[f] == 1.0);
    }
  }
  CHECK(behind > 50);
  CHECK(seen > 200);

  // Stats count occluded faces as not visible.
  CHECK_FALSE(faceInView(window, {0.1, 0.5, 0}, {0.2, 0.5, 0}, {0.1, 0.6, 0}, spec));
  CHECK(faceInView(window, {1.1, 0.5, 0}, {1.2, 0.5, 0}, {1.1, 0.6, 0}, spec));
}

TEST_CASE("occlusion is anticipated: a camera that will see past the occluder keeps faces refined",
          "[view-dependent]") {
  Mesh sheet = makeGrid(2.0, 1.0, 40, 10);
  sheet.updateGeometry();
  CameraPath path = test::stillCameraPath(1.0);
  CameraKeyframe closeUp = path.keyframes[0];  // from frame 2 on: between the wall and the sheet, looking at x = 0.3
  closeUp.time = 2.0 / 24;
  closeUp.cut = true;
  closeUp.eye = {0.3, 0.5, 0.5};
  closeUp.target = {0.3, 0.5, 0.0};
  path.keyframes.push_back(closeUp);
  ViewParams spec;
  spec.fOut = 0.1;
  spec.margin = 0.3;
  spec.anticipationFrames = 3;
  spec.fullFrames = 2;
  Occluders occluders = wall(-5, 0.7);
  occluders.add(sheet);
  ViewWindow window = makeViewWindow(path, 0.0, 1.0 / 24, spec);
  addOcclusion(window, occluders);
  const ViewFactorField field = viewFactorField(sheet, window, spec);
  ViewWindow now = window;
  now.weights.assign(now.weights.size(), 0.0);  // only the current camera counts
  const ViewFactorField current = viewFactorField(sheet, now, spec);
  int refinedAhead = 0;
  for (int f = 0; f < int(sheet.faces.size()); ++f) {
    const Tri n = sheet.faceNodes(f);
    const Vec3 c = (sheet.nodes[n[0]].x + sheet.nodes[n[1]].x + sheet.nodes[n[2]].x) / 3.0;
    if (c.x() > 0.15 && c.x() < 0.4 && std::abs(c.y() - 0.5) < 0.08) {
      CHECK(current.factor[f] == spec.fOut);  // hidden behind the wall now
      CHECK(field.factor[f] == 1.0);          // but seen two frames later
      ++refinedAhead;
    }
  }
  CHECK(refinedAhead > 4);
}
