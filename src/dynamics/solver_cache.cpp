#include "dynamics/solver_cache.h"

#include "dynamics/direct_solve.h"
#include "dynamics/multigrid.h"

namespace adacloth {

namespace {

void remapValues(std::vector<Vec3>& values, std::vector<char>& known, const std::vector<int>& nodeMap,
                 size_t newNodes) {
  std::vector<Vec3> mapped(newNodes, Vec3::Zero());
  std::vector<char> mappedKnown(newNodes, 0);
  if (values.size() == nodeMap.size() && known.size() == nodeMap.size())
    for (size_t k = 0; k < nodeMap.size(); ++k)
      if (nodeMap[k] >= 0 && size_t(nodeMap[k]) < newNodes && known[k]) {
        mapped[nodeMap[k]] = values[k];
        mappedKnown[nodeMap[k]] = 1;
      }
  values = std::move(mapped);
  known = std::move(mappedKnown);
}

}  // namespace

void SolverCache::remap(const std::vector<int>& nodeMap, size_t newNodes) {
  remapValues(lastDv, lastDvKnown, nodeMap, newNodes);
  remapValues(prevDv, prevDvKnown, nodeMap, newNodes);
}

void SolverCache::clear() {
  lastDv.clear();
  lastDvKnown.clear();
  prevDv.clear();
  prevDvKnown.clear();
  direct.reset();
  multigrid.reset();
  multigridBaseIterations = -1;
  multigridStale = false;
  pcg = PcgWorkspace();
  autoChoice = AutoSolverChoice();
}

}  // namespace adacloth
