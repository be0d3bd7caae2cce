#include "view/view_factor_field.h"

#include <algorithm>
#include <cmath>

#include "view/view_factor.h"

namespace adacloth {

double anticipationWeight(int i, int fullFrames, int windowFrames) {
  const int k = std::abs(i);
  if (k <= fullFrames || windowFrames <= 0) return 1.0;
  return std::max(0.0, 1.0 - double(k - fullFrames) / windowFrames);
}

ViewWindow makeViewWindow(const CameraPath& path, double t, double frameTime, const ViewParams& spec) {
  ViewWindow w;
  const int m = spec.anticipationFrames;
  // Sample times are nudged 1e-6 frames later: a cut keyed on a frame's time then counts for that frame even when
  // the accumulated time t + i dt lands an ulp short of it.
  const double nudge = 1e-6 * frameTime;
  for (int i = -m; i <= m; ++i) {
    w.cameras.push_back(path.at(t + i * frameTime + nudge));
    w.planes.push_back(w.cameras.back().frustumPlanes());
    w.weights.push_back(anticipationWeight(i, spec.fullFrames, m));
  }
  w.current = m;
  const int now = path.segmentAt(t + nudge);
  for (int i = 1; i <= m; ++i)
    if (path.segmentAt(t + i * frameTime + nudge) != now) {
      w.comingCut = m + i;
      break;
    }
  return w;
}

namespace {

// Camera::frustumDistance with the planes computed once.
double frustumDistance(const std::array<Plane, 6>& planes, const Vec3& x) {
  double d = planes[0].signedDistance(x);
  for (int k = 1; k < 6; ++k) d = std::max(d, planes[k].signedDistance(x));
  return d;
}

// How far a node is out of view (m): outside the frustum, or behind what the camera sees (when `depth` is given).
double outOfViewDistance(const std::array<Plane, 6>& planes, const DepthMap* depth, const Vec3& x) {
  const double d = frustumDistance(planes, x);
  return depth ? std::max(d, depth->occludedDistance(x)) : d;
}

// Signed distance of the face to the view (m): the smallest over its nodes, <= 0 when any node is seen.
double faceFrustumDistance(const std::array<Plane, 6>& planes, const Vec3& a, const Vec3& b, const Vec3& c,
                           const DepthMap* depth = nullptr) {
  return std::min({outOfViewDistance(planes, depth, a), outOfViewDistance(planes, depth, b),
                   outOfViewDistance(planes, depth, c)});
}

const DepthMap* depthMapOf(const ViewWindow& window, int i) {
  return window.depthMaps.empty() ? nullptr : &window.depthMaps[window.depthMapIndex[i]];
}

bool hiddenBackFace(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  return spec.backface && !camera.isFrontFacing((a + b + c) / 3.0, (b - a).cross(c - a));
}

// Fb of a face with `backface` on: 1 facing the camera, then falling linearly with the cosine between its normal and
// the direction to the eye, from 1 at the silhouette (0) to f_back at -back_ramp (at once when back_ramp is 0).
//
// Why a ramp: a garment's folds and the body's turns tip faces across the silhouette from frame to frame; with a
// step there, each tip refines or coarsens a face fully, and the faces in the frustum jump. crowd's skirts on its film
// camera, 4 runs each: 24.8 frames per run changing by more than 5 % with `backface`, 15.2 without, 17.5 with
// back_ramp 0.5 (at 1.08x the faces of the step). skirt_walk did not gain (34.3 and 36.0), so the default is the step.
double backFaceFactorOf(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  if (!hiddenBackFace(camera, a, b, c, spec)) return 1.0;
  if (spec.backRamp <= 0.0) return spec.fBack;
  const Vec3 normal = (b - a).cross(c - a), toEye = camera.eye - (a + b + c) / 3.0;
  const double length = normal.norm() * toEye.norm();
  return backFaceFactor(length > 0.0 ? normal.dot(toEye) / length : 0.0, spec.fBack, spec.backRamp);
}

// F2 with the camera's frustum planes given.
double smoothedViewFactor(const Camera& camera, const std::array<Plane, 6>& planes, const DepthMap* depth,
                          const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  const double d = faceFrustumDistance(planes, a, b, c, depth);
  const double delta = spec.margin > 0 ? std::clamp(d / spec.margin, 0.0, 1.0) : (d > 0 ? 1.0 : 0.0);
  const double fb = backFaceFactorOf(camera, a, b, c, spec);
  return (1.0 - delta) * fb + delta * spec.fOut;
}

}  // namespace

double smoothedViewFactor(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  return smoothedViewFactor(camera, camera.frustumPlanes(), nullptr, a, b, c, spec);
}

namespace {

bool sameCamera(const Camera& a, const Camera& b) {
  return a.eye == b.eye && a.forward == b.forward && a.up == b.up && a.fovYDeg == b.fovYDeg && a.near == b.near &&
         a.far == b.far && a.width == b.width && a.height == b.height;
}

}  // namespace

void addOcclusion(ViewWindow& window, const Occluders& occluders) {
  // A held camera (a still shot, the hold before a cut) repeats across the window: render each distinct one once.
  std::vector<int> distinct;
  window.depthMapIndex.assign(window.cameras.size(), 0);
  for (int i = 0; i < int(window.cameras.size()); ++i) {
    if (i == 0 || !sameCamera(window.cameras[i], window.cameras[i - 1])) distinct.push_back(i);
    window.depthMapIndex[i] = int(distinct.size()) - 1;
  }
  window.depthMaps.assign(distinct.size(), DepthMap());
#pragma omp parallel for schedule(static)
  for (int k = 0; k < int(distinct.size()); ++k)
    window.depthMaps[k] = renderDepthMap(window.cameras[distinct[k]], occluders);
}

bool faceInView(const ViewWindow& window, int index, const Vec3& a, const Vec3& b, const Vec3& c,
                const ViewParams& spec) {
  return faceFrustumDistance(window.planes[index], a, b, c, depthMapOf(window, index)) <= 0.0 &&
         !hiddenBackFace(window.cameras[index], a, b, c, spec);
}

bool faceInView(const ViewWindow& window, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  return faceInView(window, window.current, a, b, c, spec);
}

bool faceInView(const Camera& camera, const Vec3& a, const Vec3& b, const Vec3& c, const ViewParams& spec) {
  return faceFrustumDistance(camera.frustumPlanes(), a, b, c) <= 0.0 && !hiddenBackFace(camera, a, b, c, spec);
}

ViewFactorField viewFactorField(const Mesh& mesh, const ViewWindow& window, const ViewParams& spec) {
  const int nf = int(mesh.faces.size());
  ViewFactorField field{std::vector<double>(nf, spec.fOut), std::vector<int>(nf, window.current)};
  // No factor exceeds this, so a camera whose weight times it does not exceed the best so far cannot win: a face in
  // view now (factor 1) needs no other camera. Evaluating all 25 of the anticipation window for every face was a
  // quarter of a character shot's sizing.
  const double factorBound = std::max({1.0, spec.fOut, spec.fBack});
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f) {
    const Tri n = mesh.faceNodes(f);
    const Vec3 &a = mesh.nodes[n[0]].x, &b = mesh.nodes[n[1]].x, &c = mesh.nodes[n[2]].x;
    double best = smoothedViewFactor(window.cameras[window.current], window.planes[window.current],
                                     depthMapOf(window, window.current), a, b, c, spec);
    int bestCamera = window.current;
    // Nearest frames first, so that on ties the camera closest to now wins (the screen-space clamp uses it).
    for (int k = 1; k < int(window.cameras.size()); ++k)
      for (int side : {+1, -1}) {
        const int i = window.current + side * k;
        if (i < 0 || i >= int(window.cameras.size()) || window.weights[i] * factorBound <= best) continue;
        const double value =
            window.weights[i] *
            smoothedViewFactor(window.cameras[i], window.planes[i], depthMapOf(window, i), a, b, c, spec);
        if (value > best) best = value, bestCamera = i;
      }
    field.factor[f] = best;
    field.camera[f] = bestCamera;
  }
  return field;
}

}  // namespace adacloth
