#pragma once
// The two kinds of failure a user sees. Their messages are one line that names the file and the place.
#include <stdexcept>
#include <string>

namespace adacloth {

// Bad input: malformed or invalid shot, mesh or camera. The CLI exits with code 2 and leaves no output behind.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The simulation itself failed (NaN, runaway velocity). The CLI exits with code 3 and keeps the frames written.
struct SimulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace adacloth
