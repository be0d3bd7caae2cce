#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/subdivide.h"

using namespace adacloth;

namespace {

Eigen::VectorXd rowSums(const SparseMatrixD& m) { return m * Eigen::VectorXd::Ones(m.cols()); }

}  // namespace

TEST_CASE("midpoint subdivision counts, material coordinates and maps", "[upsample]") {
  const Mesh coarse = makeGrid(2.0, 1.0, 4, 2);  // 15 nodes, 22 edges, 16 faces
  const Subdivision one = subdivideOnce(coarse);
  CHECK(one.fine.nodes.size() == coarse.nodes.size() + coarse.edges.size());
  CHECK(one.fine.faces.size() == 4 * coarse.faces.size());
  CHECK(validate(one.fine).empty());
  CHECK(one.fine.totalMaterialArea() == Approx(coarse.totalMaterialArea()));
  // Material coordinates are exact: a grid's fine verts lie on the half-cell lattice.
  for (const Vert& v : one.fine.verts) {
    CHECK(std::abs(v.u.x() * 4 - std::round(v.u.x() * 4)) < 1e-12);
    CHECK(std::abs(v.u.y() * 4 - std::round(v.u.y() * 4)) < 1e-12);
  }
  const Subdivision three = subdivide(coarse, 3);
  CHECK(three.fine.nodes.size() == size_t((4 * 8 + 1) * (2 * 8 + 1)));
  CHECK(three.fine.faces.size() == 64 * coarse.faces.size());
  CHECK(three.midpoint.rows() == long(three.fine.nodes.size()));
  CHECK(three.midpoint.cols() == long(coarse.nodes.size()));
  CHECK((rowSums(three.midpoint).array() - 1).abs().maxCoeff() < 1e-12);
  CHECK((rowSums(three.loop).array() - 1).abs().maxCoeff() < 1e-12);
  // The rest shape is the midpoint map of the coarse rest shape; on a flat grid world x = (u, 0).
  const Eigen::MatrixX3d x = three.midpoint * nodePositions(coarse);
  CHECK((x - nodePositions(three.fine)).cwiseAbs().maxCoeff() < 1e-12);
  for (const Vert& v : three.fine.verts) CHECK((three.fine.nodes[v.node].x.head<2>() - v.u).norm() < 1e-12);
}

TEST_CASE("subdividing a seam gives one node with two verts per seam edge", "[upsample]") {
  const Mesh tube = makeTube(0.3, 0.5, 6, 2);
  const int seamNodes = int(std::count_if(tube.nodes.begin(), tube.nodes.end(), [](const Node& n) { return n.seam; }));
  REQUIRE(seamNodes == 3);
  const Subdivision s = subdivideOnce(tube);
  CHECK(validate(s.fine).empty());
  const int fineSeam =
      int(std::count_if(s.fine.nodes.begin(), s.fine.nodes.end(), [](const Node& n) { return n.seam; }));
  CHECK(fineSeam == 5);  // 3 old seam nodes + 2 new ones on the 2 seam edges
  CHECK(s.fine.verts.size() == s.fine.nodes.size() + 5);
  for (const Node& n : s.fine.nodes) CHECK(n.verts.size() == (n.seam ? 2u : 1u));
  // The world shape stays a closed tube: every fine node's neighbours are within one coarse edge.
  CHECK(s.fine.nodes.size() == tube.nodes.size() + tube.edges.size());
}

TEST_CASE("Loop subdivision of a flat mesh stays flat and in its plane", "[upsample]") {
  Mesh coarse = makeGrid(1.0, 1.0, 3, 3);
  // Tilt the plane (z = 0.3 x + 0.1 y) and perturb in-plane: Loop is affine, so the fine mesh is in the plane too.
  for (Node& n : coarse.nodes) {
    n.x.x() += 0.05 * std::sin(7 * n.x.y());
    n.x.z() = 0.3 * n.x.x() + 0.1 * n.x.y();
  }
  const Subdivision s = subdivide(coarse, 2);
  const Eigen::MatrixX3d fine = s.loop * nodePositions(coarse);
  for (Eigen::Index i = 0; i < fine.rows(); ++i)
    CHECK(std::abs(fine(i, 2) - 0.3 * fine(i, 0) - 0.1 * fine(i, 1)) < 1e-12);
  // And Loop smooths: a coarse interior node is pulled toward its neighbours (weights differ from the identity).
  const Subdivision one = subdivideOnce(coarse);
  bool interiorMoves = false;
  for (int i = 0; i < int(coarse.nodes.size()); ++i)
    if (!coarse.nodes[i].boundary) interiorMoves = interiorMoves || one.loop.coeff(i, i) < 0.99;
  CHECK(interiorMoves);
}
