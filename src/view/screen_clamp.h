#pragma once
// The screen-space clamp of docs/design.md §4.4: a visible face is never refined below `minPixels` on screen.
//
// S (2x2) maps material-space vectors (m) to screen-space vectors (screen height = 1): S = P (dx/du), P the 2x3
// screen Jacobian of the camera at the face's centroid. The metric in screen space is M_ss = S^-T M S^-1; its
// eigenvalues are clamped to at most 1/l^2 with l = minPixels / imageHeight, and mapped back: M' = S^T M_ss' S.
//
// Computed without inverting S, so that a face seen edge-on (S nearly singular) is handled by the same code: with
// C = S^T S / l^2 (the screen clamp pulled back to material space) and T = M + C, solve the generalized symmetric
// eigenproblem M v = mu T v (V^T T V = I, mu in [0, 1]; C v = (1 - mu) T v). M and C are diagonal in that basis, and
// M' = T V diag(min(mu, 1 - mu)) V^T T. When S is invertible this is exactly S^T clamp(S^-T M S^-1) S; along a
// direction S flattens to nothing, C is zero there and so is M' (the hard size_max limit applies afterwards).
#include "mesh/mesh.h"
#include "view/camera.h"

namespace adacloth {

// Material -> screen Jacobian S of face f of the mesh seen by the camera (screen units per m).
Mat2 faceScreenJacobian(const Mesh& mesh, int f, const Camera& camera);

// The clamped tensor M' (1/m^2) for sizing M (1/m^2), screen Jacobian S and shortest screen edge l (screen heights).
Mat2 clampScreenSpace(const Mat2& M, const Mat2& S, double minScreenLength);

}  // namespace adacloth
