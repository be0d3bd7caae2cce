// Test (d) of the view-dependent refinement issue: no popping. A settled drape (a curtain with still vertical folds,
// its shape imposed from material coordinates so that remeshing cannot erode it) is refined view-dependently every
// frame while the camera pans slowly across it; the number of faces in view must change smoothly.
#include <catch2/catch.hpp>

#include <cmath>

#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "sizing/sizing_field.h"
#include "view/view_factor_field.h"
#include "view/view_sizing.h"

using namespace adacloth;

namespace {

// Folds of wavelength 0.5 m and depth growing towards the hem (the curtain hangs from y = 1.5 m).
void imposeDrape(Mesh& mesh) {
  for (Node& n : mesh.nodes) {
    const Vec2& u = mesh.verts[n.verts[0]].u;
    const double depth = 0.05 * (0.4 + 0.6 * (1.5 - u.y()) / 1.5);
    n.x = Vec3(u.x(), u.y(), depth * std::sin(2 * M_PI * u.x() / 0.5));
    n.v = Vec3::Zero();
  }
  mesh.updateGeometry();
}

CameraPath slowPan(double seconds) {
  CameraPath path;
  path.width = 640;
  path.height = 360;
  path.interpolation = CameraPath::Interpolation::Linear;
  for (double x : {0.6, 1.4}) {
    CameraKeyframe k;
    k.time = x == 0.6 ? 0.0 : seconds;
    k.eye = {x, 0.75, 1.6};
    k.target = {x, 0.75, 0.0};
    k.fovYDeg = 25.0;
    k.near = 0.1;
    k.far = 20.0;
    path.keyframes.push_back(k);
  }
  return path;
}

void refineForView(Mesh& mesh, const ViewWindow& window, const ViewParams& spec, const SizingParams& sizing) {
  std::vector<Mat2> faceSizing = rawFaceSizing(mesh, sizing, NoObstacles());
  const ViewFactorField field = viewFactorField(mesh, window, spec);
  applyViewToFaceSizing(mesh, faceSizing, field, window, spec);
  clampFaceSizing(faceSizing, sizing);
  RemeshParams params;
  params.aspectMin = sizing.aspectMin;
  remesh(mesh, silhouetteVertexSizing(mesh, faceSizing, field.factor, spec.silhouetteThreshold), params,
         std::vector<char>(mesh.nodes.size(), 0));
  imposeDrape(mesh);
}

}  // namespace

TEST_CASE("(d) no popping: over a slow pan the visible face count changes by at most 5 % a frame",
          "[view-dependent]") {
  const double fps = 24.0;
  const int frames = 48;
  const CameraPath path = slowPan(frames / fps);
  ViewParams spec;  // defaults
  SizingParams sizing;
  sizing.sizeMin = 0.04;
  sizing.refineAngle = 0.15;
  sizing.sizeMax = 0.3;
  Mesh mesh = makeGrid(2.0, 1.5, 40, 30);
  imposeDrape(mesh);
  for (int pass = 0; pass < 3; ++pass) refineForView(mesh, makeViewWindow(path, 0.0, 1.0 / fps, spec), spec, sizing);
  int previous = -1, largestChange = 0, fewest = 1 << 30;
  for (int frame = 0; frame <= frames; ++frame) {
    const ViewWindow window = makeViewWindow(path, frame / fps, 1.0 / fps, spec);
    refineForView(mesh, window, spec, sizing);
    const int visible = measureView(mesh, window, spec).visibleFaces;
    fewest = std::min(fewest, visible);
    if (previous >= 0) {
      largestChange = std::max(largestChange, std::abs(visible - previous));
      CHECK(std::abs(visible - previous) <= 0.05 * std::max(visible, previous));
    }
    previous = visible;
  }
  CHECK(fewest > 300);  // the view is meshed finely enough for 5 % to be a real bound
  CHECK(largestChange > 0);  // the pan does change what is seen
  CHECK(validate(mesh).empty());
}
