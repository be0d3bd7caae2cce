// libFuzzer target: the cloth OBJ reader (io/obj.h). Any input must either parse into a mesh or be refused with an
// InputError; anything else (a crash, a sanitizer report, another exception) is a bug. tools/fuzz.sh runs it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/error.h"
#include "io/obj.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    adacloth::parseObj(text, "fuzz.obj");
  } catch (const adacloth::InputError&) {
  }
  return 0;
}
