#pragma once
// An 8-bit image in memory (row-major, top row first, channels interleaved), as written to and read from PNG.
#include <cstdint>
#include <vector>

#include <Eigen/Dense>

namespace adacloth {

// A linear-light colour, components in [0, 1] (shading happens in linear light; images store sRGB).
using Rgb = Eigen::Vector3f;

struct Image {
  int width = 0, height = 0;
  int channels = 3;  // 3 = RGB, 4 = RGBA
  std::vector<uint8_t> pixels;

  Image() = default;
  Image(int w, int h, int c = 3) : width(w), height(h), channels(c), pixels(size_t(w) * h * c, 0) {}
  uint8_t* at(int x, int y) { return pixels.data() + (size_t(y) * width + x) * channels; }
  const uint8_t* at(int x, int y) const { return pixels.data() + (size_t(y) * width + x) * channels; }
};

// Linear light in [0, 1] (clamped) -> 8-bit sRGB, and back. toSrgb8 is exact (rounded), not a table.
uint8_t toSrgb8(float linear);
// The same for the three channels of a colour at once (one table look-up set-up instead of three: it runs per pixel).
void toSrgb8(const Rgb& linear, uint8_t* out);
float fromSrgb8(uint8_t encoded);
// A colour given as 8-bit sRGB (how people pick colours) in linear light.
Rgb srgb(int r, int g, int b);

}  // namespace adacloth
