#pragma once
// Image comparison for regression checks: how different two renders are, per pixel.
#include "render/image.h"

namespace adacloth {

struct ImageDifference {
  int maxDifference = 0;        // largest per-pixel difference (0..255)
  double meanDifference = 0.0;  // mean per-pixel difference (0..255)
  double shareAbove = 0.0;      // fraction of pixels whose difference exceeds the threshold
  long pixelsAbove = 0;
};

// The difference of a pixel is the largest absolute difference of its channels (RGB, and alpha when an image has
// it; a missing alpha counts as opaque). Both images must have the same size (std::invalid_argument otherwise).
ImageDifference compareImages(const Image& a, const Image& b, int threshold);

}  // namespace adacloth
