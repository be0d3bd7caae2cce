#include "collision/sequence_files.h"

#include <algorithm>

#include "collision/obstacle.h"

namespace adacloth {

std::shared_ptr<const SequenceFile> SequenceFiles::get(const std::string& file) {
  std::lock_guard<std::mutex> guard(lock_);
  ++clock_;
  for (Entry& e : entries_)
    if (e.file == file) {
      e.lastUse = clock_;
      return e.data;
    }
  auto data = std::make_shared<SequenceFile>();
  readObstacleObj(file, data->x, data->faces);
  ++reads_;
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) { return a.lastUse < b.lastUse; });
    entries_.erase(oldest);
  }
  entries_.push_back({file, data, clock_});
  return data;
}

int SequenceFiles::reads() const {
  std::lock_guard<std::mutex> guard(lock_);
  return reads_;
}

}  // namespace adacloth
