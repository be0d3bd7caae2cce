#include <catch2/catch.hpp>

#include <filesystem>

#include "io/atomic_file.h"
#include "io/error.h"
#include "render/compare.h"
#include "render/png.h"

using namespace adacloth;
namespace fs = std::filesystem;

namespace {

Image pattern(int w, int h) {
  Image image(w, h, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = image.at(x, y);
      p[0] = uint8_t(x * 7 + y);
      p[1] = uint8_t(y * 13);
      p[2] = uint8_t((x ^ y) * 3);
    }
  return image;
}

}  // namespace

TEST_CASE("a PNG written is read back with libpng with the right size, channels and pixels", "[render]") {
  const fs::path file = fs::temp_directory_path() / "adacloth_png_test.png";
  const Image image = pattern(37, 19);
  writePng(image, file);
  const Image back = readPng(file);
  CHECK(back.width == 37);
  CHECK(back.height == 19);
  CHECK(back.channels == 3);
  CHECK(back.pixels == image.pixels);
  // Deterministic bytes: encoding twice gives the same file.
  CHECK(encodePng(image) == readFile(file));
  fs::remove(file);
}

TEST_CASE("sRGB encoding is exact and round-trips every 8-bit value", "[render]") {
  for (int v = 0; v < 256; ++v) CHECK(int(toSrgb8(fromSrgb8(uint8_t(v)))) == v);
  CHECK(int(toSrgb8(0.0f)) == 0);
  CHECK(int(toSrgb8(1.0f)) == 255);
  CHECK(int(toSrgb8(-1.0f)) == 0);
  CHECK(int(toSrgb8(7.0f)) == 255);
  CHECK(int(toSrgb8(0.5f)) == 188);  // the well-known mid grey
}

TEST_CASE("reading something that is not a PNG is an InputError naming the file", "[render]") {
  CHECK_THROWS_WITH(decodePng("definitely not a png", "x.png"), Catch::Contains("x.png: not a readable PNG"));
  CHECK_THROWS_AS(readPng("/nonexistent/adacloth.png"), InputError);
}

TEST_CASE("image comparison: max, mean and share of pixels above a threshold", "[render]") {
  const Image a = pattern(10, 10);
  Image b = a;
  CHECK(compareImages(a, b, 0).maxDifference == 0);
  b.at(3, 4)[1] = uint8_t(b.at(3, 4)[1] + 40);
  b.at(5, 5)[2] = uint8_t(b.at(5, 5)[2] ^ 4);  // a difference of 4 in one channel
  const ImageDifference d = compareImages(a, b, 10);
  CHECK(d.maxDifference == 40);
  CHECK(d.meanDifference == Approx(44.0 / 100));
  CHECK(d.pixelsAbove == 1);
  CHECK(d.shareAbove == Approx(0.01));
  CHECK_THROWS_AS(compareImages(a, pattern(10, 11), 0), std::invalid_argument);
}
