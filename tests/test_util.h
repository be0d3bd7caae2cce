#pragma once
// Helpers shared by tests: temporary folders and running the adacloth executable.
#include <filesystem>
#include <string>

namespace adacloth::test {

namespace fs = std::filesystem;

// A fresh empty folder under the system temp dir, removed when the object goes out of scope.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

struct RunResult {
  int exitCode;
  std::string output;  // stdout and stderr together
};

// Runs the adacloth executable with the given argument string (shell-quoted by the caller).
RunResult runAdacloth(const std::string& args);

// Writes a text file (creating folders).
void writeText(const fs::path& file, const std::string& text);

// The repository root.
fs::path sourceDir();

// The InputError message of parsing `shotText` as the shot "conf/s.json", or "" when it parses.
std::string shotErrorOf(const std::string& shotText);

}  // namespace adacloth::test
