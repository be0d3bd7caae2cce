#pragma once
// Per-cloth dynamic state that is not stored in Node: the springs derived from the mesh and the material, and the
// handles with the nodes they hold. Everything here is derived from (mesh, material, handle specs); after any change
// of the mesh call rebuildDynamics(), and after a remesh first remapHandles() with the remesher's node map.
#include <vector>

#include "dynamics/face_stiffening.h"
#include "dynamics/membrane.h"
#include "dynamics/params.h"
#include "dynamics/handles.h"
#include "dynamics/solver_cache.h"
#include "mesh/mesh.h"

namespace adacloth {

// One pair of nodes (i < j not required) coupled by the linear system. Its off-diagonal Jacobian block is
// J_ab = stretchK * n n^T + bendK * I (n = unit vector a->b); the force on a is
// stretchK (|d| - restLength) n + bendK d, with d = x_b - x_a, and the opposite on b.
struct SpringPair {
  int a = -1, b = -1;
  double stretchK = 0;     // N/m, from the material's stretch/shear stiffness and the adjacent face areas (0 on a
                           // bending-only pair between the opposite nodes of a hinge)
  double restLength = 0;   // m, in material space
  double bendK = 0;        // N/m, sum over hinges of the quadratic bending model's coupling (may be negative)
  bool isEdge = false;     // a mesh edge (strain limiting acts on these)
};

struct DynamicsState {
  std::vector<SpringPair> pairs;
  // Node -> incident pairs (CSR, in pair order, so every sum over a node's pairs has a fixed order).
  std::vector<int> incidenceStart;  // size nodes + 1
  std::vector<int> incidencePair;
  std::vector<int> incidenceOther;  // the other node of that pair
  // Per node, the first of its incidences that is a hinge diagonal: pairs are numbered edges first, so a node's
  // diagonals follow its edges. A diagonal's only term is bending's, a multiple of the identity (implicit_system.h),
  // which the products take as one number.
  std::vector<int> incidenceDiagonal;
  FaceStiffening faceStiffening;  // the strain limit's face term in the solve (none without `stiffening`)
  bool triangleMembrane = false;  // in-plane elasticity by faces (dynamics/membrane.h) instead of edge springs
  MembraneModuli membrane;        // its moduli
  std::vector<HandleState> handles;
  double time = 0;  // s, simulated time of the current state (handle motions are evaluated at it)
  SolverCache solver;  // kept between steps by the linear solves (warm start, factorization analysis)
};

// Rebuilds everything derived from the mesh: lumped masses (density x area), stretch and bending pairs, incidence.
// Handles are kept (remap them first after a topology change). Call after any change of the mesh.
// `limit` sets the face term of its `stiffening` (dynamics/face_stiffening.h; none when it is disabled or 0).
void rebuildDynamics(DynamicsState& state, Mesh& mesh, const MaterialParams& material,
                     const StrainLimitParams& limit = StrainLimitParams());

// Stretch stiffness of an edge (N/m) with unit material-space direction `dir` and rest `length` (m): `stretch`
// along warp or weft (u, v axes), `shear` at 45 degrees, blended by sin^2(2 angle), scaled by (sum of the adjacent
// faces' areas, m^2) / length^2 so that the sheet's in-plane modulus, not the spring constant, is what the
// material fixes (a regular grid then has modulus stretch + shear / 4 along warp and weft at any cell size).
double edgeStretchStiffness(const MaterialParams& material, const Vec2& dir, double adjacentArea, double length);

}  // namespace adacloth
