#pragma once
// A contact sheet: thumbnails of a sequence of frames in a grid, for seeing a whole shot at a glance.
#include <vector>

#include "render/image.h"

namespace adacloth {

struct ContactSheetOptions {
  int columns = 6;
  int thumbWidth = 240;  // pixels; the height keeps the first frame's aspect ratio
  int gap = 4;           // pixels between and around thumbnails
};

// Frames in reading order (left to right, top to bottom), each box-filtered down to the thumbnail size (in linear
// light). Frames of another size than the first are scaled to the same thumbnail size. Output is RGB.
Image contactSheet(const std::vector<Image>& frames, const ContactSheetOptions& options = {});

// An image scaled to w x h by averaging the source pixels each target pixel covers (area filter, linear light).
Image downscale(const Image& image, int w, int h);

}  // namespace adacloth
