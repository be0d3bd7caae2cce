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
  std::vector<Tri> faces;
  readObstacleObj(file, data->x, faces);
  data->faces = sharedFaceList(std::move(faces));
  ++reads_;
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) { return a.lastUse < b.lastUse; });
    entries_.erase(oldest);
  }
  entries_.push_back({file, data, clock_});
  return data;
}

std::shared_ptr<const std::vector<Tri>> SequenceFiles::sharedFaceList(std::vector<Tri> faces) {
  faceLists_.erase(std::remove_if(faceLists_.begin(), faceLists_.end(), [](const auto& w) { return w.expired(); }),
                   faceLists_.end());
  // A list can expire between the sweep and lock(): its last holder (a caller's file) is released without the lock.
  for (const auto& weak : faceLists_)
    if (auto list = weak.lock(); list && *list == faces) return list;
  auto list = std::make_shared<const std::vector<Tri>>(std::move(faces));
  faceLists_.push_back(list);
  return list;
}

int SequenceFiles::reads() const {
  std::lock_guard<std::mutex> guard(lock_);
  return reads_;
}

}  // namespace adacloth
