#include "io/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include "io/error.h"

namespace adacloth {

AtomicFile::AtomicFile(fs::path target) : target_(std::move(target)) {
  temp_ = target_;
  temp_ += ".tmp" + std::to_string(::getpid());
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ignored;
    fs::remove(temp_, ignored);
  }
}

void AtomicFile::commit() {
  std::error_code ec;
  fs::rename(temp_, target_, ec);
  if (ec) throw std::runtime_error(target_.string() + ": cannot write (" + ec.message() + ")");
  committed_ = true;
}

void writeFileAtomically(const fs::path& path, const std::string& content) {
  AtomicFile file(path);
  {
    std::ofstream out(file.tempPath(), std::ios::binary);
    out.write(content.data(), std::streamsize(content.size()));
    out.flush();
    if (!out) throw std::runtime_error(path.string() + ": cannot write (" + std::strerror(errno) + ")");
  }
  file.commit();
}

std::string readFile(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path.string() + ": expected a file, found a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string formatDouble(double value) {
  std::string text;
  appendDouble(text, value);
  return text;
}

void appendDouble(std::string& out, double value) {
  char buf[32];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, result.ptr);
}

void appendInteger(std::string& out, long value) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, result.ptr);
}

}  // namespace adacloth
