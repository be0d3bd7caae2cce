// Edge collapses (src/remesh/collapse.h): which collapses a coarsening sizing field is allowed to make.
#include <catch2/catch.hpp>

#include "remesh/collapse.h"
#include "remesh_fixtures.h"

using namespace adacloth;
using namespace adacloth::testing;

namespace {

// A 4 x 4 grid of `width` x `height` cells (material = world, z = 0) whose node `target` (the centre's right
// neighbour) is lifted by `lift` m: its own faces are stretched, and a collapse of the centre into it moves the
// centre's other faces' corner onto it, stretching them as much.
struct LiftedGrid {
  Mesh mesh;
  int centre = 12, target = 13, edge = -1;
  LiftedGrid(double width, double height, double lift) : mesh(makeGrid(4 * width, 4 * height, 4, 4)) {
    mesh.nodes[target].x.z() = lift;
    mesh.updateGeometry();
    edge = edgeBetween(mesh, centre, target);
  }
};

}  // namespace

TEST_CASE("a collapse that would stretch the faces it changes is refused", "[remesh]") {
  // Cells of 0.1 m, the target lifted 0.1 m: a face (centre, w, w') that becomes (target, w, w') goes from stretch
  // 1 to ~1.4. The sizing (10 m) wants every edge gone, so only the stretch stands in the way.
  LiftedGrid grid(0.1, 0.1, 0.1);
  RemeshState s = uniformSizingState(grid.mesh, 10.0);
  REQUIRE(grid.edge >= 0);
  CHECK_FALSE(canCollapse(s, grid.edge, grid.centre, RemeshParams()));
  RemeshParams unlimited;
  unlimited.maxChangedStretch = 0.0;
  CHECK(canCollapse(s, grid.edge, grid.centre, unlimited));
  // A small lift stays within the limit.
  LiftedGrid flat(0.1, 0.1, 0.02);
  RemeshState t = uniformSizingState(flat.mesh, 10.0);
  CHECK(canCollapse(t, flat.edge, flat.centre, RemeshParams()));
}

TEST_CASE("a collapse is not refused for stretch its faces already had", "[remesh]") {
  // The whole sheet stretched 1.5x in the world: every face that changes keeps the stretch it had.
  LiftedGrid grid(0.1, 0.1, 0.0);
  for (Node& n : grid.mesh.nodes) n.x *= 1.5;
  grid.mesh.updateGeometry();
  RemeshState s = uniformSizingState(grid.mesh, 10.0);
  CHECK(canCollapse(s, grid.edge, grid.centre, RemeshParams()));
}

TEST_CASE("a collapse among faces thin in material space is made even when it stretches them", "[remesh]") {
  // Cells of 0.25 x 0.02 m (material aspect 0.19 < aspect_min 0.2), the target lifted: the collapse stretches the
  // changed faces as in the first case, but it removes thin faces, which the contacts would shear further. The
  // sizing is anisotropic so that the faces are well shaped in its metric (cells of 0.1 x 0.1).
  LiftedGrid grid(0.25, 0.02, 0.1);
  RemeshState s = uniformSizingState(grid.mesh, 10.0);
  const Mat2 M = Vec2(1 / (2.5 * 2.5), 1 / (0.2 * 0.2)).asDiagonal();
  s.sizing.assign(grid.mesh.verts.size(), M);
  CHECK(canCollapse(s, grid.edge, grid.centre, RemeshParams()));
  // The same sheet with square cells is held to the limit.
  LiftedGrid square(0.1, 0.1, 0.1);
  RemeshState t = uniformSizingState(square.mesh, 10.0);
  CHECK_FALSE(canCollapse(t, square.edge, square.centre, RemeshParams()));
}
