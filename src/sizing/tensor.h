#pragma once
// Operations on 2x2 symmetric sizing tensors (units 1/m^2: an edge u is valid when u^T M u <= 1).
//
// The tensor max is the least upper bound in the Loewner order: the smallest B with B - M_k positive semidefinite for
// every k. For 2x2 symmetric matrices it is exact and cheap through the disk picture (docs/design.md §2): M maps to the
// disk with centre ((M00-M11)/2, M01) and radius tr(M)/2; B - A is PSD iff disk(A) lies inside disk(B); so the max is
// the smallest disk enclosing all the disks.
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// Least upper bound of positive semidefinite 2x2 tensors; the zero tensor for an empty list.
Mat2 tensorMax(const std::vector<Mat2>& tensors);
Mat2 tensorMax(const Mat2& a, const Mat2& b);

// Clamps the eigenvalues of a sizing tensor to [1/sizeMax^2, 1/sizeMin^2] (sizes in m), then raises the smaller one to
// at least aspectMin^2 times the larger (aspectMin in (0, 1]: the thinnest allowed shape).
Mat2 clampSizing(const Mat2& M, double sizeMin, double sizeMax, double aspectMin);

// Squared metric length u^T ((Ma + Mb)/2) u of a material-space edge vector u (m) between verts with tensors Ma, Mb.
inline double edgeSizeSquared(const Vec2& u, const Mat2& Ma, const Mat2& Mb) {
  return 0.5 * u.dot((Ma + Mb) * u);
}

// The positive part of a symmetric 2x2 matrix (negative eigenvalues set to zero).
Mat2 positivePart(const Mat2& M);

}  // namespace adacloth
