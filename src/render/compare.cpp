#include "render/compare.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace adacloth {
namespace {

int channel(const Image& image, const uint8_t* p, int c) { return c < image.channels ? p[c] : 255; }

}  // namespace

ImageDifference compareImages(const Image& a, const Image& b, int threshold) {
  if (a.width != b.width || a.height != b.height) throw std::invalid_argument("images differ in size");
  ImageDifference d;
  const int channels = std::max(a.channels, b.channels);
  long long sum = 0;  // exact integer sum: the mean does not depend on summation order
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      int diff = 0;
      for (int c = 0; c < channels; ++c)
        diff = std::max(diff, std::abs(channel(a, a.at(x, y), c) - channel(b, b.at(x, y), c)));
      d.maxDifference = std::max(d.maxDifference, diff);
      sum += diff;
      d.pixelsAbove += diff > threshold;
    }
  }
  const double pixels = double(a.width) * a.height;
  d.meanDifference = pixels > 0 ? sum / pixels : 0.0;
  d.shareAbove = pixels > 0 ? d.pixelsAbove / pixels : 0.0;
  return d;
}

}  // namespace adacloth
