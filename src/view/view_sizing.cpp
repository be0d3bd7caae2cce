#include "view/view_sizing.h"

#include <algorithm>

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

}  // namespace

void applyViewToFaceSizing(const Mesh& mesh, std::vector<Mat2>& faceSizing, const ViewFactorField& field,
                           const ViewWindow& window, const ViewParams& spec) {
#pragma omp parallel for schedule(static)
  for (int f = 0; f < int(faceSizing.size()); ++f) {
    const double F = field.factor[f];
    if (F != 1.0) faceSizing[f] *= F * F;
    const Camera& camera = window.cameras[field.camera[f]];
    if (!beyondNearPlane(mesh, f, camera)) continue;
    const double minScreenLength = spec.minPixels / camera.height;
    faceSizing[f] = clampScreenSpace(faceSizing[f], faceScreenJacobian(mesh, f, camera), minScreenLength);
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
