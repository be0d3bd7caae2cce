// Versioned binary file of an UpsampleOperator. Layout (all little-endian, no padding):
//   magic[8] "ADCUPSMP", u32 version, u32 flags (0),
//   u64 M (coarse nodes), u64 N (fine nodes), u64 V (fine verts), u64 F (fine faces), u64 R (modes),
//   f64[M][2] coarse points, f64[V][2] fine uv, i32[V] fine vert node, i32[F][3] fine faces, f64[N][2] fine points,
//   f32[N][M] U (row-major), R x { f64 omega, f32[N] sin amplitudes, f32[N] cos amplitudes },
//   u64 FNV-1a hash of every byte before it.
// The exact size follows from the counts, so truncation and trailing garbage are both caught before the hash.
#include <cmath>
#include <cstring>

#include "io/atomic_file.h"
#include "io/error.h"
#include "upsample/operator_file.h"
#include "upsample/upsample_operator.h"

namespace adacloth {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "operator files are little-endian");

uint64_t fnv1a(const char* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

class Writer {
 public:
  template <class T>
  void put(const T& value) { putBytes(&value, sizeof(T)); }
  void putBytes(const void* p, size_t n) { bytes_.append(static_cast<const char*>(p), n); }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

// Reads the file front to back; any read past the end is an InputError naming the file.
class Reader {
 public:
  Reader(const std::string& bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}
  template <class T>
  T get() {
    T value;
    getBytes(&value, sizeof(T));
    return value;
  }
  void getBytes(void* p, size_t n) {
    if (n > bytes_.size() - pos_) fail("truncated (needs more bytes at offset " + std::to_string(pos_) + ")");
    std::memcpy(p, bytes_.data() + pos_, n);
    pos_ += n;
  }
  size_t pos() const { return pos_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_ + ": not a valid upsampling operator: " + what);
  }

 private:
  const std::string& bytes_;
  std::string file_;
  size_t pos_ = 0;
};

void putPoints(Writer& w, const std::vector<Vec2>& points) {
  for (const Vec2& p : points) {
    w.put(p.x());
    w.put(p.y());
  }
}

std::vector<Vec2> getPoints(Reader& r, size_t count, const char* what) {
  std::vector<Vec2> points(count);
  for (Vec2& p : points) {
    p.x() = r.get<double>();
    p.y() = r.get<double>();
    if (!p.allFinite()) r.fail(std::string(what) + " has a non-finite coordinate");
  }
  return points;
}

void putFloats(Writer& w, const float* data, size_t count) { w.putBytes(data, count * sizeof(float)); }

void getFloats(Reader& r, float* data, size_t count, const std::string& what) {
  r.getBytes(data, count * sizeof(float));
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(data[i])) r.fail(what + " has a non-finite value at index " + std::to_string(i));
}

// Bytes the payload must have for these counts (before the hash); overflow-safe for counts below 2^32.
uint64_t expectedSize(uint64_t M, uint64_t N, uint64_t V, uint64_t F, uint64_t R) {
  return 8 + 4 + 4 + 5 * 8 + M * 16 + V * 16 + V * 4 + F * 12 + N * 16 + N * M * 4 + R * (8 + N * 8);
}

}  // namespace

void saveUpsampleOperator(const UpsampleOperator& op, const std::string& file) {
  const uint64_t M = op.coarseCount(), N = op.fineCount();
  if (uint64_t(op.U.rows()) != N || uint64_t(op.U.cols()) != M || op.fineVertNode.size() != op.fineUv.size())
    throw std::invalid_argument("saveUpsampleOperator: inconsistent operator sizes");
  Writer w;
  w.putBytes(kUpsampleMagic, 8);
  w.put(kUpsampleVersion);
  w.put(uint32_t(0));
  for (uint64_t n : {M, N, uint64_t(op.fineUv.size()), uint64_t(op.fineFaces.size()), uint64_t(op.modes.size())})
    w.put(n);
  putPoints(w, op.coarsePoints);
  putPoints(w, op.fineUv);
  for (int node : op.fineVertNode) w.put(int32_t(node));
  for (const auto& f : op.fineFaces)
    for (int v : f) w.put(int32_t(v));
  putPoints(w, op.finePoints);
  const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = op.U;
  putFloats(w, rows.data(), size_t(rows.size()));
  for (const OscillatoryMode& m : op.modes) {
    if (uint64_t(m.sinAmp.size()) != N || uint64_t(m.cosAmp.size()) != N)
      throw std::invalid_argument("saveUpsampleOperator: mode amplitudes do not match the fine node count");
    w.put(m.omega);
    putFloats(w, m.sinAmp.data(), N);
    putFloats(w, m.cosAmp.data(), N);
  }
  w.put(fnv1a(w.bytes().data(), w.bytes().size()));
  writeFileAtomically(file, w.bytes());
}

UpsampleOperator loadUpsampleOperator(const std::string& file) {
  const std::string bytes = readFile(file);
  Reader r(bytes, file);
  char magic[8];
  r.getBytes(magic, 8);
  if (std::memcmp(magic, kUpsampleMagic, 8) != 0) r.fail("bad magic (expected an adacloth operator file)");
  const uint32_t version = r.get<uint32_t>();
  if (version != kUpsampleVersion)
    r.fail("unsupported version " + std::to_string(version) + " (this build reads version " +
           std::to_string(kUpsampleVersion) + ")");
  r.get<uint32_t>();  // flags, reserved
  uint64_t n[5];
  for (uint64_t& c : n) c = r.get<uint64_t>();
  const uint64_t M = n[0], N = n[1], V = n[2], F = n[3], R = n[4];
  for (uint64_t c : n)
    if (c >= (uint64_t(1) << 31)) r.fail("implausible count " + std::to_string(c));
  if (M == 0 || N == 0) r.fail("empty coarse or fine mesh");
  const uint64_t size = expectedSize(M, N, V, F, R) + 8;
  if (bytes.size() < size) r.fail("truncated (" + std::to_string(bytes.size()) + " bytes, expected " +
                                  std::to_string(size) + ")");
  if (bytes.size() > size) r.fail("trailing bytes after the operator");
  uint64_t stored = 0;  // memcpy: the checksum's offset need not be 8-byte aligned
  std::memcpy(&stored, bytes.data() + size - 8, sizeof stored);
  if (fnv1a(bytes.data(), size - 8) != stored)
    r.fail("checksum mismatch (the file is corrupt)");
  UpsampleOperator op;
  op.coarsePoints = getPoints(r, M, "coarse points");
  op.fineUv = getPoints(r, V, "fine uv");
  op.fineVertNode.resize(V);
  for (int& node : op.fineVertNode) {
    node = r.get<int32_t>();
    if (node < 0 || uint64_t(node) >= N) r.fail("fine vert node " + std::to_string(node) + " out of range");
  }
  op.fineFaces.resize(F);
  for (auto& f : op.fineFaces)
    for (int& v : f) {
      v = r.get<int32_t>();
      if (v < 0 || uint64_t(v) >= V) r.fail("fine face vert " + std::to_string(v) + " out of range");
    }
  op.finePoints = getPoints(r, N, "fine points");
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows(N, M);
  getFloats(r, rows.data(), N * M, "U");
  op.U = rows;
  op.modes.resize(R);
  for (OscillatoryMode& m : op.modes) {
    m.omega = r.get<double>();
    if (!std::isfinite(m.omega)) r.fail("a mode frequency is not finite");
    m.sinAmp.resize(N);
    m.cosAmp.resize(N);
    getFloats(r, m.sinAmp.data(), N, "mode amplitudes");
    getFloats(r, m.cosAmp.data(), N, "mode amplitudes");
  }
  return op;
}

}  // namespace adacloth
