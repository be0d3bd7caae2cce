#include "render/image.h"

#include <algorithm>
#include <cmath>

namespace adacloth {

namespace {

double decode(double e) { return e <= 0.04045 ? e / 12.92 : std::pow((e + 0.055) / 1.055, 2.4); }

// Linear value at which the rounded 8-bit code steps from k-1 to k (the decoded midpoint between the codes).
// Encoding looks the code up in a coarse table and corrects it against these exact thresholds: as exact as pow()
// and rounding, and much faster, which matters for millions of pixels per frame.
struct Encoder {
  static constexpr int kCells = 16384;
  float at[257];
  uint8_t guess[kCells + 1];
  Encoder() {
    at[0] = -1.0f;
    for (int k = 1; k < 256; ++k) at[k] = float(decode((k - 0.5) / 255.0));
    at[256] = 2.0f;  // above every clamped input
    for (int i = 0; i <= kCells; ++i) guess[i] = search(float(i) / kCells);
  }
  uint8_t search(float v) const {
    int k = 0;
    while (at[k + 1] <= v) ++k;
    return uint8_t(k);
  }
  uint8_t encode(float v) const {
    int k = guess[int(v * kCells)];
    while (at[k + 1] <= v) ++k;
    while (at[k] > v) --k;
    return uint8_t(k);
  }
};

const Encoder& encoder() {
  static const Encoder table;
  return table;
}

// NaN counts as 0 (std::clamp would pass it through).
float clamp01(float x) { return x > 0.0f ? std::min(x, 1.0f) : 0.0f; }

}  // namespace

uint8_t toSrgb8(float linear) { return encoder().encode(clamp01(linear)); }

void toSrgb8(const Rgb& linear, uint8_t* out) {
  const Encoder& e = encoder();
  for (int k = 0; k < 3; ++k) out[k] = e.encode(clamp01(linear[k]));
}

float fromSrgb8(uint8_t encoded) {
  return float(decode(encoded / 255.0));
}

Rgb srgb(int r, int g, int b) { return {fromSrgb8(uint8_t(r)), fromSrgb8(uint8_t(g)), fromSrgb8(uint8_t(b))}; }

}  // namespace adacloth
