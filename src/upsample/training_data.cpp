#include "upsample/training_data.h"

#include <cmath>
#include <cstring>

#include "io/atomic_file.h"
#include "io/error.h"
#include "io/obj.h"

namespace adacloth {
namespace {

constexpr char kMagic[8] = {'A', 'D', 'C', 'T', 'R', 'A', 'C', 'K'};
constexpr uint32_t kVersion = 1;

template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

void putRows(std::string& out, const Eigen::MatrixX3d& rows) {
  for (Eigen::Index i = 0; i < rows.rows(); ++i)
    for (int k = 0; k < 3; ++k) put(out, float(rows(i, k)));
}

struct Cursor {
  const std::string& bytes;
  std::string file;
  size_t pos = 0;
  template <class T>
  T get() {
    if (sizeof(T) > bytes.size() - pos) throw InputError(file + ": truncated at byte " + std::to_string(pos));
    T value;
    std::memcpy(&value, bytes.data() + pos, sizeof(T));
    pos += sizeof(T);
    return value;
  }
  Eigen::MatrixX3d rows(uint64_t count) {
    Eigen::MatrixX3d m(count, 3);
    for (uint64_t i = 0; i < count; ++i)
      for (int k = 0; k < 3; ++k) {
        m(i, k) = get<float>();
        if (!std::isfinite(m(i, k))) throw InputError(file + ": non-finite position at byte " + std::to_string(pos));
      }
    return m;
  }
};

}  // namespace

bool frameWithin(const Eigen::MatrixX3d& predicted, const Eigen::MatrixX3d& fine, double maxResidual) {
  return maxResidual <= 0 || (predicted - fine).rowwise().norm().maxCoeff() <= maxResidual;
}

std::vector<char> framesWithin(const TrackedData& d, const SparseMatrixD& B, double maxResidual) {
  std::vector<char> keep(d.frames.coarse.size(), 1);
  if (maxResidual <= 0) return keep;
  for (size_t f = 0; f < keep.size(); ++f)
    keep[f] = frameWithin(B * d.frames.coarse[f], d.frames.fine[f], maxResidual);
  return keep;
}

TrainingSequence keptFrames(const TrainingSequence& seq, const std::vector<char>& keep) {
  TrainingSequence out;
  for (size_t f = 0; f < seq.coarse.size(); ++f)
    if (keep[f]) out.coarse.push_back(seq.coarse[f]), out.fine.push_back(seq.fine[f]), out.time.push_back(seq.time[f]);
  return out;
}

void writeTrackedData(const TrackedData& data, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  writeObj(data.coarse, dir / "coarse.obj");
  const TrainingSequence& seq = data.frames;
  std::string out(kMagic, 8);
  put(out, kVersion);
  put(out, uint32_t(data.levels));
  put(out, uint64_t(data.coarse.nodes.size()));
  put(out, uint64_t(seq.fine.empty() ? 0 : seq.fine[0].rows()));
  put(out, uint64_t(seq.coarse.size()));
  for (size_t f = 0; f < seq.coarse.size(); ++f) {
    put(out, seq.time[f]);
    putRows(out, seq.coarse[f]);
    putRows(out, seq.fine[f]);
  }
  writeFileAtomically(dir / "frames.bin", out);
}

TrackedData readTrackedData(const std::filesystem::path& dir) {
  TrackedData data;
  if (!std::filesystem::is_directory(dir))
    throw InputError(dir.string() + ": not a training folder (expected coarse.obj and frames.bin)");
  data.coarse = readObj(dir / "coarse.obj");
  const std::string file = (dir / "frames.bin").string();
  const std::string bytes = readFile(file);
  Cursor c{bytes, file};
  char magic[8];
  for (char& ch : magic) ch = c.get<char>();
  if (std::memcmp(magic, kMagic, 8) != 0) throw InputError(file + ": bad magic (not a tracked training sequence)");
  if (const uint32_t v = c.get<uint32_t>(); v != kVersion)
    throw InputError(file + ": unsupported version " + std::to_string(v));
  data.levels = int(c.get<uint32_t>());
  const uint64_t M = c.get<uint64_t>(), N = c.get<uint64_t>(), F = c.get<uint64_t>();
  if (M != data.coarse.nodes.size())
    throw InputError(file + ": " + std::to_string(M) + " coarse nodes, but coarse.obj has " +
                     std::to_string(data.coarse.nodes.size()));
  if (data.levels < 0 || data.levels > 6) throw InputError(file + ": implausible subdivision levels");
  if (bytes.size() != c.pos + F * (8 + 12 * (M + N)))
    throw InputError(file + ": size does not match " + std::to_string(F) + " frames of " + std::to_string(M) + " + " +
                     std::to_string(N) + " nodes (truncated?)");
  for (uint64_t f = 0; f < F; ++f) {
    data.frames.time.push_back(c.get<double>());
    data.frames.coarse.push_back(c.rows(M));
    data.frames.fine.push_back(c.rows(N));
  }
  return data;
}

}  // namespace adacloth
