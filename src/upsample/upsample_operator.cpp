#include "upsample/upsample_operator.h"

#include <cmath>

#include "upsample/apply_kernel.h"

namespace adacloth {
namespace {

// Unit normals of the fine nodes (area-weighted sum over the faces of each node) from node positions (m, rows).
// Faces are summed in index order, so the result depends on nothing but the input. Plain arrays: this runs every
// frame when the operator has modes.
Eigen::MatrixX3f fineNodeNormals(const UpsampleOperator& op, const Eigen::MatrixX3f& fine) {
  const Eigen::Index N = fine.rows();
  Eigen::MatrixX3f normals = Eigen::MatrixX3f::Zero(N, 3);
  const float* x = fine.data();
  float* n = normals.data();
  for (const auto& f : op.fineFaces) {
    const int a = op.fineVertNode[f[0]], b = op.fineVertNode[f[1]], c = op.fineVertNode[f[2]];
    const float e1[3] = {x[b] - x[a], x[N + b] - x[N + a], x[2 * N + b] - x[2 * N + a]};
    const float e2[3] = {x[c] - x[a], x[N + c] - x[N + a], x[2 * N + c] - x[2 * N + a]};
    // Twice the area times the unit normal.
    const float w[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    for (int k = 0; k < 3; ++k) {
      n[k * N + a] += w[k];
      n[k * N + b] += w[k];
      n[k * N + c] += w[k];
    }
  }
  for (Eigen::Index i = 0; i < N; ++i) {
    const float len = std::sqrt(n[i] * n[i] + n[N + i] * n[N + i] + n[2 * N + i] * n[2 * N + i]);
    if (len > 0)
      for (int k = 0; k < 3; ++k) n[k * N + i] /= len;
  }
  return normals;
}

}  // namespace

void UpsampleOperator::apply(const Eigen::MatrixX3f& coarse, double time, Eigen::MatrixX3f& fine) const {
  fine.resize(U.rows(), 3);
  multiplyOperator(U, coarse, fine);
  if (modes.empty()) return;
  Eigen::VectorXf along = Eigen::VectorXf::Zero(U.rows());  // normal displacement (m)
  for (const OscillatoryMode& m : modes)
    along += m.sinAmp * float(std::sin(m.omega * time)) + m.cosAmp * float(std::cos(m.omega * time));
  const Eigen::MatrixX3f normals = fineNodeNormals(*this, fine);
  for (int k = 0; k < 3; ++k) fine.col(k) += normals.col(k).cwiseProduct(along);
}

}  // namespace adacloth
