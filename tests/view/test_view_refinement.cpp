// View-dependent refinement end to end on one cloth state: sizing -> view scaling and clamps -> remesh (docs/design.md
// §4). Tests (a)-(c) of the view-dependent refinement issue.
#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "remesh/remesh.h"
#include "sizing/sizing_field.h"
#include "view/screen_clamp.h"
#include "view/view_factor_field.h"
#include "view/view_sizing.h"
#include "view_fixtures.h"

using namespace adacloth;
using adacloth::test::isotropic;

namespace {

CameraKeyframe lookAt(const Vec3& eye, const Vec3& target) {
  CameraKeyframe k;
  k.eye = eye;
  k.target = target;
  k.fovYDeg = 30.0;
  k.near = 0.1;
  k.far = 100.0;
  return k;
}

CameraPath pathOf(std::vector<CameraKeyframe> keys) {
  CameraPath path;
  path.width = 640;
  path.height = 360;
  path.interpolation = CameraPath::Interpolation::Linear;
  path.keyframes = std::move(keys);
  return path;
}

// Camera `before` until a jump cut at `cutTime` (s), `after` from then on.
CameraPath pathWithCut(const CameraKeyframe& before, CameraKeyframe after, double cutTime) {
  after.time = cutTime;
  after.cut = true;
  return pathOf({before, after});
}

// One sizing + remesh pass with a uniform raw sizing `raw`; view-dependent when `window` is given.
void refine(Mesh& mesh, const Mat2& raw, const ViewWindow* window, const ViewParams& spec, const SizingParams& limits) {
  mesh.updateGeometry();
  std::vector<Mat2> faceSizing(mesh.faces.size(), raw);
  std::vector<Mat2> vertexTensors;
  if (window) {
    const ViewFactorField field = viewFactorField(mesh, *window, spec);
    applyViewToFaceSizing(mesh, faceSizing, field, *window, spec);
    clampFaceSizing(faceSizing, limits);
    vertexTensors = silhouetteVertexSizing(mesh, faceSizing, field.factor, spec.silhouetteThreshold);
  } else {
    clampFaceSizing(faceSizing, limits);
    vertexTensors = vertexSizing(mesh, faceSizing);
  }
  RemeshParams params;
  params.aspectMin = limits.aspectMin;
  remesh(mesh, vertexTensors, params, std::vector<char>(mesh.nodes.size(), 0));
  mesh.updateGeometry();
}

double materialEdgeLength(const Mesh& mesh, const Edge& e) {
  const Face& f = mesh.faces[e.faces[0]];
  int a = -1, b = -1;
  for (int k = 0; k < 3; ++k) {
    if (mesh.verts[f.verts[k]].node == e.nodes[0]) a = f.verts[k];
    if (mesh.verts[f.verts[k]].node == e.nodes[1]) b = f.verts[k];
  }
  return (mesh.verts[a].u - mesh.verts[b].u).norm();
}

bool allNodesInView(const Mesh& mesh, int f, const Camera& camera, double inset = 0.0) {
  const Tri n = mesh.faceNodes(f);
  for (int k = 0; k < 3; ++k)
    if (camera.frustumDistance(mesh.nodes[n[k]].x) > -inset) return false;
  return true;
}

bool allNodesBeyond(const Mesh& mesh, int f, const Camera& camera, double distance) {
  const Tri n = mesh.faceNodes(f);
  for (int k = 0; k < 3; ++k)
    if (camera.frustumDistance(mesh.nodes[n[k]].x) <= distance) return false;
  return true;
}

// A 6 x 1 m sheet (x in [0, 6], 48 x 8 cells) and a still camera 3 m in front of x = 0, which sees x up to about
// 1.43 m; f_out 0.3 over a 0.4 m margin.
struct SheetBesideCamera {
  Mesh mesh = makeGrid(6.0, 1.0, 48, 8);
  CameraPath path = pathOf({lookAt({0.0, 0.5, 3.0}, {0.0, 0.5, 0.0})});
  ViewParams spec;
  SheetBesideCamera() {
    mesh.updateGeometry();
    spec.fOut = 0.3;
    spec.margin = 0.4;
  }
};

}  // namespace

TEST_CASE("(a) faces in view keep their tensors, faces beyond the margin get f_out^2 M", "[view-dependent]") {
  SheetBesideCamera sheet;
  Mesh& mesh = sheet.mesh;
  const CameraPath& path = sheet.path;
  ViewParams& spec = sheet.spec;
  spec.minPixels = 1e-3;  // screen-space clamp out of the way
  spec.anticipationFrames = 3;
  spec.fullFrames = 1;
  const ViewWindow window = makeViewWindow(path, 0.0, 1.0 / 24, spec);
  const Camera& cam = window.cameras[window.current];
  std::vector<Mat2> original(mesh.faces.size());
  for (size_t f = 0; f < original.size(); ++f)
    original[f] << 100.0 + f, 3.0 + 0.1 * f, 3.0 + 0.1 * f, 50.0 + 2.0 * f;
  std::vector<Mat2> scaled = original;
  const ViewFactorField field = viewFactorField(mesh, window, spec);
  applyViewToFaceSizing(mesh, scaled, field, window, spec);
  int inView = 0, beyond = 0, between = 0;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    if (allNodesInView(mesh, f, cam)) {
      ++inView;
      CHECK(field.factor[f] == 1.0);
      CHECK(scaled[f] == original[f]);
    } else if (allNodesBeyond(mesh, f, cam, spec.margin)) {
      ++beyond;
      CHECK(field.factor[f] == spec.fOut);
      CHECK(scaled[f] == original[f] * (spec.fOut * spec.fOut));
    } else if (field.factor[f] < 1.0) {
      ++between;
      CHECK(field.factor[f] > spec.fOut);
    }
  }
  CHECK(inView > 50);
  CHECK(beyond > 100);
  CHECK(between > 0);

  // With a real pixel budget the clamp only ever lowers a tensor (never asks for shorter edges).
  spec.minPixels = 40.0;
  std::vector<Mat2> clamped = original;
  applyViewToFaceSizing(mesh, clamped, field, window, spec);
  int changed = 0;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    if (field.factor[f] != 1.0) continue;
    changed += clamped[f] != original[f];
    const Mat2 removed = original[f] - clamped[f];
    CHECK(Eigen::SelfAdjointEigenSolver<Mat2>(removed).eigenvalues().minCoeff() > -1e-9 * original[f].norm());
  }
  CHECK(changed > 0);
}

TEST_CASE("keep_held: faces with a held node keep their view-independent sizing, in view and out of it",
          "[view-dependent]") {
  SheetBesideCamera sheet;
  Mesh& mesh = sheet.mesh;
  const CameraPath& path = sheet.path;
  ViewParams& spec = sheet.spec;
  spec.minPixels = 40.0;  // a clamp that coarsens faces in view too
  spec.anticipationFrames = 3;
  spec.fullFrames = 1;
  const ViewWindow window = makeViewWindow(path, 0.0, 1.0 / 24, spec);
  // Held: the top row of nodes (a band along the whole sheet, in view at the left, out of it at the right).
  std::vector<char> held(mesh.nodes.size(), 0);
  for (size_t i = 0; i < mesh.nodes.size(); ++i) held[i] = mesh.nodes[i].x.y() > 1.0 - 1e-9;
  const std::vector<Mat2> original(mesh.faces.size(), isotropic(0.05));
  ViewFactorField field = viewFactorField(mesh, window, spec);
  std::vector<Mat2> viewScaled = original;
  applyViewToFaceSizing(mesh, viewScaled, field, window, spec);
  keepHeldFacesViewIndependent(mesh, held, field);
  std::vector<Mat2> kept = original;
  applyViewToFaceSizing(mesh, kept, field, window, spec);
  int heldFaces = 0, heldChangedWithoutKeep = 0;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    if (held[n[0]] || held[n[1]] || held[n[2]]) {
      ++heldFaces;
      CHECK(field.camera[f] == -1);
      CHECK(kept[f] == original[f]);
      heldChangedWithoutKeep += viewScaled[f] != original[f];
    } else {
      CHECK(field.camera[f] >= 0);
      CHECK(kept[f] == viewScaled[f]);
    }
  }
  CHECK(heldFaces >= 48);
  // Without keep_held the band's faces would be scaled out of view and clamped in it: the case is not vacuous.
  CHECK(heldChangedWithoutKeep > heldFaces / 2);
}

TEST_CASE("(b) jump cut: the faces seen after the cut are refined full_frames frames before it", "[view-dependent]") {
  const double fps = 24.0;
  const int cutFrame = 10;
  const CameraPath path =
      pathWithCut(lookAt({0.0, 0.5, 3.0}, {0.0, 0.5, 0.0}), lookAt({5.0, 0.5, 3.0}, {5.0, 0.5, 0.0}), cutFrame / fps);
  ViewParams spec;
  spec.fOut = 0.1;
  spec.margin = 0.3;
  spec.anticipationFrames = 8;
  spec.fullFrames = 4;
  spec.minPixels = 0.5;
  const Camera before = path.at(0.0), shown = path.at(cutFrame / fps);
  REQUIRE(shown.eye.x() == 5.0);
  REQUIRE(path.at((cutFrame - 0.5) / fps).eye.x() == 0.0);

  // The view factor of faces only the after-cut camera sees: 1 from frame cut - full_frames on, below 1 earlier.
  Mesh grid = makeGrid(6.0, 1.0, 24, 4);
  grid.updateGeometry();
  std::vector<int> afterOnly;
  for (int f = 0; f < int(grid.faces.size()); ++f)
    if (allNodesInView(grid, f, shown) && allNodesBeyond(grid, f, before, spec.margin)) afterOnly.push_back(f);
  REQUIRE(afterOnly.size() > 10);
  for (int frame = 0; frame <= cutFrame; ++frame) {
    const ViewFactorField field = viewFactorField(grid, makeViewWindow(path, frame / fps, 1.0 / fps, spec), spec);
    for (int f : afterOnly) {
      if (frame >= cutFrame - spec.fullFrames) CHECK(field.factor[f] == 1.0);
      else CHECK(field.factor[f] < 1.0);
    }
  }

  // And the mesh itself: at frame cut - full_frames the after-cut view is already at full resolution.
  SizingParams limits;
  limits.sizeMin = 0.01;
  limits.sizeMax = 1.0;
  const double target = 0.1;  // m: what the (uniform) raw sizing asks for
  Mesh mesh = makeGrid(6.0, 1.0, 12, 2);
  const ViewWindow window = makeViewWindow(path, (cutFrame - spec.fullFrames) / fps, 1.0 / fps, spec);
  for (int pass = 0; pass < 4; ++pass) refine(mesh, isotropic(target), &window, spec, limits);
  double longestShown = 0, longestHidden = 0;
  for (const Edge& e : mesh.edges) {
    const Vec3 mid = 0.5 * (mesh.nodes[e.nodes[0]].x + mesh.nodes[e.nodes[1]].x);
    const double len = materialEdgeLength(mesh, e);
    if (shown.frustumDistance(mid) < -0.05) longestShown = std::max(longestShown, len);
    if (shown.frustumDistance(mid) > 2 * spec.margin && before.frustumDistance(mid) > 2 * spec.margin)
      longestHidden = std::max(longestHidden, len);
  }
  CHECK(longestShown <= target * 1.01);
  CHECK(longestHidden > 3 * target);  // the stretch no camera of the window sees stays coarse
}

TEST_CASE("(b) a cut to a close-up: cloth both shots see is refined gradually before the cut", "[view-dependent]") {
  // A 1 m sheet seen whole from 20 m, then (a cut at frame 20) from 2 m: the close-up shows it ten times larger.
  const double fps = 24.0;
  const int cutFrame = 20;
  const CameraPath path =
      pathWithCut(lookAt({0.5, 0.5, 20.0}, {0.5, 0.5, 0.0}), lookAt({0.5, 0.5, 2.0}, {0.5, 0.5, 0.0}), cutFrame / fps);
  ViewParams spec;
  spec.anticipationFrames = 8;
  spec.fullFrames = 4;
  spec.minPixels = 2.0;
  Mesh mesh = makeGrid(1.0, 1.0, 8, 8);
  mesh.updateGeometry();
  const Mat2 raw = isotropic(0.002);  // finer than either camera's clamp allows
  auto offCentre = [&](int f) {
    const Tri n = mesh.faceNodes(f);
    return ((mesh.nodes[n[0]].x + mesh.nodes[n[1]].x + mesh.nodes[n[2]].x) / 3 - Vec3(0.5, 0.5, 0)).norm();
  };
  int centre = 0;  // the face nearest to the middle of the sheet, seen by both cameras
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    if (offCentre(f) < offCentre(centre)) centre = f;
  auto largestAt = [&](int frame, bool ramp) {
    spec.cutRamp = ramp;
    const ViewWindow window = makeViewWindow(path, frame / fps, 1.0 / fps, spec);
    const ViewFactorField field = viewFactorField(mesh, window, spec);
    REQUIRE(field.factor[centre] == 1.0);
    std::vector<Mat2> sizing(mesh.faces.size(), raw);
    applyViewToFaceSizing(mesh, sizing, field, window, spec);
    return Eigen::SelfAdjointEigenSolver<Mat2>(sizing[centre]).eigenvalues().maxCoeff();
  };
  const double far = largestAt(0, true), shown = largestAt(cutFrame, true);
  REQUIRE(shown > 50 * far);  // 10x larger on screen: edges 10x shorter
  // Outside the window the wide shot's clamp alone; at its far end still that, then a geometric ramp (the same
  // factor every frame, shown / far over the window) that ends at the close-up's clamp at the cut.
  CHECK(largestAt(cutFrame - spec.anticipationFrames - 1, true) == far);
  CHECK(largestAt(cutFrame - spec.anticipationFrames, true) == Approx(far).epsilon(1e-6));
  const double step = std::pow(shown / far, 1.0 / spec.anticipationFrames);
  for (int k = spec.anticipationFrames - 1; k >= 1; --k) {
    const double ratio = largestAt(cutFrame - k, true) / largestAt(cutFrame - k - 1, true);
    CHECK(ratio == Approx(step).epsilon(0.02));
  }
  // Without the ramp the sheet stays at the wide shot's resolution up to the cut.
  for (int frame = cutFrame - spec.anticipationFrames; frame < cutFrame; ++frame) CHECK(largestAt(frame, false) == far);
}

TEST_CASE("(c) screen-space clamp: a far sheet has no edge shorter than min_pixels on screen", "[view-dependent]") {
  const CameraPath path = pathOf({lookAt({0.5, 0.5, 30.0}, {0.5, 0.5, 0.0})});
  ViewParams spec;
  spec.minPixels = 4.0;
  spec.anticipationFrames = 0;
  spec.fullFrames = 0;
  SizingParams limits;
  limits.sizeMin = 0.01;
  limits.sizeMax = 0.5;
  const Mat2 raw = isotropic(0.02);  // view-independently the sheet would be meshed at 2 cm (under 1 px here)
  const ViewWindow window = makeViewWindow(path, 0.0, 1.0 / 24, spec);
  const Camera& cam = window.cameras[0];
  auto shortestPixels = [&](const Mesh& mesh) {
    double shortest = 1e300;
    for (const Edge& e : mesh.edges) {
      const Vec3 a = cam.project(mesh.nodes[e.nodes[0]].x), b = cam.project(mesh.nodes[e.nodes[1]].x);
      shortest = std::min(shortest, (a - b).head<2>().norm());
    }
    return shortest;
  };
  Mesh mesh = makeGrid(1.0, 1.0, 2, 2);
  for (int pass = 0; pass < 3; ++pass) refine(mesh, raw, &window, spec, limits);
  // Splitting halves edges, so an edge may end anywhere in (l/2, l]; anisotropy of the grid's diagonals aside.
  CHECK(shortestPixels(mesh) >= 0.5 * spec.minPixels);
  CHECK(mesh.faces.size() > 8);  // it was refined, only not below the pixel budget

  Mesh reference = makeGrid(1.0, 1.0, 2, 2);
  for (int pass = 0; pass < 3; ++pass) refine(reference, raw, nullptr, spec, limits);
  CHECK(shortestPixels(reference) < 0.5 * spec.minPixels);
  CHECK(reference.faces.size() > 10 * mesh.faces.size());
}
