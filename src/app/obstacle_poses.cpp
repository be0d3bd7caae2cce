#include "app/obstacle_poses.h"

#include <stdexcept>

namespace adacloth {

const std::vector<ObstaclePose>& ObstaclePoses::at(const std::vector<Obstacle>& obstacles, double t) {
  if (obstacles_ && obstacles_ != &obstacles)
    throw std::logic_error("ObstaclePoses::at: poses of another obstacle list (one cache per scene)");
  obstacles_ = &obstacles;
  ++uses_;
  for (Entry& e : entries_)
    if (e.lastUse > 0 && e.time == t) {
      e.lastUse = uses_;
      return e.poses;
    }
  Entry& slot = entries_[0].lastUse <= entries_[1].lastUse ? entries_[0] : entries_[1];  // the least recently used
  slot.time = t;
  slot.poses = posesAt(obstacles, t);
  slot.lastUse = uses_;
  return slot.poses;
}

}  // namespace adacloth
