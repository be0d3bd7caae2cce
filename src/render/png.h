#pragma once
// PNG files with libpng: 8-bit RGB / RGBA out, anything libpng reads in (converted to 8-bit RGB or RGBA).
#include <filesystem>
#include <string>

#include "render/image.h"

namespace adacloth {

// PNG bytes of an image. Deterministic: no timestamp or other metadata, fixed filter and zlib level.
// `compression` is the zlib level 0..9; the default is fast (rendered frames are large and written often).
std::string encodePng(const Image& image, int compression = 2);
// Writes a PNG atomically (temporary name, then rename). Throws std::runtime_error naming the path on failure.
void writePng(const Image& image, const std::filesystem::path& path, int compression = 2);
// Reads a PNG as 8-bit RGB (or RGBA when it has alpha): palette, grey and 16-bit images are converted.
// An unreadable or malformed file is an InputError naming it.
Image readPng(const std::filesystem::path& path);
Image decodePng(const std::string& bytes, const std::string& name);

}  // namespace adacloth
