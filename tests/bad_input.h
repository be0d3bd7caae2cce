#pragma once
// The CLI's bad-input contract, checked on a finished run: exit code 2, one line of output that contains `message`,
// nothing written at `out`.
#include <algorithm>
#include <catch2/catch.hpp>

#include "test_util.h"

namespace adacloth::test {

inline void requireBadInput(const RunResult& r, const std::string& message, const fs::path& out) {
  INFO(r.output);
  CHECK(r.exitCode == 2);
  CHECK_THAT(r.output, Catch::Contains(message));
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(out));
}

}  // namespace adacloth::test
