// The binary encoding of state files: values read back exactly, and damaged bytes are reported, never read past.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "io/binary_stream.h"

using namespace adacloth;

TEST_CASE("every value reads back bit for bit", "[io]") {
  BinaryWriter out;
  out.u8(7);
  out.u32(0xdeadbeef);
  out.u64(0x0123456789abcdefull);
  out.i32(-5);
  out.f64(0.1);
  out.f64(-0.0);
  out.f64(std::numeric_limits<double>::quiet_NaN());
  out.vec3(Vec3(1e-300, -2.5, 3));
  out.text("skirt");
  out.ints({1, -2, 3});
  out.chars({0, 1, 1});
  out.vec2s({Vec2(0.25, 0.5)});
  BinaryReader in(out.bytes(), "test");
  CHECK(in.u8("a") == 7);
  CHECK(in.u32("b") == 0xdeadbeef);
  CHECK(in.u64("c") == 0x0123456789abcdefull);
  CHECK(in.i32("d") == -5);
  CHECK(in.f64("e") == 0.1);
  const double negativeZero = in.f64("f");
  CHECK(std::signbit(negativeZero));
  CHECK(std::isnan(in.f64("g")));
  CHECK(in.vec3("h") == Vec3(1e-300, -2.5, 3));
  CHECK(in.text("i") == "skirt");
  CHECK(in.ints("j") == std::vector<int>{1, -2, 3});
  CHECK(in.chars("k") == std::vector<char>{0, 1, 1});
  CHECK(in.vec2s("l") == std::vector<Vec2>{Vec2(0.25, 0.5)});
  CHECK(in.atEnd());
}

TEST_CASE("the encoding is little-endian whatever the machine", "[io]") {
  BinaryWriter out;
  out.u32(0x04030201);
  CHECK(out.bytes() == std::string("\x01\x02\x03\x04", 4));
}

TEST_CASE("damaged bytes are reported with the field and offset, never read past", "[io]") {
  BinaryWriter out;
  out.ints({1, 2, 3});
  const std::string whole = out.bytes();
  const std::string cut = whole.substr(0, whole.size() - 1);
  BinaryReader truncated(cut, "file.ckpt");
  CHECK_THROWS_WITH(truncated.ints("handle nodes"),
                    Catch::Contains("file.ckpt") && Catch::Contains("handle nodes") && Catch::Contains("byte"));
  // A count far beyond the file is refused before anything is allocated.
  BinaryWriter huge;
  huge.u64(uint64_t(1) << 60);
  BinaryReader hugeIn(huge.bytes(), "file.ckpt");
  CHECK_THROWS_AS(hugeIn.vec3s("nodes"), BinaryFormatError);
}

TEST_CASE("the checksum sees a single flipped bit", "[io]") {
  std::string bytes(1000, 'x');
  const uint64_t before = fnv1a64(bytes);
  bytes[500] = char(bytes[500] ^ 1);
  CHECK(fnv1a64(bytes) != before);
}
