#include "upsample/material_locator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/plane_geometry.h"

namespace adacloth {
namespace {

// The smallest barycentric weight: how deep inside its face a located point is (0 on an edge).
double depthOf(const MaterialLocation& m) { return m.bary.minCoeff(); }

// Total order on candidates, so the answer does not depend on the order the grid visits faces in.
bool better(const MaterialLocation& a, double depthA, const MaterialLocation& b, double depthB) {
  if (b.face < 0) return true;
  if (a.distance != b.distance) return a.distance < b.distance;
  if (depthA != depthB) return depthA > depthB;
  return a.face < b.face;
}

}  // namespace

MaterialLocation nearestInTriangle(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& u) {
  MaterialLocation m;
  const double area2 = cross2(b - a, c - a);
  if (area2 > 0) {
    const Vec3 l(cross2(b - u, c - u) / area2, cross2(c - u, a - u) / area2, cross2(a - u, b - u) / area2);
    if (l.minCoeff() >= 0) {
      m.bary = l / l.sum();
      m.distance = 0;
      return m;
    }
  }
  // Outside (or a degenerate face): the nearest point lies on one of the three sides.
  const Vec2* corner[3] = {&a, &b, &c};
  m.distance = std::numeric_limits<double>::infinity();
  for (int s = 0; s < 3; ++s) {
    const Vec2& p = *corner[s];
    const Vec2& q = *corner[(s + 1) % 3];
    const double t = segmentParameter(p, q, u);
    const double d = (p + t * (q - p) - u).norm();
    if (d < m.distance) {
      m.distance = d;
      m.bary = Vec3::Zero();
      m.bary[s] = 1 - t;
      m.bary[(s + 1) % 3] = t;
    }
  }
  return m;
}

MaterialLocator::MaterialLocator(const Mesh& mesh) : mesh_(mesh) {
  const size_t faceCount = mesh.faces.size();
  if (faceCount == 0) {
    cellStart_.assign(2, 0);
    return;
  }
  Vec2 lo = Vec2::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Face& f : mesh.faces)
    for (int v : f.verts) {
      lo = lo.cwiseMin(mesh.verts[v].u);
      hi = hi.cwiseMax(mesh.verts[v].u);
    }
  const Vec2 extent = (hi - lo).cwiseMax(1e-12);
  // About one cell per face: a face then overlaps a few cells and a cell lists a few faces.
  cell_ = std::sqrt(extent.x() * extent.y() / double(faceCount));
  cell_ = std::max({cell_, extent.x() / 4096.0, extent.y() / 4096.0});
  origin_ = lo;
  nx_ = std::max(1, int(std::ceil(extent.x() / cell_)));
  ny_ = std::max(1, int(std::ceil(extent.y() / cell_)));

  // Compressed rows, filled in face order so that every cell lists its faces in increasing order.
  auto forEachCell = [&](const Face& f, auto&& visit) {
    Vec2 flo = mesh.verts[f.verts[0]].u, fhi = flo;
    for (int v : f.verts) {
      flo = flo.cwiseMin(mesh.verts[v].u);
      fhi = fhi.cwiseMax(mesh.verts[v].u);
    }
    for (int j = cellY(flo.y()); j <= cellY(fhi.y()); ++j)
      for (int i = cellX(flo.x()); i <= cellX(fhi.x()); ++i) visit(j * nx_ + i);
  };
  cellStart_.assign(size_t(nx_) * ny_ + 1, 0);
  for (const Face& f : mesh.faces) forEachCell(f, [&](int cell) { ++cellStart_[cell + 1]; });
  for (size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  cellFaces_.resize(cellStart_.back());
  std::vector<int> fill(cellStart_.begin(), cellStart_.end() - 1);
  for (size_t fi = 0; fi < faceCount; ++fi)
    forEachCell(mesh.faces[fi], [&](int cell) { cellFaces_[fill[cell]++] = int(fi); });
}

int MaterialLocator::cellX(double x) const {
  return std::clamp(int(std::floor((x - origin_.x()) / cell_)), 0, nx_ - 1);
}

int MaterialLocator::cellY(double y) const {
  return std::clamp(int(std::floor((y - origin_.y()) / cell_)), 0, ny_ - 1);
}

void MaterialLocator::visitCell(int i, int j, const Vec2& u, MaterialLocation& best, double& bestDepth) const {
  const int cell = j * nx_ + i;
  for (int k = cellStart_[cell]; k < cellStart_[cell + 1]; ++k) {
    const int fi = cellFaces_[k];
    const Tri& t = mesh_.faces[fi].verts;
    MaterialLocation m = nearestInTriangle(mesh_.verts[t[0]].u, mesh_.verts[t[1]].u, mesh_.verts[t[2]].u, u);
    m.face = fi;
    const double depth = depthOf(m);
    if (better(m, depth, best, bestDepth)) {
      best = m;
      bestDepth = depth;
    }
  }
}

MaterialLocation MaterialLocator::locate(const Vec2& u) const {
  MaterialLocation best;
  double bestDepth = -1;
  if (mesh_.faces.empty()) return best;
  const int ci = cellX(u.x()), cj = cellY(u.y());
  visitCell(ci, cj, u, best, bestDepth);
  // Every face holding u overlaps u's cell, so a point inside some face is answered by its own cell.
  if (best.face >= 0 && best.distance == 0) return best;
  // Otherwise widen ring by ring. The cells of ring r + 1 are at least r cells away from u (or from its projection
  // onto the grid, which is no farther from any cell), so a candidate nearer than that cannot be beaten.
  const int maxRing = std::max(nx_, ny_);
  for (int r = 1; r <= maxRing; ++r) {
    for (int j = cj - r; j <= cj + r; ++j) {
      if (j < 0 || j >= ny_) continue;
      const bool edgeRow = j == cj - r || j == cj + r;
      for (int i = ci - r; i <= ci + r; i += edgeRow ? 1 : 2 * r)
        if (i >= 0 && i < nx_) visitCell(i, j, u, best, bestDepth);
    }
    if (best.face >= 0 && best.distance < r * cell_) break;
  }
  return best;
}

}  // namespace adacloth
