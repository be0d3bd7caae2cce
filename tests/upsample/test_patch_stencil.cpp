#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/patch_stencil.h"

using namespace adacloth;

namespace {

// Coarse positions of a rest mesh, bent out of its plane and stretched a little (a deformed frame).
Eigen::MatrixX3d deformed(const Mesh& mesh, double phase) {
  Eigen::MatrixX3d x = nodePositions(mesh);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    x(i, 2) += 0.05 * std::sin(3 * x(i, 0) + phase) + 0.02 * std::cos(5 * x(i, 1));
    x(i, 0) *= 1.0 + 0.03 * std::sin(phase);
  }
  return x;
}

}  // namespace

TEST_CASE("patch stencil of a 2x2 grid: boundary reflection, 45 fine nodes per face, every fine node covered",
          "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 1.0, 2, 2), 3);
  const PatchStencil s = makePatchStencil(pair);
  REQUIRE(s.faceCount() == 8);
  CHECK(patchNodeCount(3) == 45);
  CHECK(patchNodeCount(0) == 3);
  CHECK(s.nodesPerFace == 45);
  CHECK(s.fineNodes.size() == 8 * 45u);
  // Every fine node is in some face; nodes inside a face in exactly one, nodes on coarse edges in two (interior
  // edges) and coarse nodes in all their faces.
  std::vector<int> holders(pair.sub.fine.nodes.size(), 0);
  for (int node : s.fineNodes) ++holders[node];
  for (size_t i = 0; i < holders.size(); ++i) {
    REQUIRE(holders[i] >= 1);
    CHECK(s.share[i] == Approx(1.0 / holders[i]));
  }
  CHECK(pair.sub.fine.nodes.size() == size_t(17 * 17));
  // Each output q sits at its canonical barycentric point of the face at rest (midpoint subdivision is linear).
  const Eigen::MatrixX3d rest = nodePositions(pair.coarse), fineRest = nodePositions(pair.sub.fine);
  for (int f = 0; f < s.faceCount(); ++f)
    for (int q = 0; q < s.nodesPerFace; ++q) {
      Vec3 expected = Vec3::Zero();
      for (int c = 0; c < 3; ++c) expected += s.bary[q][c] / 8.0 * rest.row(s.corners[f][c]).transpose();
      CHECK((fineRest.row(s.fineNodes[size_t(f) * 45 + q]).transpose() - expected).norm() < 1e-12);
    }
  // Outer edges have no neighbour: 8 of the 24 face edges. The stencil reflects the opposite corner there, and takes
  // the neighbour's opposite node elsewhere.
  const Eigen::MatrixX3d x = deformed(pair.coarse, 0.4);
  int boundary = 0;
  for (int f = 0; f < s.faceCount(); ++f) {
    const auto p = stencilPoints(s, f, x);
    for (int i = 0; i < 3; ++i) {
      const Vec3 a = x.row(s.corners[f][i]), b = x.row(s.corners[f][(i + 1) % 3]), c = x.row(s.corners[f][(i + 2) % 3]);
      CHECK(p[i] == Vec3(x.row(s.corners[f][i])));
      if (s.across[f][i] < 0) {
        ++boundary;
        CHECK((p[3 + i] - (a + b - c)).norm() < 1e-15);
      } else {
        CHECK(p[3 + i] == Vec3(x.row(s.across[f][i])));
        // The node across is in the other face of the edge: not a corner of this one.
        CHECK(std::find(s.corners[f].begin(), s.corners[f].end(), s.across[f][i]) == s.corners[f].end());
      }
    }
  }
  CHECK(boundary == 8);
}

TEST_CASE("patch stencil's second ring: the nodes beyond each neighbour's other edges, or their reflections",
          "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 1.0, 3, 3), 1);
  const Mesh& mesh = pair.coarse;
  const PatchStencil s = makePatchStencil(pair);
  const Eigen::MatrixX3d x = deformed(mesh, 0.7);
  auto inOneFace = [&](int a, int b, int c) {
    for (size_t g = 0; g < mesh.faces.size(); ++g) {
      int found = 0;
      for (int k = 0; k < 3; ++k) {
        const int node = mesh.nodeOf(int(g), k);
        found += node == a || node == b || node == c;
      }
      if (found == 3) return true;
    }
    return false;
  };
  int complete = 0, reflected = 0;
  for (int f = 0; f < s.faceCount(); ++f) {
    const auto p = stencilPoints(s, f, x);
    int found = 0;
    for (int i = 0; i < 3; ++i) {
      const int ci = s.corners[f][i], cj = s.corners[f][(i + 1) % 3], a = s.across[f][i];
      for (int k = 0; k < 2; ++k) {
        const int node = s.outer[f][2 * i + k];
        // Beyond edge (cj, a) first, then beyond edge (a, ci).
        const Vec3 &from = p[k == 0 ? (i + 1) % 3 : 3 + i], &to = p[k == 0 ? 3 + i : i],
                   &third = p[k == 0 ? i : (i + 1) % 3];
        if (node < 0) {
          ++reflected;
          CHECK((p[6 + 2 * i + k] - (from + to - third)).norm() < 1e-15);
          continue;
        }
        ++found;
        REQUIRE(a >= 0);
        CHECK(p[6 + 2 * i + k] == Vec3(x.row(node)));
        CHECK(node != ci);
        CHECK(node != cj);
        CHECK(node != a);
        CHECK(inOneFace(k == 0 ? cj : a, k == 0 ? a : ci, node));
      }
    }
    complete += found == 6;
  }
  CHECK(complete > 0);   // the middle cell's faces see two full rings
  CHECK(reflected > 0);  // and the rim reflects
}

TEST_CASE("patch rest inputs: rest edge lengths of the face and its neighbours, and its material centroid",
          "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(0.9, 0.6, 3, 2), 1);
  const Mesh& mesh = pair.coarse;
  const PatchStencil s = makePatchStencil(pair);
  std::vector<Vec2> u(mesh.nodes.size());
  for (const Vert& v : mesh.verts) u[v.node] = v.u;
  for (int f = 0; f < s.faceCount(); ++f) {
    const auto& r = s.rest[f];
    Vec2 centroid = Vec2::Zero();
    for (int i = 0; i < 3; ++i) {
      const Vec2 ci = u[s.corners[f][i]], cj = u[s.corners[f][(i + 1) % 3]], ck = u[s.corners[f][(i + 2) % 3]];
      centroid += ci / 3.0;
      CHECK(r[i] == Approx((cj - ci).norm()));
      const int a = s.across[f][i];
      const Vec2 ua = a >= 0 ? u[a] : Vec2(ci + cj - ck);  // the reflection on the rim
      CHECK(r[3 + 2 * i] == Approx((ua - ci).norm()));
      CHECK(r[4 + 2 * i] == Approx((ua - cj).norm()));
    }
    CHECK(r[9] == Approx(centroid.x()));
    CHECK(r[10] == Approx(centroid.y()));
  }
  // The inputs carry them whatever the pose.
  const Eigen::MatrixX3d x = deformed(mesh, 0.3);
  Eigen::MatrixXf in;
  std::vector<PatchFrame> frames;
  patchInputs(s, x, x, x, in, frames);
  for (int f = 0; f < s.faceCount(); ++f)
    for (int k = 0; k < kPatchRestInputs; ++k) CHECK(in(kPatchRestOffset + k, f) == float(s.rest[f][k]));
}

TEST_CASE("patch stencil crosses seams and shares the fine nodes of seam edges", "[upsample]") {
  const MeshPair pair = makeMeshPair(makeTube(0.3, 0.5, 6, 2), 2);  // a closed tube: no boundary across its seam
  const PatchStencil s = makePatchStencil(pair);
  CHECK(s.nodesPerFace == 15);
  int boundary = 0;
  for (const auto& a : s.across)
    for (int node : a) boundary += node < 0;
  CHECK(boundary == 12);  // the two open rims of 6 edges each
  std::vector<int> holders(pair.sub.fine.nodes.size(), 0);
  for (int node : s.fineNodes) ++holders[node];
  for (size_t i = 0; i < holders.size(); ++i) {
    REQUIRE(holders[i] >= 1);
    // A fine node on the seam has two verts but is one node, held by the faces of both sides.
    if (pair.sub.fine.nodes[i].seam && !pair.sub.fine.nodes[i].boundary) CHECK(holders[i] >= 2);
  }
}

TEST_CASE("patch inputs are in the face's local frame", "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 3, 2), 1);
  const PatchStencil s = makePatchStencil(pair);
  const Eigen::MatrixX3d now = deformed(pair.coarse, 0.1), prev = deformed(pair.coarse, 0.0),
                         before = deformed(pair.coarse, -0.1);
  Eigen::MatrixXf in;
  std::vector<PatchFrame> frames;
  patchInputs(s, now, prev, before, in, frames);
  REQUIRE(in.rows() == kPatchInputs);
  REQUIRE(in.cols() == s.faceCount());
  for (int f = 0; f < s.faceCount(); ++f) {
    CHECK((frames[f].R.transpose() * frames[f].R - Mat3::Identity()).norm() < 1e-12);
    CHECK(frames[f].R.determinant() == Approx(1.0));
    // Corners at t: centroid at the origin, in the plane z = 0, c1 - c0 along +x.
    Vec3 sum = Vec3::Zero();
    for (int j = 0; j < 3; ++j) {
      const Vec3 c = in.block<3, 1>(3 * j, f).cast<double>();
      CHECK(std::abs(c.z()) < 1e-7);
      sum += c;
    }
    CHECK(sum.norm() < 1e-6);
    CHECK(std::abs(in(1, f) - in(4, f)) < 1e-7);
    CHECK(in(3, f) > in(0, f));
    // Frame t-1's points in the frame of t.
    const auto p = stencilPoints(s, f, prev);
    for (int j = 0; j < kStencilPoints; ++j) {
      const Vec3 local = frames[f].R.transpose() * (p[j] - frames[f].origin);
      CHECK((in.block<3, 1>((kStencilPoints + j) * 3, f).cast<double>() - local).norm() < 1e-6);
    }
  }
}
