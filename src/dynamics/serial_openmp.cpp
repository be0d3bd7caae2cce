#include "dynamics/serial_openmp.h"

#include <dlfcn.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>

namespace adacloth {
namespace {

thread_local int tSerialDepth = 0;
thread_local long tRegionsDirect = 0;

using GompParallelFn = void (*)(void (*)(void*), void*, unsigned, unsigned);

// The runtime's own GOMP_parallel: the next definition after this program's in the lookup order (libgomp, or an
// OpenMP runtime that provides GCC's entry points).
GompParallelFn runtimeGompParallel() {
  static const GompParallelFn fn = [] {
    void* sym = dlvsym(RTLD_NEXT, "GOMP_parallel", "GOMP_4.0");
    if (!sym) sym = dlsym(RTLD_NEXT, "GOMP_parallel");
    if (!sym) {
      std::fprintf(stderr, "adacloth: the OpenMP runtime has no GOMP_parallel (%s)\n", dlerror());
      std::abort();
    }
    return reinterpret_cast<GompParallelFn>(sym);
  }();
  return fn;
}

// True when a region entered here would get a team of one thread anyway: under a SerialOpenMP, or outside any other
// region with one thread asked for (GCC passes 1 for a false `if` clause) or none asked for and one the default.
bool teamOfOne(unsigned numThreads) {
  if (tSerialDepth > 0) return true;
  return omp_get_level() == 0 && (numThreads == 1 || (numThreads == 0 && omp_get_max_threads() == 1));
}

}  // namespace

SerialOpenMP::SerialOpenMP() : active_(omp_get_level() == 0) {
  if (active_) ++tSerialDepth;
}

SerialOpenMP::~SerialOpenMP() {
  if (active_) --tSerialDepth;
}

long parallelRegionsRunDirectly() { return tRegionsDirect; }

}  // namespace adacloth

// GCC's entry point for `#pragma omp parallel` (libgomp ABI, GOMP_4.0; stable since GCC 4.9). Defined in the program,
// it takes precedence over libgomp's for every caller, shared libraries included. A region that would have a team of
// one thread (under a SerialOpenMP, or at one thread) runs here, as that thread would run it: thread 0 of 1, and
// libgomp's work-sharing and barrier calls inside it take their no-team path. Same arithmetic, same bytes, without
// libgomp's team set-up and its closing futex wake-up (serial_openmp.h). Any other region goes on to the runtime.
extern "C" void GOMP_parallel(void (*fn)(void*), void* data, unsigned numThreads, unsigned flags) {
  if (adacloth::teamOfOne(numThreads)) {
    ++adacloth::tRegionsDirect;
    fn(data);
    return;
  }
  adacloth::runtimeGompParallel()(fn, data, numThreads, flags);
}
