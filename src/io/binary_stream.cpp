#include "io/binary_stream.h"

#include <cstring>

namespace adacloth {

void BinaryWriter::u32(uint32_t v) {
  for (int k = 0; k < 4; ++k) bytes_.push_back(char((v >> (8 * k)) & 0xff));
}

void BinaryWriter::u64(uint64_t v) {
  for (int k = 0; k < 8; ++k) bytes_.push_back(char((v >> (8 * k)) & 0xff));
}

void BinaryWriter::f64(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  u64(bits);
}

void BinaryWriter::text(const std::string& s) {
  u64(s.size());
  bytes_ += s;
}

void BinaryWriter::ints(const std::vector<int>& v) {
  u64(v.size());
  for (int x : v) i32(x);
}

void BinaryWriter::chars(const std::vector<char>& v) {
  u64(v.size());
  bytes_.append(v.begin(), v.end());
}

void BinaryWriter::doubles(const std::vector<double>& v) {
  u64(v.size());
  for (double x : v) f64(x);
}

void BinaryWriter::vec2s(const std::vector<Vec2>& v) {
  u64(v.size());
  for (const Vec2& x : v) vec2(x);
}

void BinaryWriter::vec3s(const std::vector<Vec3>& v) {
  u64(v.size());
  for (const Vec3& x : v) vec3(x);
}

BinaryReader::BinaryReader(const std::string& bytes, std::string what, size_t offset)
    : bytes_(bytes), what_(std::move(what)), pos_(offset) {
  if (pos_ > bytes_.size()) fail("the data is shorter than its header");
}

void BinaryReader::fail(const std::string& message) const {
  throw BinaryFormatError(what_ + ": " + message + " (at byte " + std::to_string(pos_) + ")");
}

const unsigned char* BinaryReader::take(size_t n, const char* field) {
  if (n > left()) fail(std::string("truncated while reading ") + field);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data() + pos_);
  pos_ += n;
  return p;
}

uint8_t BinaryReader::u8(const char* field) { return *take(1, field); }

uint32_t BinaryReader::u32(const char* field) {
  const unsigned char* p = take(4, field);
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

uint64_t BinaryReader::u64(const char* field) {
  const unsigned char* p = take(8, field);
  uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

double BinaryReader::f64(const char* field) {
  const uint64_t bits = u64(field);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

Vec2 BinaryReader::vec2(const char* field) {
  const double x = f64(field);
  return Vec2(x, f64(field));
}

Vec3 BinaryReader::vec3(const char* field) {
  const double x = f64(field), y = f64(field);
  return Vec3(x, y, f64(field));
}

size_t BinaryReader::count(const char* field, size_t elementBytes) {
  const uint64_t n = u64(field);
  if (elementBytes > 0 && n > left() / elementBytes)
    fail(std::string(field) + ": " + std::to_string(n) + " elements do not fit in the " + std::to_string(left()) +
         " bytes left");
  return size_t(n);
}

std::string BinaryReader::text(const char* field) {
  const size_t n = count(field, 1);
  return raw(n, field);
}

std::string BinaryReader::raw(size_t n, const char* field) {
  const unsigned char* p = take(n, field);
  return std::string(reinterpret_cast<const char*>(p), n);
}

std::vector<int> BinaryReader::ints(const char* field) {
  std::vector<int> v(count(field, 4));
  for (int& x : v) x = i32(field);
  return v;
}

std::vector<char> BinaryReader::chars(const char* field) {
  const size_t n = count(field, 1);
  const unsigned char* p = take(n, field);
  return std::vector<char>(p, p + n);
}

std::vector<double> BinaryReader::doubles(const char* field) {
  std::vector<double> v(count(field, 8));
  for (double& x : v) x = f64(field);
  return v;
}

std::vector<Vec2> BinaryReader::vec2s(const char* field) {
  std::vector<Vec2> v(count(field, 16));
  for (Vec2& x : v) x = vec2(field);
  return v;
}

std::vector<Vec3> BinaryReader::vec3s(const char* field) {
  std::vector<Vec3> v(count(field, 24));
  for (Vec3& x : v) x = vec3(field);
  return v;
}

uint64_t fnv1a64(const std::string& bytes, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace adacloth
