#pragma once
// Files are written under a temporary name in the same folder and renamed into place, so that a crash or a
// failed write never leaves a half-written file under the final name.
#include <filesystem>
#include <string>

namespace adacloth {

namespace fs = std::filesystem;

class AtomicFile {
 public:
  explicit AtomicFile(fs::path target);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const fs::path& tempPath() const { return temp_; }
  // Renames the temporary file to the target. Throws std::runtime_error on failure.
  void commit();

 private:
  fs::path target_, temp_;
  bool committed_ = false;
};

// Writes `content` to `path` atomically. Throws std::runtime_error naming the path on failure.
void writeFileAtomically(const fs::path& path, const std::string& content);

// Reads a whole file. Throws InputError "<path>: cannot read (<reason>)" when it cannot.
std::string readFile(const fs::path& path);

// Shortest text that reads back as exactly the same double (std::to_chars): deterministic and round-trip exact.
std::string formatDouble(double value);
// formatDouble(value) and the decimal integer appended to `out`, without a string for each number: the OBJ files
// written every frame hold tens of thousands of them (a body's file was 3 % of cape_run's frame).
void appendDouble(std::string& out, double value);
void appendInteger(std::string& out, long value);

}  // namespace adacloth
