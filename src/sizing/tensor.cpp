#include "sizing/tensor.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth {
namespace {

// A 2x2 symmetric tensor as a disk: centre ((M00-M11)/2, M01), radius tr(M)/2. Eigenvalues are r +- |c|.
struct Disk {
  Vec2 c;
  double r;
};

Disk toDisk(const Mat2& M) {
  double offDiagonal = 0.5 * (M(0, 1) + M(1, 0));
  return {Vec2(0.5 * (M(0, 0) - M(1, 1)), offDiagonal), 0.5 * (M(0, 0) + M(1, 1))};
}

Mat2 fromDisk(const Disk& d) {
  Mat2 M;
  M << d.r + d.c.x(), d.c.y(), d.c.y(), d.r - d.c.x();
  return M;
}

bool encloses(const Disk& outer, const std::vector<Disk>& disks, double tolerance) {
  for (const Disk& d : disks)
    if ((d.c - outer.c).norm() + d.r > outer.r + tolerance) return false;
  return true;
}

// Smallest disk enclosing two disks.
Disk enclosePair(const Disk& a, const Disk& b) {
  double d = (b.c - a.c).norm();
  if (d + b.r <= a.r) return a;
  if (d + a.r <= b.r) return b;
  double R = 0.5 * (d + a.r + b.r);
  return {a.c + (b.c - a.c) * ((R - a.r) / d), R};
}

// Disks internally tangent to three disks: |c - c_k| = R - r_k. Subtracting the equations pairwise gives c linear in
// R (c = p + q R); substituting back gives a quadratic in R. Appends every solution with R >= max r_k.
void encloseTriple(const Disk& d1, const Disk& d2, const Disk& d3, std::vector<Disk>& out) {
  // Work relative to d1's centre for accuracy.
  Vec2 c2 = d2.c - d1.c, c3 = d3.c - d1.c;
  Mat2 A;
  A.row(0) = 2.0 * c2.transpose();
  A.row(1) = 2.0 * c3.transpose();
  double det = A.determinant();
  double scale = std::max(c2.squaredNorm(), c3.squaredNorm());
  if (!(std::abs(det) > 1e-14 * scale)) return;  // collinear centres: a pair solution covers it
  Vec2 b(c2.squaredNorm() - d2.r * d2.r + d1.r * d1.r, c3.squaredNorm() - d3.r * d3.r + d1.r * d1.r);
  Vec2 g(2.0 * (d2.r - d1.r), 2.0 * (d3.r - d1.r));
  Mat2 Ainv = A.inverse();
  Vec2 p = Ainv * b, q = Ainv * g;
  // |p + q R|^2 = (R - r1)^2
  double qa = q.squaredNorm() - 1.0, qb = 2.0 * (p.dot(q) + d1.r), qc = p.squaredNorm() - d1.r * d1.r;
  double roots[2];
  int count = 0;
  if (std::abs(qa) < 1e-14) {
    if (qb != 0.0) roots[count++] = -qc / qb;
  } else {
    double disc = qb * qb - 4.0 * qa * qc;
    if (disc < 0.0) return;
    double s = std::sqrt(disc);
    roots[count++] = (-qb + s) / (2.0 * qa);
    roots[count++] = (-qb - s) / (2.0 * qa);
  }
  double rMax = std::max({d1.r, d2.r, d3.r});
  for (int i = 0; i < count; ++i)
    if (roots[i] >= rMax && std::isfinite(roots[i])) out.push_back({d1.c + p + q * roots[i], roots[i]});
}

}  // namespace

Mat2 tensorMax(const std::vector<Mat2>& tensors) {
  if (tensors.empty()) return Mat2::Zero();
  std::vector<Disk> disks;
  disks.reserve(tensors.size());
  double scale = 0.0;
  for (const Mat2& M : tensors) {
    disks.push_back(toDisk(M));
    scale = std::max(scale, std::abs(disks.back().r) + disks.back().c.norm());
  }
  const double tolerance = 1e-12 * scale;
  // The minimal enclosing disk touches at most three of the disks: try singles, pairs, then triples, keep the
  // smallest candidate that encloses all.
  std::vector<Disk> candidates;
  const size_t n = disks.size();
  for (size_t i = 0; i < n; ++i) candidates.push_back(disks[i]);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) candidates.push_back(enclosePair(disks[i], disks[j]));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k) encloseTriple(disks[i], disks[j], disks[k], candidates);
  Disk best{Vec2::Zero(), std::numeric_limits<double>::infinity()};
  for (const Disk& d : candidates)
    if (d.r < best.r && encloses(d, disks, tolerance)) best = d;
  if (!std::isfinite(best.r)) {
    // Unreachable in exact arithmetic; as a safe fallback, a disk around the first centre that encloses all.
    best = {disks[0].c, 0.0};
    for (const Disk& d : disks) best.r = std::max(best.r, (d.c - best.c).norm() + d.r);
  }
  return fromDisk(best);
}

Mat2 tensorMax(const Mat2& a, const Mat2& b) {
  Disk d = enclosePair(toDisk(a), toDisk(b));
  return fromDisk(d);
}

Mat2 positivePart(const Mat2& M) {
  Eigen::SelfAdjointEigenSolver<Mat2> eig;
  eig.computeDirect(M);
  Vec2 l = eig.eigenvalues().cwiseMax(0.0);
  return eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
}

Mat2 clampSizing(const Mat2& M, double sizeMin, double sizeMax, double aspectMin) {
  Eigen::SelfAdjointEigenSolver<Mat2> eig;
  eig.computeDirect(M);
  const double lo = 1.0 / (sizeMax * sizeMax), hi = 1.0 / (sizeMin * sizeMin);
  Vec2 l = eig.eigenvalues().cwiseMax(lo).cwiseMin(hi);  // ascending
  l(0) = std::max(l(0), aspectMin * aspectMin * l(1));
  return eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
}

}  // namespace adacloth
