#include <catch2/catch.hpp>
#include <fstream>

#include "io/atomic_file.h"
#include "io/error.h"
#include "test_util.h"
#include "upsample/operator_file.h"
#include "upsample/upsample_operator.h"

using namespace adacloth;

namespace {

// A small operator with every field filled (not a meaningful upsampling; the file does not care).
UpsampleOperator smallOperator() {
  UpsampleOperator op;
  op.coarsePoints = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)};
  op.finePoints = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1), Vec2(0.5, 0.5)};
  op.fineUv = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1), Vec2(0.5, 0.5), Vec2(0.5, 0.5)};
  op.fineVertNode = {0, 1, 2, 3, 3};
  op.fineFaces = {{0, 1, 3}, {0, 4, 2}};
  op.U = Eigen::MatrixXf::Random(4, 3);
  OscillatoryMode m;
  m.omega = 12.5;
  m.sinAmp = Eigen::VectorXf::Random(4);
  m.cosAmp = Eigen::VectorXf::Random(4);
  op.modes.push_back(m);
  return op;
}

std::string loadError(const std::string& file) {
  try {
    loadUpsampleOperator(file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("upsampling operator file round trip", "[upsample]") {
  test::TempDir dir("upop");
  const UpsampleOperator op = smallOperator();
  const std::string file = (dir / "op.bin").string();
  saveUpsampleOperator(op, file);
  const UpsampleOperator back = loadUpsampleOperator(file);
  CHECK(back.coarsePoints == op.coarsePoints);
  CHECK(back.finePoints == op.finePoints);
  CHECK(back.fineUv == op.fineUv);
  CHECK(back.fineVertNode == op.fineVertNode);
  CHECK(back.fineFaces == op.fineFaces);
  CHECK(back.U == op.U);
  REQUIRE(back.modes.size() == 1);
  CHECK(back.modes[0].omega == op.modes[0].omega);
  CHECK(back.modes[0].sinAmp == op.modes[0].sinAmp);
  CHECK(back.modes[0].cosAmp == op.modes[0].cosAmp);
  // Saving what was loaded gives the same bytes.
  saveUpsampleOperator(back, (dir / "op2.bin").string());
  CHECK(readFile(dir / "op2.bin") == readFile(file));
}

TEST_CASE("upsampling operator file errors name the file and the problem", "[upsample]") {
  test::TempDir dir("upopbad");
  const std::string file = (dir / "op.bin").string();
  saveUpsampleOperator(smallOperator(), file);
  const std::string good = readFile(file);
  auto writeBytes = [&](const std::string& bytes) { writeFileAtomically(file, bytes); };

  std::string bad = good;
  bad[0] = 'X';
  writeBytes(bad);
  CHECK_THAT(loadError(file), Catch::Contains(file) && Catch::Contains("bad magic"));

  bad = good;
  bad[8] = char(kUpsampleVersion + 1);
  writeBytes(bad);
  CHECK_THAT(loadError(file), Catch::Contains("unsupported version 2"));

  writeBytes(good.substr(0, good.size() - 5));
  CHECK_THAT(loadError(file), Catch::Contains("truncated"));
  writeBytes(good.substr(0, 20));
  CHECK_THAT(loadError(file), Catch::Contains("truncated"));

  bad = good;
  bad[good.size() - 30] ^= 0x10;  // a payload byte: the checksum no longer matches
  writeBytes(bad);
  CHECK_THAT(loadError(file), Catch::Contains("checksum"));

  // A NaN in U with a consistent checksum (as a buggy writer would produce) is still refused.
  UpsampleOperator op = smallOperator();
  op.U(1, 2) = std::numeric_limits<float>::quiet_NaN();
  saveUpsampleOperator(op, file);
  CHECK_THAT(loadError(file), Catch::Contains("non-finite"));

  CHECK_THAT(loadError((dir / "missing.bin").string()), Catch::Contains("missing.bin"));
}

TEST_CASE("upsampling operator apply adds oscillatory modes along the normal", "[upsample]") {
  UpsampleOperator op;
  op.coarsePoints = {Vec2(0, 0), Vec2(1, 0), Vec2(0, 1)};
  op.finePoints = op.coarsePoints;
  op.fineUv = op.coarsePoints;
  op.fineVertNode = {0, 1, 2};
  op.fineFaces = {{0, 1, 2}};
  op.U = Eigen::MatrixXf::Identity(3, 3);
  Eigen::MatrixX3f coarse(3, 3);
  coarse << 0, 0, 0, 1, 0, 0, 0, 1, 0;  // a triangle in the XY plane, normal +Z
  Eigen::MatrixX3f fine;
  op.apply(coarse, 0.3, fine);
  CHECK(fine.isApprox(coarse));
  OscillatoryMode m;
  m.omega = 2.0;
  m.sinAmp = Eigen::VectorXf::Constant(3, 0.01f);
  m.cosAmp = Eigen::VectorXf::Constant(3, 0.02f);
  op.modes.push_back(m);
  op.apply(coarse, 0.3, fine);
  const float dz = float(0.01 * std::sin(0.6) + 0.02 * std::cos(0.6));
  CHECK(fine.leftCols(2).isApprox(coarse.leftCols(2)));
  CHECK(fine.col(2).isApprox(Eigen::VectorXf::Constant(3, dz)));
}
