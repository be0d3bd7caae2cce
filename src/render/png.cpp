#include "render/png.h"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

// libpng reports errors through a callback that must not return; it longjmps back to encodePng with the message
// saved here (C++ exceptions must not unwind through libpng's C frames).
struct ErrorSink {
  char message[256] = "unknown libpng error";
};

void onError(png_structp png, png_const_charp what) {
  auto* sink = static_cast<ErrorSink*>(png_get_error_ptr(png));
  std::snprintf(sink->message, sizeof sink->message, "%s", what);
  png_longjmp(png, 1);
}

void onWarning(png_structp, png_const_charp) {}

void appendBytes(png_structp png, png_bytep data, png_size_t n) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), n);
}

void flushNothing(png_structp) {}

}  // namespace

std::string encodePng(const Image& image, int compression) {
  if (image.width <= 0 || image.height <= 0 || (image.channels != 3 && image.channels != 4))
    throw std::invalid_argument("encodePng: expected a non-empty RGB or RGBA image");
  std::string out;
  std::vector<png_bytep> rows(image.height);
  for (int y = 0; y < image.height; ++y) rows[y] = const_cast<png_bytep>(image.at(0, y));
  ErrorSink sink;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, onError, onWarning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    throw std::runtime_error("encodePng: out of memory");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error(std::string("encodePng: ") + sink.message);
  }
  png_set_write_fn(png, &out, appendBytes, flushNothing);
  png_set_IHDR(png, info, image.width, image.height, 8,
               image.channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // One fixed filter keeps encoding fast and the bytes independent of libpng's adaptive heuristics; "up" suits
  // renders (smooth backgrounds, large flat areas).
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_compression_level(png, compression);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

void writePng(const Image& image, const std::filesystem::path& path, int compression) {
  writeFileAtomically(path, encodePng(image, compression));
}

Image decodePng(const std::string& bytes, const std::string& name) {
  png_image header;
  std::memset(&header, 0, sizeof header);
  header.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&header, bytes.data(), bytes.size()))
    throw InputError(name + ": not a readable PNG (" + header.message + ")");
  const bool alpha = header.format & PNG_FORMAT_FLAG_ALPHA;
  header.format = alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
  Image image(int(header.width), int(header.height), alpha ? 4 : 3);
  if (!png_image_finish_read(&header, nullptr, image.pixels.data(), 0, nullptr)) {
    std::string message = header.message;
    png_image_free(&header);
    throw InputError(name + ": malformed PNG (" + message + ")");
  }
  return image;
}

Image readPng(const std::filesystem::path& path) { return decodePng(readFile(path), path.string()); }

}  // namespace adacloth
