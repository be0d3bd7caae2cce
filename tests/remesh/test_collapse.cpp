// Edge collapse (remesh/collapse.h): a collapse must not fold the cloth into a compressed face.
#include <algorithm>
#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "remesh/remesh.h"

using namespace adacloth;

namespace {

// A 1 x 0.4 m sheet folded like an accordion along x: pleats of 5 cm of material, each tilted 60 degrees from the
// sheet's plane, so the world sheet is isometric to its material (every face at rest) but half as wide. The creases
// lie on grid lines (4 cells per pleat).
Mesh pleatedSheet() {
  const double pleat = 0.05, tilt = M_PI / 3;
  Mesh mesh = makeGrid(1.0, 0.4, 80, 16);
  for (Node& n : mesh.nodes) {
    const double u = n.x.x(), k = std::floor(u / pleat), along = u - k * pleat;
    const double z = std::sin(tilt) * (int(k) % 2 == 0 ? along : pleat - along);
    n.x = Vec3(u * std::cos(tilt), n.x.y(), z);
  }
  mesh.updateGeometry();
  return mesh;
}

// The smallest of the faces' smaller principal stretches (world against material).
double mostCompressed(const Mesh& mesh) {
  double lowest = 1e9;
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    const Tri& v = mesh.faces[f].verts;
    Mat2 dm;
    dm << mesh.verts[v[1]].u - mesh.verts[v[0]].u, mesh.verts[v[2]].u - mesh.verts[v[0]].u;
    const Vec3 &x0 = mesh.nodes[mesh.verts[v[0]].node].x, &x1 = mesh.nodes[mesh.verts[v[1]].node].x,
               &x2 = mesh.nodes[mesh.verts[v[2]].node].x;
    Mat32 ds;
    ds << x1 - x0, x2 - x0;
    const Eigen::JacobiSVD<Mat32> svd(ds * dm.inverse());
    lowest = std::min(lowest, svd.singularValues()(1));
  }
  return lowest;
}

}  // namespace

TEST_CASE("a coarse sizing does not collapse a pleated sheet into compressed faces", "[remesh]") {
  // Edges up to 20 cm allowed (as out of view): collapses across the pleats would leave faces whose world width is
  // half their material width. With the check none goes below collapseMinStretch, and the sheet still coarsens.
  const Mesh start = pleatedSheet();
  REQUIRE(mostCompressed(start) > 0.999);
  const std::vector<Mat2> coarse(start.verts.size(), Mat2::Identity() / (0.2 * 0.2));
  auto remeshed = [&](double minStretch) {
    Mesh mesh = start;
    RemeshParams params;
    params.collapseMinStretch = minStretch;
    const RemeshResult r = remesh(mesh, coarse, params, {});
    INFO("min stretch " << minStretch << ": " << r.collapses << " collapses, " << mesh.faces.size() << " faces");
    CHECK(r.collapses > 0);
    return mesh;
  };
  const Mesh unchecked = remeshed(0.0), checked = remeshed(RemeshParams().collapseMinStretch);
  INFO("most compressed face: unchecked " << mostCompressed(unchecked) << ", checked " << mostCompressed(checked)
                                          << "; faces " << start.faces.size() << " -> " << unchecked.faces.size()
                                          << " / " << checked.faces.size());
  CHECK(mostCompressed(unchecked) < 0.7);
  CHECK(mostCompressed(checked) >= RemeshParams().collapseMinStretch);
  CHECK(checked.faces.size() < start.faces.size());
}
