#include "view/view_memory.h"

#include <algorithm>
#include <cmath>

#include "sizing/tensor.h"

namespace adacloth {
namespace {

// Cell index range [lo, hi] along one axis of the cells whose centres may lie in [a, b] (m).
std::pair<int, int> cellRange(double a, double b, double origin, double cell, int n) {
  const int lo = std::max(0, int(std::ceil((a - origin) / cell - 0.5)));
  const int hi = std::min(n - 1, int(std::floor((b - origin) / cell - 0.5)));
  return {lo, hi};
}

int cellAt(const ViewMemory& memory, const Vec2& u) {
  const int i = std::clamp(int(std::floor((u.x() - memory.origin.x()) / memory.cell)), 0, memory.nx - 1);
  const int j = std::clamp(int(std::floor((u.y() - memory.origin.y()) / memory.cell)), 0, memory.ny - 1);
  return j * memory.nx + i;
}

}  // namespace

ViewMemory makeViewMemory(const Mesh& mesh, double cellSize) {
  ViewMemory memory;
  if (mesh.verts.empty()) return memory;
  Vec2 lo = mesh.verts[0].u, hi = lo;
  for (const Vert& v : mesh.verts) lo = lo.cwiseMin(v.u), hi = hi.cwiseMax(v.u);
  const Vec2 extent = (hi - lo).cwiseMax(Vec2::Constant(1e-9));
  memory.cell = std::max({cellSize, std::sqrt(extent.x() * extent.y() / kViewMemoryMaxCells),
                          extent.maxCoeff() / (kViewMemoryMaxCells / 2)});
  memory.origin = lo;
  memory.nx = std::max(1, int(std::ceil(extent.x() / memory.cell)));
  memory.ny = std::max(1, int(std::ceil(extent.y() / memory.cell)));
  memory.sizing.assign(size_t(memory.nx) * memory.ny, Mat2::Zero());
  memory.awayAt.assign(memory.sizing.size(), -std::numeric_limits<double>::infinity());
  return memory;
}

std::vector<int> coveredCells(const ViewMemory& memory, const Mesh& mesh, int f) {
  const Face& face = mesh.faces[f];
  const Vec2& u0 = mesh.verts[face.verts[0]].u;
  const Vec2& u1 = mesh.verts[face.verts[1]].u;
  const Vec2& u2 = mesh.verts[face.verts[2]].u;
  const Vec2 lo = u0.cwiseMin(u1).cwiseMin(u2), hi = u0.cwiseMax(u1).cwiseMax(u2);
  const auto [i0, i1] = cellRange(lo.x(), hi.x(), memory.origin.x(), memory.cell, memory.nx);
  const auto [j0, j1] = cellRange(lo.y(), hi.y(), memory.origin.y(), memory.cell, memory.ny);
  std::vector<int> cells;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const Vec2 centre = memory.origin + memory.cell * Vec2(i + 0.5, j + 0.5);
      const Vec2 b = face.DmInv * (centre - u0);  // barycentric coordinates of corners 1 and 2
      if (b.x() >= 0.0 && b.y() >= 0.0 && b.x() + b.y() <= 1.0) cells.push_back(j * memory.nx + i);
    }
  // A face smaller than a cell may hold no centre: it covers the cell of its centroid.
  const int own = cellAt(memory, (u0 + u1 + u2) / 3.0);
  const auto at = std::lower_bound(cells.begin(), cells.end(), own);
  if (at == cells.end() || *at != own) cells.insert(at, own);
  return cells;
}

void rememberViewSizing(ViewMemory& memory, const Mesh& mesh, std::vector<Mat2>& faceSizing,
                        const std::vector<double>& factor, double time, double memorySeconds) {
  const int nf = int(mesh.faces.size());
  std::vector<std::vector<int>> cells(nf);
  for (int f = 0; f < nf; ++f) cells[f] = coveredCells(memory, mesh, f);
  // Per cell: the largest factor of its covering faces, and the tensor max of the raw tensors of those at full factor.
  const size_t nc = memory.sizing.size();
  std::vector<double> cellFactor(nc, -1.0);
  std::vector<Mat2> seen(nc, Mat2::Zero());
  for (int f = 0; f < nf; ++f)
    for (int c : cells[f]) {
      if (factor[f] >= 1.0) seen[c] = cellFactor[c] >= 1.0 ? tensorMax(seen[c], faceSizing[f]) : faceSizing[f];
      cellFactor[c] = std::max(cellFactor[c], factor[f]);
    }
  const double holdSeconds = kViewMemoryHold * memorySeconds;
  for (size_t c = 0; c < nc; ++c) {
    if (cellFactor[c] < 0.0) continue;  // no face covers it
    if (cellFactor[c] < kViewMemoryAway)
      memory.awayAt[c] = time;
    else if (cellFactor[c] >= 1.0 && time - memory.awayAt[c] > holdSeconds)
      memory.sizing[c] = seen[c];  // in full view and not coming back: what the region looks like now
  }
  std::vector<Mat2> tensors;
  for (int f = 0; f < nf; ++f) {
    tensors.assign(1, faceSizing[f]);
    for (int c : cells[f]) {
      const double since = time - memory.awayAt[c];
      if (since <= holdSeconds) tensors.push_back(std::exp(-since / memorySeconds) * memory.sizing[c]);
    }
    if (tensors.size() > 1) faceSizing[f] = tensorMax(tensors);
  }
}

}  // namespace adacloth
