#include "dynamics/free_node_system.h"

#include <algorithm>

namespace adacloth {

FreeNodeSystem assembleFreeNodeSystem(const ImplicitSystem& sys, const DynamicsState& state) {
  const int n = int(sys.rhs.size());
  FreeNodeSystem out;
  out.slot.assign(n, -1);
  for (int i = 0; i < n; ++i)
    if (!sys.fixed[i]) out.slot[i] = out.freeNodes++;
  // The matrix is symmetric, so its compressed rows are also its compressed columns: it is written directly in
  // Eigen's column-major layout, block row by block row, columns in increasing order (no triplet sort).
  // Each block row: its diagonal block and one block per free neighbour (pairs joining the same two nodes summed).
  std::vector<std::vector<std::pair<int, Mat3>>> rows(out.freeNodes);
  std::vector<int> start(out.freeNodes + 1, 0);
  out.b.resize(3 * out.freeNodes);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const int si = out.slot[i];
    if (si < 0) continue;
    Vec3 rhs = sys.rhs[i];
    std::vector<std::pair<int, Mat3>>& row = rows[si];
    row.assign(1, {si, sys.W[i]});
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      const int j = state.incidenceOther[k];
      const Mat3& J = sys.pairJ[state.incidencePair[k]];
      if (out.slot[j] < 0) rhs += sys.c * J * sys.fixedDv[j];  // a held neighbour's known dv
      else row.emplace_back(out.slot[j], -sys.c * J);
    }
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t kept = 0;
    for (size_t e = 0; e < row.size(); ++e) {
      if (kept > 0 && row[kept - 1].first == row[e].first) row[kept - 1].second += row[e].second;
      else row[kept++] = row[e];
    }
    row.resize(kept);
    out.b.segment<3>(3 * si) = rhs;
    start[si + 1] = int(kept);
  }
  for (int s = 0; s < out.freeNodes; ++s) start[s + 1] += start[s];
  const long nonZeros = 9L * start[out.freeNodes];
  out.A.resize(3 * out.freeNodes, 3 * out.freeNodes);
  out.A.resizeNonZeros(nonZeros);
  int* outer = out.A.outerIndexPtr();
  int* inner = out.A.innerIndexPtr();
  double* value = out.A.valuePtr();
  for (int si = 0; si < out.freeNodes; ++si) {
    const std::vector<std::pair<int, Mat3>>& row = rows[si];
    const int width = 3 * int(row.size());
    for (int r = 0; r < 3; ++r) {
      const long first = 9L * start[si] + long(r) * width;
      outer[3 * si + r] = int(first);
      for (size_t e = 0; e < row.size(); ++e)
        for (int q = 0; q < 3; ++q) {
          inner[first + 3 * e + q] = 3 * row[e].first + q;
          value[first + 3 * e + q] = row[e].second(r, q);
        }
    }
  }
  outer[3 * out.freeNodes] = int(nonZeros);
  return out;
}

std::vector<Vec3> scatterFreeSolution(const ImplicitSystem& sys, const std::vector<int>& slot,
                                      const Eigen::VectorXd& x) {
  std::vector<Vec3> dv(slot.size());
  for (size_t i = 0; i < slot.size(); ++i) dv[i] = slot[i] < 0 ? sys.fixedDv[i] : Vec3(x.segment<3>(3 * slot[i]));
  return dv;
}

}  // namespace adacloth
