#pragma once
// Strain limiting (docs/design.md §5): a cloth's stretch is kept within [min, max] of its rest shape, on its edges
// and on its faces' principal stretches (the singular values of each face's deformation gradient; edges alone leave
// a face free to stretch in directions between them, which a new edge of the remesher then shows), and, when its
// `tethers` are on, by tethers from every free node to the nearest held nodes (dynamics/tethers.h).
//
// It runs in the contact pass (collision/response.h), before the contacts and again after the proximity pushes (the
// CCD passes, which check every move, come after both), and follows their velocity rule: a
// correction moves positions (split by inverse mass; held and obstacle nodes do not move) and removes only the part
// of an edge's relative velocity that keeps violating its limit (inelastic, like a contact), never adding speed.
// Writing the whole correction into velocities (dv = dx / h, as before) pumped speed into nodes that a contact pushed
// one way and the limiter pulled back.
#include <vector>

#include <Eigen/Eigenvalues>

#include "dynamics/dynamics_state.h"
#include "dynamics/tethers.h"

namespace adacloth {

// The length limits (m) of one edge between nodes a and b.
struct LengthLimit {
  int a = -1, b = -1;
  double minLength = 0, maxLength = 0;
  int leader = 0;  // 1: a is nearer to the held nodes (in hops), 2: b is; 0: neither (see limitStrain)
};

// One face whose principal stretches are limited: its nodes and material edge matrix [u1 - u0, u2 - u0].
struct FaceLimit {
  int nodes[3] = {-1, -1, -1};
  Mat2 materialEdges = Mat2::Identity();    // m
  Mat2 materialInverse = Mat2::Identity();  // its inverse (1/m)
};

// A face's deformation gradient F (3x2) at x, with the eigen decomposition of F^T F: the principal stretches are the
// square roots of its eigenvalues (`sigma`), its eigenvectors the material directions V of F = U S V^T.
struct FaceDeformation {
  Mat32 F;
  Eigen::SelfAdjointEigenSolver<Mat2> eig;
  Vec2 sigma;
};
// The deformation of face f at x (node k of the face at x[f.nodes[k]]).
FaceDeformation faceDeformation(const Vec3* x, const FaceLimit& f);

// A cloth's limits: every edge and every face, with the ratios they keep.
struct StrainLimits {
  std::vector<LengthLimit> edges;  // ordered outward from the held nodes (hops to the nearest, pair order among equals)
  std::vector<FaceLimit> faces;
  std::vector<Tether> tethers;     // with StrainLimitParams::tethers: free nodes to the nearest held nodes
  double min = 1, max = 1;         // stretch ratios (1)
  int passes = 0;                  // Gauss-Seidel passes each time the limiter runs
  // Keep the least stretched state the passes went through, and repair a region still well past the upper limit
  // (see limitStrain). On with the limit's face stiffening.
  bool keepLeastStretched = false;
  bool empty() const { return edges.empty() && faces.empty(); }
};

// The limits of a cloth (none when `limit` is off); `held` has one flag per node.
StrainLimits strainLimits(const Mesh& mesh, const DynamicsState& state, const StrainLimitParams& limit,
                          const std::vector<char>& held);

// Up to limits.passes Gauss-Seidel passes, each over the tethers, the faces, then the edges (forward and backward in
// turn: corrections travel both ways along the order), stopping early after a pass that found everything within its
// limits up to `slack` (a ratio, e.g. 1e-3). Serial, hence the same result at any thread count. `invMass` 0 marks
// nodes that do not move. When the passes run out with edges still off, one pass outward from the held nodes moves
// only each edge's far end (shock propagation), and one more plain pass follows. The edges come last, also after the
// shock pass, because a face's correction moves its corners about their centroid and so stretches the edges around
// it: on an adaptive flag held at two corners (limit 1.05, wind 10, 12 and 14 m/s, 48 frames), the largest frame-end
// p99 stretch went from 1.10 / 1.23 / 1.49 (edges, then faces) to 1.07 / 1.10 / 1.18. With keepLeastStretched, what
// is then still more than 1.1x its upper limit is repaired (strain_limit_repair.h). The limits' node k is
// x[first + k] (a cloth inside arrays that hold several). Returns the passes run, the last two included.
int limitStrain(std::vector<Vec3>& x, std::vector<Vec3>& v, const std::vector<double>& invMass,
                const StrainLimits& limits, double slack, int first = 0);

// The repair of strain_limit_repair.h alone, for any cloth with limits (keepLeastStretched or not): where a face or
// an edge is more than 1.1x its upper limit, that region is solved, and the result kept when it is less stretched.
// For stretch that passes after the limiter made (the contact responses): on garments, whose limiter runs have no
// repair, the CCD passes and impact zones left single edges at up to 2.4x and faces sheared past 1.3 at frame ends
// (docs/benchmarks.md, "The repair after the contacts on every limited cloth"). Positions only. Returns the nodes of
// the region moved (0: nothing done).
// needsStrainRepair says, without moving anything, whether repairStrain would try.
bool needsStrainRepair(const std::vector<Vec3>& x, const StrainLimits& limits, int first = 0);
int repairStrain(std::vector<Vec3>& x, const std::vector<double>& invMass, const StrainLimits& limits, int first = 0);

// Largest edge length / rest length of the mesh (1 when it has no edges).
double maxStretchRatio(const Mesh& mesh, const DynamicsState& state);

// The 99th percentile and the largest of a set of stretch ratios (both 1 for an empty set).
struct StretchSummary {
  double p99 = 1, max = 1;
};
// Edge length / rest length over the mesh's edges with a free end (between two held nodes the handles set the length,
// not the limiter).
StretchSummary edgeStretch(const Mesh& mesh, const DynamicsState& state);
// The larger principal stretch (the larger singular value of the deformation gradient) over the mesh's faces with a
// free corner. It is at least the stretch of any edge of the face, and can be well above all three: a sheared face
// is stretched between its edges' directions (a garment's faces ran at p99 1.10-1.31 where its edges were at ~1.05
// against a limit of 1.1, docs/benchmarks.md), and the new edges of a refinement then show it.
StretchSummary faceStretch(const Mesh& mesh, const DynamicsState& state);

}  // namespace adacloth
