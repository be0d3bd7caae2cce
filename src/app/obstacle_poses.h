#pragma once
// A cache of obstacle poses for the frame loop.
#include <array>
#include <vector>

#include "collision/obstacle.h"

namespace adacloth {

// The obstacles' poses at the two times last asked for. Within a frame the end of one step is the start of the next,
// and the frame's end time is asked for again by sizing, measurement and output; a pose is computed once per time.
// The times must match exactly (the same double) to share a pose, so the results cannot depend on the cache.
class ObstaclePoses {
 public:
  // The poses of `obstacles` (always the same vector: the scene's) at time t (s). The reference stays valid until
  // a third distinct time is asked for.
  const std::vector<ObstaclePose>& at(const std::vector<Obstacle>& obstacles, double t);

 private:
  struct Entry {
    double time = 0;
    std::vector<ObstaclePose> poses;
    long lastUse = 0;  // 0: empty
  };
  std::array<Entry, 2> entries_;
  long uses_ = 0;
  const std::vector<Obstacle>* obstacles_ = nullptr;  // the vector the poses are of
};

}  // namespace adacloth
