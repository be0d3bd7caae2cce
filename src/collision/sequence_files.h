#pragma once
// The parsed files of obstacle sequences (OBJ per frame, docs/design.md §6), shared by the obstacles of a scene and
// by the copies of them that bound handles keep. A crowd plays one walk cycle on five characters, each with a bound
// garment: every file used to be parsed ten times (a few percent of the frame). Keeps the most recently used files.
// Safe to call from several threads.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

struct SequenceFile {
  std::vector<Vec3> x;  // vertices as written in the file (m, before the obstacle's transform)
  // One list for all the files in use with the same faces (every file of a sequence has them), so that an obstacle
  // checks a file against its sequence by pointer: comparing every face cost as much as interpolating the positions.
  std::shared_ptr<const std::vector<Tri>> faces;
};

class SequenceFiles {
 public:
  // `capacity`: files kept (a sequence needs the two around the current time, and a step asks for its start and end).
  explicit SequenceFiles(size_t capacity = 16) : capacity_(capacity) {}
  // The file's contents, read on first use (readObstacleObj: an InputError when missing or malformed).
  std::shared_ptr<const SequenceFile> get(const std::string& file);
  // Reads so far (for tests).
  int reads() const;

 private:
  struct Entry {
    std::string file;
    std::shared_ptr<const SequenceFile> data;
    uint64_t lastUse = 0;
  };
  // The live face list equal to `faces`, or a new one (called with the lock held).
  std::shared_ptr<const std::vector<Tri>> sharedFaceList(std::vector<Tri> faces);
  size_t capacity_;
  mutable std::mutex lock_;
  std::vector<Entry> entries_;
  std::vector<std::weak_ptr<const std::vector<Tri>>> faceLists_;  // the face lists in use, each once
  uint64_t clock_ = 0;
  int reads_ = 0;
};

}  // namespace adacloth
