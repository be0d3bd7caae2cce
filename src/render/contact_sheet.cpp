#include "render/contact_sheet.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace adacloth {

Image downscale(const Image& image, int w, int h) {
  Image out(w, h, 3);
  float decode[256];
  for (int i = 0; i < 256; ++i) decode[i] = fromSrgb8(uint8_t(i));
  for (int y = 0; y < h; ++y) {
    const int sy0 = int(long(y) * image.height / h), sy1 = std::max(sy0 + 1, int(long(y + 1) * image.height / h));
    for (int x = 0; x < w; ++x) {
      const int sx0 = int(long(x) * image.width / w), sx1 = std::max(sx0 + 1, int(long(x + 1) * image.width / w));
      float sum[3] = {0, 0, 0};
      for (int sy = sy0; sy < sy1; ++sy)
        for (int sx = sx0; sx < sx1; ++sx)
          for (int c = 0; c < 3; ++c) sum[c] += decode[image.at(sx, sy)[std::min(c, image.channels - 1)]];
      const float n = float((sy1 - sy0) * (sx1 - sx0));
      for (int c = 0; c < 3; ++c) out.at(x, y)[c] = toSrgb8(sum[c] / n);
    }
  }
  return out;
}

Image contactSheet(const std::vector<Image>& frames, const ContactSheetOptions& options) {
  if (frames.empty()) throw std::invalid_argument("contactSheet: no frames");
  const int columns = std::max(1, std::min(options.columns, int(frames.size())));
  const int rows = int((frames.size() + columns - 1) / columns);
  const int tw = std::max(1, options.thumbWidth);
  const int th = std::max(1, int(std::lround(double(tw) * frames[0].height / frames[0].width)));
  const int g = std::max(0, options.gap);
  Image sheet(columns * tw + (columns + 1) * g, rows * th + (rows + 1) * g, 3);
  std::fill(sheet.pixels.begin(), sheet.pixels.end(), uint8_t(32));
  for (size_t i = 0; i < frames.size(); ++i) {
    const Image thumb = downscale(frames[i], tw, th);
    const int x0 = g + int(i % columns) * (tw + g), y0 = g + int(i / columns) * (th + g);
    for (int y = 0; y < th; ++y) std::copy_n(thumb.at(0, y), size_t(tw) * 3, sheet.at(x0, y0 + y));
  }
  return sheet;
}

}  // namespace adacloth
