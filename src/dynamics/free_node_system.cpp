#include "dynamics/free_node_system.h"

namespace adacloth {

FreeNodeSystem assembleFreeNodeSystem(const ImplicitSystem& sys, const DynamicsState& state) {
  const int n = int(sys.rhs.size());
  FreeNodeSystem out;
  out.slot.assign(n, -1);
  for (int i = 0; i < n; ++i)
    if (!sys.fixed[i]) out.slot[i] = out.freeNodes++;
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(9 * (size_t(out.freeNodes) + state.incidencePair.size()));
  out.b.resize(3 * out.freeNodes);
  for (int i = 0; i < n; ++i) {
    const int si = out.slot[i];
    if (si < 0) continue;
    Vec3 rhs = sys.rhs[i];
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) triplets.emplace_back(3 * si + r, 3 * si + q, sys.W[i](r, q));
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      const int sj = out.slot[state.incidenceOther[k]];
      const Mat3& J = sys.pairJ[state.incidencePair[k]];
      if (sj < 0) {
        rhs += sys.c * J * sys.fixedDv[state.incidenceOther[k]];  // a held neighbour's known dv
        continue;
      }
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q) triplets.emplace_back(3 * si + r, 3 * sj + q, -sys.c * J(r, q));
    }
    out.b.segment<3>(3 * si) = rhs;
  }
  out.A.resize(3 * out.freeNodes, 3 * out.freeNodes);
  out.A.setFromTriplets(triplets.begin(), triplets.end());
  return out;
}

std::vector<Vec3> scatterFreeSolution(const ImplicitSystem& sys, const std::vector<int>& slot,
                                      const Eigen::VectorXd& x) {
  std::vector<Vec3> dv(slot.size());
  for (size_t i = 0; i < slot.size(); ++i) dv[i] = slot[i] < 0 ? sys.fixedDv[i] : Vec3(x.segment<3>(3 * slot[i]));
  return dv;
}

}  // namespace adacloth
