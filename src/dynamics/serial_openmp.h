#pragma once
// Runs the OpenMP parallel regions of a library call (CHOLMOD's) on the calling thread while a SerialOpenMP is alive,
// and any region that would get a team of one thread anyway (at --threads 1) likewise.
//
// Why: Debian's CHOLMOD opens a parallel region for every supernode it clears or copies and for many descendant
// updates, ~2,000 per factorization of a 1k-node sheet, each asking for a fixed 4 threads. On a 2-core machine a
// team of 4 costs more than the few hundred bytes of work in it; with the regions made inactive (a team of one)
// libgomp still ends each one with a futex wake-up system call, which was half of the direct step at 1k nodes
// (docs/benchmarks.md, "The direct solve without libgomp's regions"). The guard makes adacloth's definition of
// GOMP_parallel (the entry point GCC-built code calls for `#pragma omp parallel`) run the region's body directly,
// which is what a team of one thread does. Outside a SerialOpenMP, a region outside every other region that asks for
// one thread, or for the default when that is one, is run the same way (at --threads 1 adacloth's own regions paid
// the same system call, ~1,800 a frame on skirt_walk). Every other region, and any region inside an enclosing one
// (where the body's work-sharing would split by the outer team), goes on to the OpenMP runtime unchanged.
namespace adacloth {

class SerialOpenMP {
 public:
  SerialOpenMP();
  ~SerialOpenMP();
  SerialOpenMP(const SerialOpenMP&) = delete;
  SerialOpenMP& operator=(const SerialOpenMP&) = delete;

 private:
  bool active_;  // false when constructed inside a parallel region, active or not: regions go to the runtime
};

// Parallel regions this thread has run directly (under a SerialOpenMP or as a team of one) since the program started;
// for tests.
long parallelRegionsRunDirectly();

}  // namespace adacloth
