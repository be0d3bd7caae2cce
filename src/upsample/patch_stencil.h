#pragma once
// The patches of the patch-wise MLP upsampler (seed 004 §3.2, adapted from 2x2-quad patches to triangles): one patch
// per coarse face. Its input is a stencil of 12 coarse points over 3 frames and the face's rest shape, its output the
// fine nodes that lie in the face, both in a local frame of the face at the current frame, so that the network sees
// the same numbers however the patch is placed and turned in the world (rigid-motion invariance is what lets one
// model serve every walk speed and every position along the path).
//
// Stencil of face f with corner nodes c0 c1 c2 (two rings of faces):
// - 0..2: the corners;
// - 3..5: for each edge i (corners i, i+1) the node a_i opposite it in the neighbouring face g_i across the mesh edge
//   (seams are crossed: neighbours are found through nodes), or on a boundary edge the reflection
//   c_i + c_{i+1} - c_{i+2} of the opposite corner across the edge midpoint;
// - 6..11: for each edge i, the nodes across the other two edges of g_i, first the edge (c_{i+1}, a_i), then the edge
//   (a_i, c_i), each where there is none the reflection of the third point of g_i (c_{i+1} + a_i - c_i, then
//   a_i + c_i - c_{i+1}).
// Reflections are computed from the positions of each frame. The second ring was added for a measured gain (the
// held-out walk of docs/upsampling.md): a wrinkle is wider than one coarse face.
//
// Local frame at the current frame t: origin the centroid of the corners, e1 = unit(c1 - c0), n = unit face normal,
// e2 = n x e1; a point p becomes R^T (p - origin) with R = [e1 e2 n].
//
// Input of a patch: kPatchInputs = 119 values. Index (k * 12 + j) * 3 + d for frame k (0: t, 1: t-1, 2: t-2),
// stencil point j and local axis d; then, from kPatchRestOffset, the face's rest shape (m, material space): the
// lengths of its edges 0..2, per edge i the lengths from a_i to c_i and to c_{i+1} in g_i (on a boundary those of the
// reflection), and the material centroid (u, v) of the face. The rest shape is what tells a compressed face from a
// small one; the centroid places the patch on the garment (a model serves one mesh pair).
// Output: kPatchNodeCount(levels) fine nodes, index q * 3 + d, each the displacement (m, local axes) of fine node q
// from the barycentric prediction B p_c(t). Fine node q of every face is the node at barycentric coordinates
// (a, b, c) / 2^levels of its corners, in the canonical order a = 2^L..0, then b = 2^L - a..0 (so q = 0 is corner 0):
// every face shares one output layout.
#include <array>
#include <vector>

#include "upsample/mesh_pair.h"

namespace adacloth {

inline constexpr int kStencilPoints = 12;
inline constexpr int kStencilFrames = 3;
inline constexpr int kPatchRestOffset = kStencilPoints * kStencilFrames * 3;
inline constexpr int kPatchRestInputs = 11;  // 3 face edges, 6 edges in the neighbours, material centroid (u, v)
inline constexpr int kPatchInputs = kPatchRestOffset + kPatchRestInputs;

// Fine nodes in one coarse face after `levels` midpoint subdivisions: (2^L + 1)(2^L + 2) / 2 (45 for L = 3).
int patchNodeCount(int levels);

struct PatchStencil {
  int levels = 0;
  int nodesPerFace = 0;                      // patchNodeCount(levels)
  std::vector<std::array<int, 3>> corners;   // per coarse face: its corner nodes c0 c1 c2
  std::vector<std::array<int, 3>> across;    // per face and edge i: the node across edge i, or -1 (boundary)
  std::vector<std::array<int, 6>> outer;     // per face: stencil points 6..11 as nodes, or -1 (reflected)
  std::vector<std::array<double, kPatchRestInputs>> rest;  // per face: its rest-shape inputs (m)
  std::vector<int> fineNodes;                // faces x nodesPerFace: fine node of output q of face f
  std::vector<std::array<int, 3>> bary;      // per q: (a, b, c), weights of c0 c1 c2 times 2^levels
  std::vector<double> share;                 // per fine node: 1 / number of faces whose outputs include it

  int faceCount() const { return int(corners.size()); }
};

// The stencil of every face of `pair.coarse` and the per-face fine nodes of `pair.sub.fine`. Throws
// std::logic_error when the fine mesh is not the block-ordered midpoint subdivision this relies on (checked on the
// material coordinates of every fine vert), so a change of subdivide() cannot go unnoticed.
PatchStencil makePatchStencil(const MeshPair& pair);

// Rotation R = [e1 e2 n] and origin (m) of face f's local frame for coarse node positions `x` (m, rows). A face of
// zero area gets the world axes (its features are then still finite).
struct PatchFrame {
  Mat3 R = Mat3::Identity();
  Vec3 origin = Vec3::Zero();
};
PatchFrame patchFrame(const PatchStencil& s, int face, const Eigen::MatrixX3d& x);

// The 12 stencil points (m, world) of face f for coarse node positions `x`, in the order above.
std::array<Vec3, kStencilPoints> stencilPoints(const PatchStencil& s, int face, const Eigen::MatrixX3d& x);

// Index of the frame `k` frames before frame `t` of a sequence; the first frame stands in for the frames before it.
inline size_t frameBefore(size_t t, size_t k) { return t >= k ? t - k : 0; }

// Unstandardized inputs, one column per face (kPatchInputs x faces), from the coarse node positions (m, rows) at
// frames t, t-1, t-2; `frames` receives each face's local frame at t (for patchOutputsToFine). Computed in double
// and rounded to float once.
void patchInputs(const PatchStencil& s, const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous,
                 const Eigen::MatrixX3d& beforePrevious, Eigen::MatrixXf& inputs, std::vector<PatchFrame>& frames);

// Training targets, one column per face (3 nodesPerFace x faces): displacement of each fine node from the barycentric
// prediction `predicted` = B p_c(t), in the face's local frame at t. `fine` and `predicted`: fine node positions (m).
Eigen::MatrixXf patchTargets(const PatchStencil& s, const std::vector<PatchFrame>& frames,
                             const Eigen::MatrixX3d& fine, const Eigen::MatrixX3d& predicted);

// Fine node positions (m): `predicted` (B p_c(t)) plus, per fine node, the mean over the faces that hold it of their
// displacement `outputs` (3 nodesPerFace x faces, m, local axes) turned back to world axes.
Eigen::MatrixX3d patchOutputsToFine(const PatchStencil& s, const std::vector<PatchFrame>& frames,
                                    const Eigen::MatrixXf& outputs, const Eigen::MatrixX3d& predicted);

}  // namespace adacloth
