#include "sizing/sizing_field.h"

#include "sizing/sizing_terms.h"
#include "sizing/tensor.h"

namespace adacloth {

std::vector<Mat2> rawFaceSizing(const Mesh& mesh, const SizingParams& params, const ProximityQuery& obstacles) {
  const int nn = int(mesh.nodes.size()), nf = int(mesh.faces.size());
  std::vector<std::optional<ProximitySample>> samples(nn);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < nn; ++i) samples[i] = obstacles.query(mesh.nodes[i].x);
  std::vector<Mat2> out(nf);
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f) {
    std::vector<Mat2> terms = {curvatureSizing(mesh, f, params.refineAngle),
                               velocitySizing(mesh, f, params.refineVelocity),
                               compressionSizing(mesh, f, params.refineCompression),
                               obstacleSizing(mesh, f, samples)};
    out[f] = tensorMax(terms);
  }
  return out;
}

void clampFaceSizing(std::vector<Mat2>& faceSizing, const SizingParams& params) {
  const int nf = int(faceSizing.size());
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f)
    faceSizing[f] = clampSizing(faceSizing[f], params.sizeMin, params.sizeMax, params.aspectMin);
}

std::vector<Mat2> vertexSizing(const Mesh& mesh, const std::vector<Mat2>& faceSizing) {
  const int nv = int(mesh.verts.size());
  std::vector<Mat2> out(nv, Mat2::Zero());
#pragma omp parallel for schedule(static)
  for (int v = 0; v < nv; ++v) {
    double area = 0.0;
    Mat2 sum = Mat2::Zero();
    for (int f : mesh.verts[v].faces) {
      sum += mesh.faces[f].materialArea * faceSizing[f];
      area += mesh.faces[f].materialArea;
    }
    if (area > 0.0) out[v] = sum / area;
  }
  return out;
}

std::vector<Mat2> computeVertexSizing(const Mesh& mesh, const SizingParams& params, const ProximityQuery& obstacles) {
  std::vector<Mat2> faces = rawFaceSizing(mesh, params, obstacles);
  clampFaceSizing(faces, params);
  return vertexSizing(mesh, faces);
}

}  // namespace adacloth
