#include "upsample/patch_stencil.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace adacloth {
namespace {

using Bary = std::array<int, 3>;  // weights of c0 c1 c2, times 2^levels
using BaryTri = std::array<Bary, 3>;

Bary midpoint(const Bary& p, const Bary& q) { return {(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2}; }

// The fine faces of one coarse face, as barycentric corner triples, in the order subdivide() creates them:
// subdivideOnce() replaces face i by faces 4i..4i+3 with corners {v0,m0,m2}, {m0,v1,m1}, {m2,m1,v2}, {m0,m1,m2}
// (m_i the middle of edge i), so after L levels coarse face f owns fine faces 4^L f + k, k = 0..4^L - 1, in this
// breadth-first order. Integer coordinates are exact: every midpoint of the recursion halves an even number.
std::vector<BaryTri> fineFacesOfOneFace(int levels) {
  const int n = 1 << levels;
  std::vector<BaryTri> tris = {{Bary{n, 0, 0}, Bary{0, n, 0}, Bary{0, 0, n}}};
  for (int level = 0; level < levels; ++level) {
    std::vector<BaryTri> next;
    next.reserve(tris.size() * 4);
    for (const BaryTri& t : tris) {
      const Bary m0 = midpoint(t[0], t[1]), m1 = midpoint(t[1], t[2]), m2 = midpoint(t[2], t[0]);
      next.push_back({t[0], m0, m2});
      next.push_back({m0, t[1], m1});
      next.push_back({m2, m1, t[2]});
      next.push_back({m0, m1, m2});
    }
    tris = std::move(next);
  }
  return tris;
}

// Canonical output index of (a, b, c): a = n..0, then b = n - a..0.
int canonicalIndex(const Bary& p, int n) {
  const int a = p[0], b = p[1];
  // Rows a' = n..a+1 hold n - a' + 1 nodes each: sum over k = 1..n-a of k.
  const int before = (n - a) * (n - a + 1) / 2;
  return before + (n - a - b);
}

// The other face of edge `edge` of face `face`, or -1 on a boundary.
int faceAcross(const Mesh& mesh, int face, int edge) {
  const Edge& e = mesh.edges[mesh.faces[face].edges[edge]];
  if (e.isBoundary()) return -1;
  return e.faces[0] == face ? e.faces[1] : e.faces[0];
}

// The node of the face across edge `edge` of `face` that is not on the edge, or -1 on a boundary.
int nodeAcross(const Mesh& mesh, int face, int edge) {
  const int other = faceAcross(mesh, face, edge);
  if (other < 0) return -1;
  const Edge& e = mesh.edges[mesh.faces[face].edges[edge]];
  for (int c = 0; c < 3; ++c) {
    const int node = mesh.nodeOf(other, c);
    if (node != e.nodes[0] && node != e.nodes[1]) return node;
  }
  return -1;
}

// Index of the edge of face g that joins nodes p and q, or -1.
int edgeJoining(const Mesh& mesh, int g, int p, int q) {
  for (int j = 0; j < 3; ++j) {
    const int n0 = mesh.nodeOf(g, j), n1 = mesh.nodeOf(g, (j + 1) % 3);
    if ((n0 == p && n1 == q) || (n0 == q && n1 == p)) return j;
  }
  return -1;
}

// Stencil points 6..11 of face f (patch_stencil.h) as nodes, -1 where the stencil reflects.
std::array<int, 6> outerNodes(const Mesh& mesh, int f, const std::array<int, 3>& corners,
                              const std::array<int, 3>& across) {
  std::array<int, 6> outer{-1, -1, -1, -1, -1, -1};
  for (int i = 0; i < 3; ++i) {
    if (across[i] < 0) continue;  // a boundary edge: its whole side of the stencil is reflected
    const int g = faceAcross(mesh, f, i);
    const int ci = corners[i], cj = corners[(i + 1) % 3], a = across[i];
    const int farEdge = edgeJoining(mesh, g, cj, a), nearEdge = edgeJoining(mesh, g, a, ci);
    if (farEdge >= 0) outer[2 * i] = nodeAcross(mesh, g, farEdge);
    if (nearEdge >= 0) outer[2 * i + 1] = nodeAcross(mesh, g, nearEdge);
  }
  return outer;
}

// Rest-shape inputs of face f (patch_stencil.h), from material coordinates: lengths within a neighbour are measured
// in that neighbour's own chart, so seams (where a node has a vert per chart) need no special case.
std::array<double, kPatchRestInputs> restInputs(const Mesh& mesh, int f, const std::array<int, 3>& corners) {
  const Face& face = mesh.faces[f];
  Vec2 u[3];
  for (int c = 0; c < 3; ++c) u[c] = mesh.verts[face.verts[c]].u;
  std::array<double, kPatchRestInputs> rest{};
  for (int i = 0; i < 3; ++i) {
    rest[i] = (u[(i + 1) % 3] - u[i]).norm();
    // The reflection of c_{i+2} across edge i's midpoint, unless the neighbour is there.
    double toFirst = (u[(i + 1) % 3] - u[(i + 2) % 3]).norm(), toSecond = (u[i] - u[(i + 2) % 3]).norm();
    if (const int g = faceAcross(mesh, f, i); g >= 0) {
      Vec2 ua = Vec2::Zero(), ui = Vec2::Zero(), uj = Vec2::Zero();
      for (int c = 0; c < 3; ++c) {
        const int node = mesh.nodeOf(g, c);
        const Vec2& uc = mesh.verts[mesh.faces[g].verts[c]].u;
        (node == corners[i] ? ui : node == corners[(i + 1) % 3] ? uj : ua) = uc;
      }
      toFirst = (ua - ui).norm();
      toSecond = (ua - uj).norm();
    }
    rest[3 + 2 * i] = toFirst;
    rest[4 + 2 * i] = toSecond;
  }
  const Vec2 centroid = (u[0] + u[1] + u[2]) / 3.0;
  rest[9] = centroid.x();
  rest[10] = centroid.y();
  return rest;
}

}  // namespace

int patchNodeCount(int levels) {
  const int n = 1 << levels;
  return (n + 1) * (n + 2) / 2;
}

PatchStencil makePatchStencil(const MeshPair& pair) {
  const Mesh& coarse = pair.coarse;
  const Mesh& fine = pair.sub.fine;
  const int L = pair.levels, n = 1 << L, F = int(coarse.faces.size());
  PatchStencil s;
  s.levels = L;
  s.nodesPerFace = patchNodeCount(L);
  const std::vector<BaryTri> local = fineFacesOfOneFace(L);
  if (fine.faces.size() != size_t(F) * local.size())
    throw std::logic_error("makePatchStencil: the fine mesh does not have 4^levels faces per coarse face");
  s.bary.resize(s.nodesPerFace);
  for (int a = n, q = 0; a >= 0; --a)
    for (int b = n - a; b >= 0; --b, ++q) s.bary[q] = {a, b, n - a - b};
  s.corners.resize(F);
  s.across.resize(F);
  s.outer.resize(F);
  s.rest.resize(F);
  s.fineNodes.assign(size_t(F) * s.nodesPerFace, -1);
  std::vector<int> holders(fine.nodes.size(), 0);
  for (int f = 0; f < F; ++f) {
    const Face& face = coarse.faces[f];
    for (int c = 0; c < 3; ++c) {
      s.corners[f][c] = coarse.nodeOf(f, c);
      s.across[f][c] = nodeAcross(coarse, f, c);
    }
    s.outer[f] = outerNodes(coarse, f, s.corners[f], s.across[f]);
    s.rest[f] = restInputs(coarse, f, s.corners[f]);
    const Vec2 &u0 = coarse.verts[face.verts[0]].u, &u1 = coarse.verts[face.verts[1]].u,
               &u2 = coarse.verts[face.verts[2]].u;
    const double tolerance = 1e-9 * (1 + u0.cwiseAbs().maxCoeff() + u1.cwiseAbs().maxCoeff() +
                                     u2.cwiseAbs().maxCoeff());
    int* nodes = &s.fineNodes[size_t(f) * s.nodesPerFace];
    for (size_t k = 0; k < local.size(); ++k) {
      const size_t fineFace = size_t(f) * local.size() + k;
      for (int c = 0; c < 3; ++c) {
        const Bary& p = local[k][c];
        const Vert& v = fine.verts[fine.faces[fineFace].verts[c]];
        const Vec2 expected = (p[0] * u0 + p[1] * u1 + p[2] * u2) / double(n);
        const int q = canonicalIndex(p, n);
        if ((v.u - expected).cwiseAbs().maxCoeff() > tolerance || (nodes[q] >= 0 && nodes[q] != v.node))
          throw std::logic_error("makePatchStencil: fine face " + std::to_string(fineFace) +
                                 " is not where the block order of subdivide() puts it in coarse face " +
                                 std::to_string(f));
        nodes[q] = v.node;
      }
    }
    for (int q = 0; q < s.nodesPerFace; ++q) {
      if (nodes[q] < 0) throw std::logic_error("makePatchStencil: a fine node of the face was not found");
      ++holders[nodes[q]];
    }
    // Coarse nodes keep their indices in the fine mesh.
    if (nodes[0] != s.corners[f][0] || nodes[canonicalIndex({0, n, 0}, n)] != s.corners[f][1] ||
        nodes[s.nodesPerFace - 1] != s.corners[f][2])
      throw std::logic_error("makePatchStencil: coarse corners do not keep their node indices");
  }
  s.share.resize(fine.nodes.size());
  for (size_t i = 0; i < holders.size(); ++i) {
    if (holders[i] == 0) throw std::logic_error("makePatchStencil: fine node " + std::to_string(i) + " in no face");
    s.share[i] = 1.0 / holders[i];
  }
  return s;
}

std::array<Vec3, kStencilPoints> stencilPoints(const PatchStencil& s, int face, const Eigen::MatrixX3d& x) {
  std::array<Vec3, kStencilPoints> p;
  for (int c = 0; c < 3; ++c) p[c] = x.row(s.corners[face][c]).transpose();
  for (int i = 0; i < 3; ++i) {
    const int node = s.across[face][i];
    p[3 + i] = node >= 0 ? Vec3(x.row(node).transpose()) : Vec3(p[i] + p[(i + 1) % 3] - p[(i + 2) % 3]);
  }
  for (int i = 0; i < 3; ++i) {
    const Vec3 &ci = p[i], &cj = p[(i + 1) % 3], &a = p[3 + i];
    const int beyondFar = s.outer[face][2 * i], beyondNear = s.outer[face][2 * i + 1];
    p[6 + 2 * i] = beyondFar >= 0 ? Vec3(x.row(beyondFar).transpose()) : Vec3(cj + a - ci);
    p[7 + 2 * i] = beyondNear >= 0 ? Vec3(x.row(beyondNear).transpose()) : Vec3(a + ci - cj);
  }
  return p;
}

PatchFrame patchFrame(const PatchStencil& s, int face, const Eigen::MatrixX3d& x) {
  const Vec3 c0 = x.row(s.corners[face][0]).transpose(), c1 = x.row(s.corners[face][1]).transpose(),
             c2 = x.row(s.corners[face][2]).transpose();
  PatchFrame frame;
  frame.origin = (c0 + c1 + c2) / 3.0;
  const Vec3 edge = c1 - c0, normal = edge.cross(c2 - c0);
  const double edgeLength = edge.norm(), normalLength = normal.norm();
  if (edgeLength == 0 || normalLength == 0 || !std::isfinite(normalLength)) return frame;
  const Vec3 e1 = edge / edgeLength, n = normal / normalLength;
  frame.R.col(0) = e1;
  frame.R.col(1) = n.cross(e1);
  frame.R.col(2) = n;
  return frame;
}

void patchInputs(const PatchStencil& s, const Eigen::MatrixX3d& now, const Eigen::MatrixX3d& previous,
                 const Eigen::MatrixX3d& beforePrevious, Eigen::MatrixXf& inputs, std::vector<PatchFrame>& frames) {
  const int F = s.faceCount();
  inputs.resize(kPatchInputs, F);
  frames.resize(F);
  const Eigen::MatrixX3d* x[kStencilFrames] = {&now, &previous, &beforePrevious};
  for (int f = 0; f < F; ++f) {
    const PatchFrame& frame = frames[f] = patchFrame(s, f, now);
    float* column = inputs.col(f).data();
    for (int k = 0; k < kStencilFrames; ++k) {
      const std::array<Vec3, kStencilPoints> p = stencilPoints(s, f, *x[k]);
      for (int j = 0; j < kStencilPoints; ++j) {
        const Vec3 local = frame.R.transpose() * (p[j] - frame.origin);
        for (int d = 0; d < 3; ++d) column[(k * kStencilPoints + j) * 3 + d] = float(local[d]);
      }
    }
    for (int r = 0; r < kPatchRestInputs; ++r) column[kPatchRestOffset + r] = float(s.rest[f][r]);
  }
}

Eigen::MatrixXf patchTargets(const PatchStencil& s, const std::vector<PatchFrame>& frames,
                             const Eigen::MatrixX3d& fine, const Eigen::MatrixX3d& predicted) {
  const int F = s.faceCount(), P = s.nodesPerFace;
  Eigen::MatrixXf targets(3 * P, F);
  for (int f = 0; f < F; ++f)
    for (int q = 0; q < P; ++q) {
      const int node = s.fineNodes[size_t(f) * P + q];
      const Vec3 local = frames[f].R.transpose() * (fine.row(node) - predicted.row(node)).transpose();
      targets.block<3, 1>(3 * q, f) = local.cast<float>();
    }
  return targets;
}

Eigen::MatrixX3d patchOutputsToFine(const PatchStencil& s, const std::vector<PatchFrame>& frames,
                                    const Eigen::MatrixXf& outputs, const Eigen::MatrixX3d& predicted) {
  const int F = s.faceCount(), P = s.nodesPerFace;
  Eigen::MatrixX3d fine = predicted;
  for (int f = 0; f < F; ++f) {
    const Mat3& R = frames[f].R;
    for (int q = 0; q < P; ++q) {
      const int node = s.fineNodes[size_t(f) * P + q];
      const Vec3 local = outputs.block<3, 1>(3 * q, f).cast<double>();
      fine.row(node) += s.share[node] * (R * local).transpose();
    }
  }
  return fine;
}

}  // namespace adacloth
