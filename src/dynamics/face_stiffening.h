#pragma once
// The strain limit inside the implicit solve (StrainLimitParams::stiffening): each face stores energy
// 0.5 k A (s - s0)^2 once its larger principal stretch s exceeds s0, and none below (A its material area, k the
// stiffening's modulus). The solve then keeps the cloth near its limit by itself, so the position passes of
// strain_limit.h have little left to correct.
//
// Why faces and not springs: limiting edges leaves a face free to shear. A right triangle whose legs keep their
// length stretches by up to sqrt(2) along its other diagonal, and an obtuse one grows in height when its long edge
// shortens; the remesher's next split or flip draws an edge across such a face and the frame ends on it.
//
// In pair form: with v the direction of largest stretch in material space, s = |sum_j w_j x_j| where
// w_j = grad(phi_j) . v (the face's barycentric gradients, summing to 0) and u = sum_j w_j x_j / s. The term acts
// like a spring along u between the weighted corners: force on corner j -k A (s - s0) w_j u, Jacobian blocks
// k A w_i w_j (u u^T + (1 - s0/s)(I - u u^T)) (the rotation of v is neglected, as the transverse term of a spring
// is kept). These are symmetric 3x3 blocks on the face's three edges, so the system keeps its pair structure; a
// block may be negative (two corners on the same side), but the face's 9x9 sum is positive semidefinite.
#include <vector>

#include "mesh/mesh.h"

namespace adacloth {

struct FaceStiffening {
  double modulus = 0;       // N/m: k, 0 for none
  double onsetStretch = 0;  // s0 (1)
  double limitStretch = 0;  // the strain limit's max (1), which s0 lies below
  bool active() const { return modulus > 0; }
};

// One face's share of the system in pair form: this term's (zero when the face is below the onset), the triangle
// membrane's (dynamics/membrane.h), or their sum.
struct FaceTerm {
  Vec3 force[3] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};  // N, on the face's corners (in its vert order)
  Mat3 edgeJ[3] = {Mat3::Zero(), Mat3::Zero(), Mat3::Zero()};  // N/m, block added to the pair of the face's edge k
                                                                // (between corners k and k+1)
  double energy = 0;  // J
};

// The term of face f at the mesh's current positions; its material inverse and area are the face's own (DmInv,
// materialArea), current after Mesh::updateGeometry().
FaceTerm faceStiffeningTerm(const Mesh& mesh, int f, const FaceStiffening& limit);

// The larger principal stretch of face f at the mesh's current positions (1 at rest).
double largerPrincipalStretch(const Mesh& mesh, int f);

// Whether face f has a term in a step: not when two or three of its corners are held (`held`: one flag per node),
// nor when a corner touches an obstacle (`touching`, one flag per node, or empty for none). There the handles or the
// body, not the cloth, decide its shape: a waistband bound to a deforming body stretches with the skin, and a
// garment pressed out by a moving body must give. A term that fought them only stored energy and pressed the cloth
// into the body for the contact pass to push out (crowd: 16,000 intersecting pairs at frame 96; cape_run's held
// faces stored 20-40 J and tripled the solve's iterations).
bool hasFaceStiffening(const Mesh& mesh, int f, const std::vector<char>& held, const std::vector<char>& touching);

// The energy of the terms of the faces that have one (J), summed in face order.
double faceStiffeningEnergy(const Mesh& mesh, const FaceStiffening& limit, const std::vector<char>& held,
                            const std::vector<char>& touching = {});

}  // namespace adacloth
