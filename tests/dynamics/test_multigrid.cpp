// The multigrid V-cycle as a preconditioner: a hierarchy that coarsens, and an operator CG can use (symmetric,
// positive definite).
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/multigrid.h"
#include "assets/held_sheet.h"

using namespace adacloth;

namespace {

std::vector<Vec3> pseudoRandom(const ImplicitSystem& sys, double seed) {
  std::vector<Vec3> r(sys.rhs.size());
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = sys.fixed[i] ? Vec3::Zero() : Vec3(std::sin(seed * i), std::cos(1.3 * seed * i), std::sin(0.7 * i + seed));
  return r;
}

double dot(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d += a[i].dot(b[i]);
  return d;
}

}  // namespace

TEST_CASE("the multigrid hierarchy coarsens to a direct solve", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(40);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  Multigrid mg;
  CHECK(mg.levels() == 0);
  CHECK_FALSE(mg.fits(sys, s.state));
  mg.build(sys, s.state);
  const std::vector<int> sizes = mg.levelSizes();
  REQUIRE(sizes.size() >= 3);
  CHECK(sizes[0] == 3 * (41 * 41 - 2));  // every node but the two held corners
  for (size_t l = 1; l < sizes.size(); ++l) CHECK(sizes[l] < sizes[l - 1] / 3);
  CHECK(mg.fits(sys, s.state));
  // Releasing a corner changes the free nodes: the hierarchy no longer fits.
  ImplicitSystem released = sys;
  for (size_t i = 0; i < released.fixed.size(); ++i)
    if (released.fixed[i]) {
      released.fixed[i] = 0;
      break;
    }
  CHECK_FALSE(mg.fits(released, s.state));
}

TEST_CASE("one V-cycle is a symmetric positive definite operator", "[dynamics]") {
  assets::HeldSheet s = assets::makeHeldSheet(40);
  const ImplicitSystem sys = assets::nextStepSystem(s, 1.0 / 96);
  Multigrid mg;
  mg.build(sys, s.state);
  const std::vector<Vec3> r1 = pseudoRandom(sys, 1.0), r2 = pseudoRandom(sys, 2.0);
  std::vector<Vec3> z1, z2;
  mg.apply(sys, s.state, r1, z1);
  mg.apply(sys, s.state, r2, z2);
  CHECK(dot(r1, z2) == Approx(dot(r2, z1)).epsilon(1e-9));
  CHECK(dot(r1, z1) > 0);
  CHECK(dot(r2, z2) > 0);
  for (size_t i = 0; i < z1.size(); ++i)
    if (sys.fixed[i]) CHECK(z1[i] == Vec3::Zero());
}

namespace {

// A hierarchy built for the held sheet's next step, and its saved bytes.
struct SavedHierarchy {
  assets::HeldSheet sheet;
  ImplicitSystem sys;
  Multigrid mg;
  std::string bytes;
};

SavedHierarchy savedHierarchy(int cells) {
  SavedHierarchy h{assets::makeHeldSheet(cells), {}, {}, {}};
  h.sys = assets::nextStepSystem(h.sheet, 1.0 / 96);
  h.mg.build(h.sys, h.sheet.state);
  BinaryWriter out;
  h.mg.save(out);
  h.bytes = out.take();
  return h;
}

}  // namespace

TEST_CASE("a saved and loaded hierarchy preconditions bit for bit like the original", "[dynamics]") {
  const SavedHierarchy h = savedHierarchy(40);
  const ImplicitSystem& sys = h.sys;
  const assets::HeldSheet& s = h.sheet;
  const Multigrid& mg = h.mg;
  Multigrid loaded;
  BinaryReader in(h.bytes, "hierarchy");
  loaded.load(in);
  CHECK(in.atEnd());
  CHECK(loaded.levelSizes() == mg.levelSizes());
  CHECK(loaded.fits(sys, s.state));
  const std::vector<Vec3> r = pseudoRandom(sys, 1.0);
  std::vector<Vec3> z, zLoaded;
  mg.apply(sys, s.state, r, z);
  loaded.apply(sys, s.state, r, zLoaded);
  CHECK(z == zLoaded);
  // An unbuilt hierarchy round-trips as unbuilt.
  BinaryWriter empty;
  Multigrid().save(empty);
  BinaryReader emptyIn(empty.bytes(), "empty");
  loaded.load(emptyIn);
  CHECK(loaded.levels() == 0);
}

TEST_CASE("a damaged hierarchy is refused, not used", "[dynamics]") {
  const std::string good = savedHierarchy(12).bytes;
  // Cut short anywhere: always a format error.
  for (size_t cut = 0; cut < good.size(); cut += 1 + good.size() / 97) {
    const std::string part = good.substr(0, cut);
    BinaryReader in(part, "hierarchy");
    Multigrid loaded;
    CHECK_THROWS_AS(loaded.load(in), BinaryFormatError);
    CHECK(loaded.levels() == 0);
  }
  // A slot out of order (byte 1 + 8 + fixed count: the first slot after the fixed flags and pair nodes).
  std::string bad = good;
  BinaryReader probe(good, "hierarchy");
  probe.u8("built");
  probe.chars("fixed");
  probe.ints("pairs");
  const size_t firstSlot = probe.offset() + 8;
  bad[firstSlot] = char(bad[firstSlot] + 5);
  BinaryReader in(bad, "hierarchy");
  Multigrid loaded;
  CHECK_THROWS_WITH(loaded.load(in), Catch::Contains("slots"));
}
