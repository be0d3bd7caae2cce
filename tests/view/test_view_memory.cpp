// The memory of the resolution seen (view/view_memory.h): cells cover the pattern, cloth that comes back into view
// is refined as it was when last seen, for a bounded time, and cloth never away is left exactly as it was.
#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "view/view_memory.h"
#include "view_fixtures.h"

using namespace adacloth;
using adacloth::test::isotropic;

namespace {

constexpr double kFrame = 1.0 / 24.0;

// A 1 m square in 4 x 4 cells (32 faces), a memory with 0.1 m cells.
struct Sheet {
  Mesh mesh;
  ViewMemory memory;
  Sheet() : mesh(makeGrid(1.0, 1.0, 4, 4)) {
    mesh.updateGeometry();
    memory = makeViewMemory(mesh, 0.1);
  }
  bool leftHalf(int f) const {
    const Tri v = mesh.faces[f].verts;
    return (mesh.verts[v[0]].u + mesh.verts[v[1]].u + mesh.verts[v[2]].u).x() / 3.0 < 0.5;
  }
  // One frame: raw sizing `fine` on the left half and `coarse` on the right, every face at view factor `factor`.
  std::vector<Mat2> frame(double time, const Mat2& left, const Mat2& right, double factor, double seconds = 0.5) {
    std::vector<Mat2> sizing(mesh.faces.size());
    for (size_t f = 0; f < sizing.size(); ++f) sizing[f] = leftHalf(int(f)) ? left : right;
    rememberViewSizing(memory, mesh, sizing, std::vector<double>(sizing.size(), factor), time, seconds);
    return sizing;
  }
};

}  // namespace

TEST_CASE("view memory: every cell of the pattern is covered, each face covers its centroid's cell",
          "[view-dependent]") {
  Sheet sheet;
  CHECK(sheet.memory.nx == 10);
  CHECK(sheet.memory.ny == 10);
  std::vector<int> covers(sheet.memory.sizing.size(), 0);
  for (int f = 0; f < int(sheet.mesh.faces.size()); ++f)
    for (int c : coveredCells(sheet.memory, sheet.mesh, f)) ++covers[c];
  for (int c : covers) CHECK(c >= 1);
  // A fine mesh: faces far smaller than a cell still each cover one.
  const Mesh fine = [] {
    Mesh m = makeGrid(1.0, 1.0, 40, 40);
    m.updateGeometry();
    return m;
  }();
  for (int f = 0; f < int(fine.faces.size()); f += 97) CHECK(coveredCells(sheet.memory, fine, f).size() == 1);
  // The grid has at most kViewMemoryMaxCells cells, whatever the cell asked for.
  const ViewMemory huge = makeViewMemory(sheet.mesh, 1e-5);
  CHECK(size_t(huge.nx) * huge.ny <= size_t(kViewMemoryMaxCells));
}

TEST_CASE("view memory: cloth back in view is refined where it was fine when last seen, for 3 x memory",
          "[view-dependent]") {
  Sheet sheet;
  const Mat2 fine = isotropic(0.02), coarse = isotropic(0.2);
  double t = 0.0;
  sheet.frame(t, fine, coarse, 1.0);  // seen, folded on the left
  // Away (view factor below 1): the coarse mesh has lost its folds, but the faces keep the remembered tensor.
  t += kFrame;
  std::vector<Mat2> s = sheet.frame(t, coarse, coarse, 0.1);
  for (int f = 0; f < int(s.size()); ++f) CHECK(s[f].isApprox(sheet.leftHalf(f) ? fine : coarse, 1e-12));
  // Back in view: still raised, faded by exp(-(time since it was last away) / memory).
  t += kFrame;
  s = sheet.frame(t, coarse, coarse, 1.0);
  const double fade = std::exp(-kFrame / 0.5);
  for (int f = 0; f < int(s.size()); ++f) CHECK(s[f].isApprox(sheet.leftHalf(f) ? fade * fine : coarse, 1e-12));
  // Three memory times after it was last away the raise ends, even where the faded memory is still finer.
  const double lastAway = kFrame;
  for (t += kFrame; t - lastAway <= 1.5; t += kFrame) s = sheet.frame(t, coarse, coarse, 1.0);
  for (int f = 0; f < int(s.size()); ++f)
    if (sheet.leftHalf(f)) CHECK(s[f](0, 0) > 4.0 * coarse(0, 0));  // the last frame within: raised
  s = sheet.frame(t, coarse, coarse, 1.0);
  for (const Mat2& m : s) CHECK(m == coarse);
}

TEST_CASE("view memory: cloth that was never away keeps its raw sizing exactly", "[view-dependent]") {
  Sheet sheet;
  const Mat2 fine = isotropic(0.02), coarse = isotropic(0.2);
  for (int k = 0; k < 10; ++k) {
    const double t = k * kFrame;
    const bool folded = k % 3 == 0;  // folds come and go: the memory would raise the unfolded frames
    const std::vector<Mat2> s = sheet.frame(t, folded ? fine : coarse, coarse, 1.0);
    for (int f = 0; f < int(s.size()); ++f) REQUIRE(s[f] == (sheet.leftHalf(f) && folded ? fine : coarse));
  }
}

TEST_CASE("view memory: what is remembered is the last frame seen at full factor, not a history",
          "[view-dependent]") {
  Sheet sheet;
  const Mat2 fine = isotropic(0.02), coarse = isotropic(0.2);
  sheet.frame(0.0, fine, coarse, 1.0);
  sheet.frame(kFrame, coarse, coarse, 1.0);  // the folds went away while seen
  sheet.frame(2 * kFrame, fine, fine, 0.5);   // away: what the cloth has now is not recorded
  const std::vector<Mat2> s = sheet.frame(3 * kFrame, coarse, coarse, 1.0);
  for (const Mat2& m : s) CHECK(m.isApprox(coarse, 1e-12));
}

TEST_CASE("view memory: cloth partly in view is neither away nor remembered", "[view-dependent]") {
  Sheet sheet;
  const Mat2 fine = isotropic(0.02), coarse = isotropic(0.2);
  sheet.frame(0.0, coarse, coarse, 1.0);
  std::vector<Mat2> s = sheet.frame(kFrame, fine, coarse, 0.8);  // coarsened a little: F^2 = 0.64
  for (int f = 0; f < int(s.size()); ++f) CHECK(s[f] == (sheet.leftHalf(f) ? fine : coarse));
  s = sheet.frame(2 * kFrame, coarse, coarse, 1.0);
  for (const Mat2& m : s) CHECK(m == coarse);
}
