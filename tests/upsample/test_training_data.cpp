#include <catch2/catch.hpp>

#include "mesh/generators.h"
#include "upsample/mesh_pair.h"
#include "upsample/training_data.h"

using namespace adacloth;

TEST_CASE("training frames with a fine node thrown far off are left out, the others kept in order", "[upsample]") {
  const MeshPair pair = makeMeshPair(makeGrid(1.0, 0.5, 4, 2), 1);
  TrackedData d;
  d.coarse = pair.coarse;
  d.levels = 1;
  for (int f = 0; f < 4; ++f) {
    const Eigen::MatrixX3d coarse = nodePositions(pair.coarse);
    Eigen::MatrixX3d fine = pair.sub.midpoint * coarse;
    fine(7, 2) += f == 2 ? 0.25 : 0.01 * f;  // frame 2: one node 25 cm off (a glitch); the others: detail
    d.frames.coarse.push_back(coarse);
    d.frames.fine.push_back(fine);
    d.frames.time.push_back(f / 24.0);
  }
  CHECK(framesWithin(d, pair.sub.midpoint, 0.1) == std::vector<char>{1, 1, 0, 1});
  CHECK(framesWithin(d, pair.sub.midpoint, 0.3) == std::vector<char>{1, 1, 1, 1});
  CHECK(framesWithin(d, pair.sub.midpoint, 0.0) == std::vector<char>{1, 1, 1, 1});  // 0: keep all
  const TrainingSequence kept = keptFrames(d.frames, framesWithin(d, pair.sub.midpoint, 0.1));
  CHECK(kept.time == std::vector<double>{0.0, 1 / 24.0, 3 / 24.0});
  CHECK(kept.fine[2] == d.frames.fine[3]);
}
