// libFuzzer target: a shot file (config/shot.h), through its schema and resolution into a typed Shot. The input is
// read as if it were conf/fuzz.json of this checkout, so the relative paths of the seed shots (meshes, materials,
// cameras) resolve as they do for the real ones. Any input must either give a Shot or be refused with an InputError;
// anything else is a bug. tools/fuzz.sh runs it with conf/*.json as seeds.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "config/shot.h"
#include "io/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::filesystem::path file = std::filesystem::path(ADACLOTH_SOURCE_DIR) / "conf" / "fuzz.json";
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    adacloth::parseShot(text, file);
  } catch (const adacloth::InputError&) {
  }
  return 0;
}
