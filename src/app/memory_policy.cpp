#include "app/memory_policy.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace adacloth {

bool keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
  constexpr int kMmapThreshold = 32 << 20;  // bytes: glibc's upper limit on 64-bit systems
  constexpr int kTrimThreshold = 1 << 30;   // bytes
  // Either setting turns off glibc's own adjustment of both thresholds, so both are set.
  const bool mmapSet = mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1;
  const bool trimSet = mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
  return mmapSet && trimSet;
#else
  return false;
#endif
}

}  // namespace adacloth
