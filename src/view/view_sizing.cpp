#include "view/view_sizing.h"

#include <algorithm>
#include <cmath>

#include "sizing/tensor.h"
#include "view/screen_clamp.h"

namespace adacloth {
namespace {

bool beyondNearPlane(const Mesh& mesh, int f, const Camera& camera) {
  const Tri n = mesh.faceNodes(f);
  for (int k = 0; k < 3; ++k)
    if (camera.depth(mesh.nodes[n[k]].x) <= camera.near) return false;
  return true;
}

// Pixels per metre of material of a face with screen Jacobian S (screen heights per metre) on `camera`'s image: the
// geometric mean over directions.
double pixelsPerMetre(const Mat2& S, const Camera& camera) {
  return std::sqrt(std::abs(S.determinant())) * camera.height;
}

// Face f ahead of a jump cut (ViewParams::cutRamp): `clampedNow` is its tensor clamped for the camera `now` (screen
// Jacobian `screenNow`); if the first camera of the coming shot sees the face larger, the face is also clamped for
// that camera, with a shortest on-screen edge that shrinks geometrically from what `now` allows (at the window's far
// end) to min_pixels (at the cut): the tensor max of the two.
//
// Why: the clamp at each frame follows the camera on screen, so cloth that a wide shot shows small stays coarse up
// to the cut to a close-up of it, and then refines in the close-up, over the frames its folds take to regrow (the
// cape of cape_run: 37 % coarser than without the view at one cut, and its face count growing by 10-15 % a frame
// after another). The anticipation of the view factor cannot help: the face is in view of both cameras. Refining it
// all at once a few frames before the cut made the count jump by up to 76 % in one frame of the wide shot.
Mat2 clampAheadOfCut(const Mesh& mesh, int f, const Mat2& viewScaled, const Mat2& clampedNow, const Mat2& screenNow,
                     const Camera& now, const ViewWindow& window, const ViewParams& spec) {
  const Camera& coming = window.cameras[window.comingCut];
  const Tri n = mesh.faceNodes(f);
  if (!beyondNearPlane(mesh, f, coming) ||
      !faceInView(window, window.comingCut, mesh.nodes[n[0]].x, mesh.nodes[n[1]].x, mesh.nodes[n[2]].x, spec))
    return clampedNow;
  const Mat2 screenComing = faceScreenJacobian(mesh, f, coming);
  const double scaleNow = pixelsPerMetre(screenNow, now), scaleComing = pixelsPerMetre(screenComing, coming);
  if (!(scaleComing > scaleNow) || !(scaleNow > 0)) return clampedNow;
  const double framesToCut = window.comingCut - window.current;
  const double ramp = std::pow(scaleComing / scaleNow, framesToCut / spec.anticipationFrames);
  const Mat2 ahead = clampScreenSpace(viewScaled, screenComing, ramp * spec.minPixels / coming.height);
  return tensorMax(clampedNow, ahead);
}

}  // namespace

void keepHeldFacesViewIndependent(const Mesh& mesh, const std::vector<char>& held, ViewFactorField& field) {
  if (held.empty()) return;
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    if (!held[n[0]] && !held[n[1]] && !held[n[2]]) continue;
    field.camera[f] = -1;
  }
}

void applyViewToFaceSizing(const Mesh& mesh, std::vector<Mat2>& faceSizing, const ViewFactorField& field,
                           const ViewWindow& window, const ViewParams& spec) {
#pragma omp parallel for schedule(static)
  for (int f = 0; f < int(faceSizing.size()); ++f) {
    if (field.camera[f] < 0) continue;
    const double F = field.factor[f];
    if (F != 1.0) faceSizing[f] *= F * F;
    const Camera& camera = window.cameras[field.camera[f]];
    if (!beyondNearPlane(mesh, f, camera)) continue;
    const double minScreenLength = spec.minPixels / camera.height;
    const Mat2 screen = faceScreenJacobian(mesh, f, camera);
    const Mat2 clamped = clampScreenSpace(faceSizing[f], screen, minScreenLength);
    // A face whose factor came from a camera of the coming shot is clamped for it already.
    faceSizing[f] = spec.cutRamp && window.comingCut >= 0 && field.camera[f] < window.comingCut
                        ? clampAheadOfCut(mesh, f, faceSizing[f], clamped, screen, camera, window, spec)
                        : clamped;
  }
}

std::vector<Mat2> silhouetteVertexSizing(const Mesh& mesh, const std::vector<Mat2>& faceSizing,
                                         const std::vector<double>& factor, double threshold) {
  const int nv = int(mesh.verts.size());
  std::vector<Mat2> out(nv, Mat2::Zero());
#pragma omp parallel for schedule(static)
  for (int v = 0; v < nv; ++v) {
    const std::vector<int>& faces = mesh.verts[v].faces;
    if (faces.empty()) continue;
    double lo = factor[faces[0]], hi = lo;
    for (int f : faces) lo = std::min(lo, factor[f]), hi = std::max(hi, factor[f]);
    if (hi - lo > threshold) {
      std::vector<Mat2> tensors;
      for (int f : faces) tensors.push_back(faceSizing[f]);
      out[v] = tensorMax(tensors);
      continue;
    }
    double area = 0.0;
    Mat2 sum = Mat2::Zero();
    for (int f : faces) {
      sum += mesh.faces[f].materialArea * faceSizing[f];
      area += mesh.faces[f].materialArea;
    }
    if (area > 0.0) out[v] = sum / area;
  }
  return out;
}

ViewStats measureView(const Mesh& mesh, const ViewWindow& window, const ViewParams& spec) {
  const ViewFactorField field = viewFactorField(mesh, window, spec);
  ViewStats stats;
  double sum = 0.0;  // in face order: deterministic at any thread count
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    if (faceInView(window, mesh.nodes[n[0]].x, mesh.nodes[n[1]].x, mesh.nodes[n[2]].x, spec)) ++stats.visibleFaces;
    sum += field.factor[f];
  }
  if (!mesh.faces.empty()) stats.meanViewFactor = sum / double(mesh.faces.size());
  return stats;
}

}  // namespace adacloth
