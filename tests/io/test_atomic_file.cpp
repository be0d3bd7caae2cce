// Numbers as the written files spell them (io/atomic_file.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "io/atomic_file.h"

using namespace adacloth;

TEST_CASE("numbers appended to text read back exactly, and spell as formatDouble and std::to_string do", "[io]") {
  const double values[] = {0.0, -0.0, 1.0, -2.5, 0.1, 1.0 / 3, -1e-300, 6.02214076e23,
                           std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(),
                           std::nextafter(1.0, 2.0)};
  std::string text = "v";
  std::string expected = "v";
  for (double value : values) {
    text += ' ';
    appendDouble(text, value);
    expected += ' ' + formatDouble(value);
  }
  CHECK(text == expected);
  // strtod, not stod: stod refuses the subnormal.
  const char* at = text.c_str() + 1;
  for (double value : values) {
    char* end = nullptr;
    const double back = std::strtod(at, &end);
    CHECK(back == value);
    CHECK(std::signbit(back) == std::signbit(value));
    at = end;
  }
  CHECK(*at == '\0');
  for (long value : {0L, 1L, -7L, 123456789L, std::numeric_limits<long>::min(), std::numeric_limits<long>::max()}) {
    std::string line = "f ";
    appendInteger(line, value);
    CHECK(line == "f " + std::to_string(value));
  }
}
