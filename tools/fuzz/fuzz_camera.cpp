// libFuzzer target: a camera path file (config/camera_file.h), through its schema and the checks beyond it. Any input
// must either give a CameraPath or be refused with an InputError; anything else is a bug. tools/fuzz.sh runs it with
// cameras/*.json as seeds.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "config/camera_file.h"
#include "io/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path file = std::filesystem::path(ADACLOTH_SOURCE_DIR) / "cameras" / "fuzz.json";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    adacloth::parseCameraPath(text, file);
  } catch (const adacloth::InputError&) {
  }
  return 0;
}
