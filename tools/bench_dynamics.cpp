// Benchmark of the dynamics step (issue 3). Prints three tables:
//  1. time per Kang-Cho step (1 iteration) against node count, 1k to 200k nodes, and time per node;
//  2. the one-iteration step against a step solved by conjugate gradient (tolerance 1e-8) at 10k and 100k nodes;
//  3. the one-iteration step at 1 and 2 threads.
// The sheet: 1 x 1 m of cotton, horizontal, held at two corners, h = 1/96 s, after a few steps so it is deformed.
// Usage: bench_dynamics [--quick]   (--quick: smaller sizes, for a smoke run)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app/memory_policy.h"
#include "assets/held_sheet.h"
#include "dynamics/step.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

using Clock = std::chrono::steady_clock;

using Sheet = assets::HeldSheet;

Sheet makeSheet(int cells) { return assets::makeHeldSheet(cells); }

const double kStep = 1.0 / 96;  // s

// The tables time the paper's one-sweep update, named explicitly: the default solve is pcg since issue 15 (these
// tables timed it under the Kang-Cho label until 2026-11-30; bench_solvers compares the solvers).
StepSettings kangChoSettings() {
  StepSettings settings;
  settings.solver = StepSolver::KangCho;
  settings.iterations = 1;
  return settings;
}

// Median wall time (ms) of one step, over enough repeats to fill about `budgetMs`; the sheet keeps moving.
double msPerStep(Sheet& s, const StepSettings& settings, double budgetMs, int maxRepeats) {
  std::vector<double> times;
  double total = 0;
  while ((total < budgetMs || times.size() < 3) && int(times.size()) < maxRepeats) {
    auto start = Clock::now();
    stepCloth(s.mesh, s.state, s.material, settings, kStep);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    times.push_back(ms);
    total += ms;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Sheet deformedSheet(int cells) {
  Sheet s = makeSheet(cells);
  StepSettings settings;
  for (int k = 0; k < 5; ++k) stepCloth(s.mesh, s.state, s.material, settings, kStep);
  return s;
}

void scalingTable(const std::vector<int>& cells) {
  std::printf("\n## Kang-Cho step (1 iteration) against node count, %d threads\n\n", omp_get_max_threads());
  std::printf("| nodes | pairs | ms / step | ns / node |\n|---:|---:|---:|---:|\n");
  const StepSettings settings = kangChoSettings();
  for (int c : cells) {
    Sheet s = deformedSheet(c);
    double ms = msPerStep(s, settings, 1500, 200);
    std::printf("| %zu | %zu | %.3f | %.0f |\n", s.mesh.nodes.size(), s.state.pairs.size(), ms,
                1e6 * ms / double(s.mesh.nodes.size()));
    std::fflush(stdout);
  }
}

void solverTable(const std::vector<int>& cells) {
  std::printf("\n## One-iteration step against the full CG solve (tolerance 1e-8), %d threads\n\n",
              omp_get_max_threads());
  std::printf("| nodes | kang_cho ms / step | cg ms / step | cg iterations | cg / kang_cho |\n"
              "|---:|---:|---:|---:|---:|\n");
  for (int c : cells) {
    Sheet kc = deformedSheet(c), cg = kc;
    StepSettings fast = kangChoSettings(), full;
    full.solver = StepSolver::CG;
    full.cgTolerance = 1e-8;
    double msFast = msPerStep(kc, fast, 1000, 100);
    auto start = Clock::now();
    int iterations = stepCloth(cg.mesh, cg.state, cg.material, full, kStep).iterations;
    double msFull = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::printf("| %zu | %.3f | %.1f | %d | %.0fx |\n", kc.mesh.nodes.size(), msFast, msFull, iterations,
                msFull / msFast);
    std::fflush(stdout);
  }
}

void threadTable(int cells) {
  std::printf("\n## Kang-Cho step at 1 and 2 threads\n\n| nodes | threads | ms / step | speed-up |\n"
              "|---:|---:|---:|---:|\n");
  double one = 0;
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    Sheet s = deformedSheet(cells);
    double ms = msPerStep(s, kangChoSettings(), 1500, 200);
    if (threads == 1) one = ms;
    std::printf("| %zu | %d | %.3f | %.2fx |\n", s.mesh.nodes.size(), threads, ms, one / ms);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  bool quick = argc > 1 && !std::strcmp(argv[1], "--quick");
  // Grid cells per side for about 1k, 5k, 20k, 50k, 100k and 200k nodes ((c + 1)^2 nodes).
  std::vector<int> sizes = quick ? std::vector<int>{31, 70} : std::vector<int>{31, 70, 141, 223, 316, 446};
  std::printf("# bench_dynamics%s\n", quick ? " --quick" : "");
  scalingTable(sizes);
  solverTable(quick ? std::vector<int>{99} : std::vector<int>{99, 316});
  threadTable(quick ? 99 : 316);
  return 0;
}
