#pragma once
// A little-endian binary encoding for state files (checkpoints): fixed-width integers, doubles bit for bit (so a
// value read back is exactly the value written), and length-prefixed arrays. The reader checks every length against
// the bytes that are left and throws BinaryFormatError at the first thing that does not fit, so a truncated or
// corrupt file can never make it read out of bounds or allocate more than the file could hold.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// A malformed binary file; the message says what was being read and at which byte offset.
struct BinaryFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class BinaryWriter {
 public:
  void u8(uint8_t v) { bytes_.push_back(char(v)); }
  void u32(uint32_t v);
  void u64(uint64_t v);
  void i32(int32_t v) { u32(uint32_t(v)); }
  void f64(double v);
  void vec2(const Vec2& v) { f64(v.x()), f64(v.y()); }
  void vec3(const Vec3& v) { f64(v.x()), f64(v.y()), f64(v.z()); }
  void text(const std::string& s);
  void raw(const std::string& s) { bytes_ += s; }
  // Arrays: the element count (u64), then each element.
  void ints(const std::vector<int>& v);
  void chars(const std::vector<char>& v);
  void doubles(const std::vector<double>& v);
  void vec2s(const std::vector<Vec2>& v);
  void vec3s(const std::vector<Vec3>& v);

  const std::string& bytes() const { return bytes_; }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class BinaryReader {
 public:
  // Reads from `bytes` (not copied: it must outlive the reader). `what` names the source in error messages.
  BinaryReader(const std::string& bytes, std::string what, size_t offset = 0);

  uint8_t u8(const char* field);
  uint32_t u32(const char* field);
  uint64_t u64(const char* field);
  int32_t i32(const char* field) { return int32_t(u32(field)); }
  double f64(const char* field);
  Vec2 vec2(const char* field);
  Vec3 vec3(const char* field);
  std::string text(const char* field);
  std::string raw(size_t n, const char* field);
  std::vector<int> ints(const char* field);
  std::vector<char> chars(const char* field);
  std::vector<double> doubles(const char* field);
  std::vector<Vec2> vec2s(const char* field);
  std::vector<Vec3> vec3s(const char* field);
  // An element count that must fit the bytes left at `elementBytes` each (so nothing is allocated beyond the file).
  size_t count(const char* field, size_t elementBytes);

  size_t offset() const { return pos_; }
  size_t left() const { return bytes_.size() - pos_; }
  bool atEnd() const { return pos_ == bytes_.size(); }
  // Throws BinaryFormatError "<what>: <message> (at byte N)".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const unsigned char* take(size_t n, const char* field);
  const std::string& bytes_;
  std::string what_;
  size_t pos_ = 0;
};

// 64-bit FNV-1a hash of `bytes` (a checksum against corruption, not a cryptographic hash).
uint64_t fnv1a64(const std::string& bytes, uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace adacloth
