#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>

#include "config/shot.h"
#include "io/error.h"

namespace adacloth::test {

TempDir::TempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() /
          ("adacloth-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

RunResult runAdacloth(const std::string& args) {
  std::string command = std::string("'") + ADACLOTH_EXE + "' " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  RunResult result{-1, ""};
  if (!pipe) return result;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) result.output.append(buf, n);
  int status = ::pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

void writeText(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

fs::path sourceDir() { return ADACLOTH_SOURCE_DIR; }

std::string shotErrorOf(const std::string& shotText) {
  try {
    parseShot(shotText, "conf/s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace adacloth::test
