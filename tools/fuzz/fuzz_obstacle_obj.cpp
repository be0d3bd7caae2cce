// libFuzzer target: the obstacle OBJ reader (collision/obstacle.h). Any input must either parse or be refused with an
// InputError; anything else is a bug. tools/fuzz.sh runs it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collision/obstacle.h"
#include "io/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<adacloth::Vec3> x;
  std::vector<adacloth::Tri> faces;
  try {
    adacloth::parseObstacleObj(text, "fuzz.obj", x, faces);
  } catch (const adacloth::InputError&) {
  }
  return 0;
}
