#include "dynamics/free_node_system.h"

#include <algorithm>

namespace adacloth {
namespace {

// Slots from `order` when it lists every free node once and nothing else; false (and `slot` undefined) otherwise.
bool slotsFromOrder(std::vector<int>& slot, const ImplicitSystem& sys, int freeNodes, const std::vector<int>& order) {
  if (int(order.size()) != freeNodes) return false;
  for (int s = 0; s < freeNodes; ++s) {
    const int i = order[s];
    if (i < 0 || i >= int(slot.size()) || sys.fixed[i] || slot[i] >= 0) return false;
    slot[i] = s;
  }
  return true;
}

}  // namespace

void assembleFreeNodeSystemInto(FreeNodeSystem& out, const ImplicitSystem& sys, const DynamicsState& state,
                                const std::vector<int>& order) {
  const int n = int(sys.rhs.size());
  out.slot.assign(n, -1);
  out.freeNodes = int(std::count(sys.fixed.begin(), sys.fixed.end(), 0));
  if (order.empty() || !slotsFromOrder(out.slot, sys, out.freeNodes, order)) {
    out.slot.assign(n, -1);
    int next = 0;
    for (int i = 0; i < n; ++i)
      if (!sys.fixed[i]) out.slot[i] = next++;
  }
  // The matrix is symmetric, so its compressed rows are also its compressed columns: it is written directly in
  // Eigen's column-major layout, block row by block row, columns in increasing order (no triplet sort).
  // Each block row: its diagonal block and one block per free neighbour (pairs joining the same two nodes summed),
  // gathered in `rowEntries` from the slot rowFirst[si] on (room for the node's degree + 1).
  std::vector<int>& rowFirst = out.rowFirst;
  rowFirst.assign(out.freeNodes + 1, 0);
  for (int i = 0; i < n; ++i)
    if (out.slot[i] >= 0)
      rowFirst[out.slot[i] + 1] = 1 + state.incidenceStart[i + 1] - state.incidenceStart[i];
  for (int s = 0; s < out.freeNodes; ++s) rowFirst[s + 1] += rowFirst[s];
  out.rowEntries.resize(rowFirst[out.freeNodes]);
  std::vector<int> kept(out.freeNodes, 0);
  out.b.resize(3 * out.freeNodes);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const int si = out.slot[i];
    if (si < 0) continue;
    Vec3 rhs = sys.rhs[i];
    std::pair<int, Mat3>* row = out.rowEntries.data() + rowFirst[si];
    int size = 0;
    row[size++] = {si, sys.W[i]};
    for (int k = state.incidenceStart[i]; k < state.incidenceStart[i + 1]; ++k) {
      const int j = state.incidenceOther[k];
      const Mat3& J = sys.pairJ[state.incidencePair[k]];
      if (out.slot[j] < 0) rhs += sys.c * J * sys.fixedDv[j];  // a held neighbour's known dv
      else row[size++] = {out.slot[j], -sys.c * J};
    }
    std::sort(row, row + size, [](const auto& a, const auto& b) { return a.first < b.first; });
    int count = 0;
    for (int e = 0; e < size; ++e) {
      if (count > 0 && row[count - 1].first == row[e].first) row[count - 1].second += row[e].second;
      else row[count++] = row[e];
    }
    kept[si] = count;
    out.b.segment<3>(3 * si) = rhs;
  }
  std::vector<long> start(out.freeNodes + 1, 0);
  for (int s = 0; s < out.freeNodes; ++s) start[s + 1] = start[s] + kept[s];
  const long nonZeros = 9L * start[out.freeNodes];
  // Same size: keep the arrays (a fresh 1 MB matrix per step costs page faults, ~10 % of a 1k-node direct step).
  if (out.A.rows() != 3 * out.freeNodes) out.A.resize(3 * out.freeNodes, 3 * out.freeNodes);
  out.A.resizeNonZeros(nonZeros);
  int* outer = out.A.outerIndexPtr();
  int* inner = out.A.innerIndexPtr();
  double* value = out.A.valuePtr();
  for (int si = 0; si < out.freeNodes; ++si) {
    const std::pair<int, Mat3>* row = out.rowEntries.data() + rowFirst[si];
    const int width = 3 * kept[si];
    for (int r = 0; r < 3; ++r) {
      const long first = 9L * start[si] + long(r) * width;
      outer[3 * si + r] = int(first);
      for (int e = 0; e < kept[si]; ++e)
        for (int q = 0; q < 3; ++q) {
          inner[first + 3 * e + q] = 3 * row[e].first + q;
          value[first + 3 * e + q] = row[e].second(r, q);
        }
    }
  }
  outer[3 * out.freeNodes] = int(nonZeros);
}

FreeNodeSystem assembleFreeNodeSystem(const ImplicitSystem& sys, const DynamicsState& state) {
  FreeNodeSystem out;
  assembleFreeNodeSystemInto(out, sys, state);
  return out;
}

std::vector<Vec3> scatterFreeSolution(const ImplicitSystem& sys, const std::vector<int>& slot,
                                      const Eigen::VectorXd& x) {
  std::vector<Vec3> dv(slot.size());
  for (size_t i = 0; i < slot.size(); ++i) dv[i] = slot[i] < 0 ? sys.fixedDv[i] : Vec3(x.segment<3>(3 * slot[i]));
  return dv;
}

}  // namespace adacloth
