// Benchmark of the implicit step's linear solves (issue 15). Every candidate runs the same time loop on a deforming
// cotton sheet (1 x 1 m, held at two corners, falling from horizontal into a swinging drape, h = 1/96 s), so warm
// starts count as they do in a shot. For each node count it prints, per candidate: mean iterations per step, mean ms
// per step, the multiple of one kang_cho step (one sweep), and the accuracy after the loop: the largest node distance
// (mm) and the lowest point's difference (mm) from the trajectory of the exact (direct) solve. Then the default solve
// at 1 and 2 threads, and the free-fall check.
//   bench_solvers [--quick] [--steps N] [--sizes c1,c2,...] [--only TEXT] [--stiffen X] [--membrane springs|triangles]
//   bench_solvers --threads [--sizes ...] [--only pcg|direct|kang_cho] [--thread-counts 1,2]   only the table of
//                                   the default, direct and kang_cho solves (or the one named) at 1 and 2 threads
//                                   (or the counts given), for each size
//   bench_solvers --drape 32,128    conf/drape.json at these grid sizes, 8 and 2 steps per frame: the default
//                                   solve's lowest point against the direct solve's over frames 1..48    (cells per
//                                   side; 31 ~ 1k nodes, 99 ~ 10k, 316 ~ 100k)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/memory_policy.h"
#include "app/scene.h"
#include "app/simulate.h"
#include "assets/held_sheet.h"
#include "dynamics/step.h"
#include "io/atomic_file.h"
#include "mesh/generators.h"

using namespace adacloth;

namespace {

using Clock = std::chrono::steady_clock;
const double kStep = 1.0 / 96;  // s
const int kStepsPerFrame = 8;   // a shot's frame: solver auto chooses again at its first step
std::string gOnly;              // --only: run the candidates whose name contains this (and the references)
std::vector<int> gThreadCounts = {1, 2};  // --thread-counts: the thread table's columns
std::string gDrapeExtra;        // --drape-keys: more shot keys for the drape runs, e.g. "solver_tolerance": 1e-3,

using Sheet = assets::HeldSheet;

double gStiffen = 1;             // --stiffen: the sheet's stretch, shear and bending stiffness times this
MaterialParams::Membrane gMembrane = MaterialParams{}.membrane;  // --membrane: the sheet's in-plane model

Sheet makeSheet(int cells) {
  MaterialParams material;
  material.stretch *= gStiffen, material.shear *= gStiffen, material.bending *= gStiffen;
  material.membrane = gMembrane;
  return assets::makeHeldSheet(cells, material);
}

struct Candidate {
  std::string name;
  StepSettings settings;
  int maxCells = 1 << 30;  // skipped above this size (too slow to be worth the wait)
};

struct Run {
  double msPerStep = 0, iterationsPerStep = 0, maxResidual = 0;
  std::vector<Vec3> x;  // final positions
  bool finite = true;
};

Run runLoop(int cells, const Candidate& c, int steps) {
  Sheet s = makeSheet(cells);
  Run run;
  double ms = 0, iterations = 0;
  for (int k = 0; k < steps; ++k) {
    auto start = Clock::now();
    if (k % kStepsPerFrame == 0) startSolverFrame(s.state);  // solver auto chooses again every frame
    SolveReport report = stepCloth(s.mesh, s.state, s.material, c.settings, kStep);
    ms += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    iterations += report.iterations;
    run.maxResidual = std::max(run.maxResidual, report.residual);
  }
  run.msPerStep = ms / steps;
  run.iterationsPerStep = iterations / steps;
  for (const Node& n : s.mesh.nodes) {
    run.x.push_back(n.x);
    run.finite = run.finite && n.x.allFinite();
  }
  return run;
}

double lowest(const std::vector<Vec3>& x) {
  double y = 1e300;
  for (const Vec3& p : x) y = std::min(y, p.y());
  return y;
}

double maxDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

std::vector<Candidate> candidates() {
  std::vector<Candidate> list;
  auto add = [&](std::string name, StepSolver solver, std::function<void(Candidate&)> tweak = {}) {
    Candidate c;
    c.name = std::move(name);
    c.settings.solver = solver;
    if (tweak) tweak(c);
    list.push_back(c);
  };
  add("direct (CHOLMOD)", StepSolver::Direct, [](Candidate& c) { c.maxCells = 200; });
  add("auto (the default: pcg ssor, warm start, tol 3e-03, or direct, per frame of 8 steps)", StepSolver::Auto);
  add("kang_cho, 1 sweep", StepSolver::KangCho);
  add("kang_cho, 20 sweeps", StepSolver::KangCho, [](Candidate& c) { c.settings.iterations = 20; });
  add("cg (Eigen, diagonal, 1e-8)", StepSolver::CG, [](Candidate& c) { c.maxCells = 120; });
  using P = PcgSettings::Preconditioner;
  for (P preconditioner : {P::BlockJacobi, P::Multigrid, P::Ssor})
    for (double tol : {1e-2, 3e-3, 1e-3, 1e-4})
      for (bool warm : {false, true}) {
        char name[96];
        std::snprintf(name, sizeof name, "pcg %s, %s, tol %.0e", preconditionerName(preconditioner).c_str(),
                      warm ? "warm start" : "inertial guess", tol);
        add(name, StepSolver::Pcg, [=](Candidate& c) {
          c.settings.pcg.tolerance = tol;
          c.settings.pcg.maxIterations = 5000;
          c.settings.pcg.preconditioner = preconditioner;
          c.settings.pcg.warmStart = warm;
        });
      }
  // The over-relaxation of the SSOR sweeps at fixed values (the default takes it from the node count: ssorOmegaFor).
  for (double omega : {1.3, 1.5, 1.7, 1.8, 1.85}) {
    char name[96];
    std::snprintf(name, sizeof name, "pcg ssor omega %.2f, warm start, tol 1e-03", omega);
    add(name, StepSolver::Pcg, [=](Candidate& c) {
      c.settings.pcg.tolerance = 1e-3;
      c.settings.pcg.maxIterations = 5000;
      c.settings.pcg.preconditioner = P::Ssor;
      c.settings.pcg.warmStart = true;
      c.settings.pcg.ssorOmega = omega;
    });
  }
  return list;
}

void candidateTable(int cells, int steps) {
  const int nodes = (cells + 1) * (cells + 1);
  std::printf("\n## %d nodes (%dx%d cells), %d steps of 1/96 s, %d thread(s)\n\n", nodes, cells, cells, steps,
              omp_get_max_threads());
  std::printf("| candidate | iterations / step | ms / step | x kang_cho step | max residual | max distance from "
              "direct (mm) | lowest point - direct (mm) |\n|---|---:|---:|---:|---:|---:|---:|\n");
  // The direct solve first (the accuracy reference), then kang_cho (the cost unit), then the rest; all rows are
  // printed once every run is done.
  std::vector<Candidate> list = candidates();
  auto rank = [](const Candidate& c) {
    if (c.settings.solver == StepSolver::Direct) return 0;
    return c.settings.solver == StepSolver::KangCho && c.settings.iterations == 1 ? 1 : 2;
  };
  std::stable_sort(list.begin(), list.end(), [&](const Candidate& a, const Candidate& b) { return rank(a) < rank(b); });
  std::vector<std::pair<const Candidate*, Run>> runs;
  const Run* reference = nullptr;
  const Run* kangCho = nullptr;
  runs.reserve(list.size());
  for (const Candidate& c : list) {
    if (!gOnly.empty() && c.name.find(gOnly) == std::string::npos && rank(c) == 2) continue;
    if (cells > c.maxCells) {
      std::printf("| %s | skipped (too slow at this size) | | | | | |\n", c.name.c_str());
      continue;
    }
    runs.emplace_back(&c, runLoop(cells, c, steps));
    // The unit of cost is timed twice and the faster run kept: the first run of the loop also pays for the first
    // touch of the step's buffers (tens of MB at 100k nodes), which is not the cost of a sweep.
    if (rank(c) == 1) {
      const Run again = runLoop(cells, c, steps);
      if (again.msPerStep < runs.back().second.msPerStep) runs.back().second = again;
    }
    if (rank(c) == 0) reference = &runs.back().second;
    if (rank(c) == 1) kangCho = &runs.back().second;
  }
  for (const auto& [c, run] : runs) {
    char ratio[32] = "n/a", accuracy[64] = "n/a (no direct reference) | n/a";
    if (kangCho) std::snprintf(ratio, sizeof ratio, "%.1fx", run.msPerStep / kangCho->msPerStep);
    if (reference)
      std::snprintf(accuracy, sizeof accuracy, "%.2f | %+.2f",
                    run.finite ? 1e3 * maxDistance(run.x, reference->x) : NAN,
                    1e3 * (lowest(run.x) - lowest(reference->x)));
    std::printf("| %s | %.1f | %.2f | %s | %.1e | %s |\n", c->name.c_str(), run.iterationsPerStep, run.msPerStep, ratio,
                run.maxResidual, accuracy);
  }
  std::fflush(stdout);
}

void threadTable(int cells, int steps) {
  std::printf("\n## Default solve (pcg), direct and kang_cho by thread count (speed-up against the first), %d nodes"
              "\n\n| solver | threads | ms / step | "
              "speed-up |\n|---|---:|---:|---:|\n", (cells + 1) * (cells + 1));
  for (StepSolver solver : {StepSolver::Pcg, StepSolver::Direct, StepSolver::KangCho}) {
    const char* name = solver == StepSolver::Pcg ? "pcg" : solver == StepSolver::Direct ? "direct" : "kang_cho";
    if (!gOnly.empty() && gOnly != name) continue;
    double first = 0;  // ms per step at the first thread count: the speed-up's base
    for (int threads : gThreadCounts) {
      omp_set_num_threads(threads);
      Candidate c;
      c.settings.solver = solver;
      Run run = runLoop(cells, c, steps);
      if (first == 0) first = run.msPerStep;
      std::printf("| %s | %d | %.2f | %.2fx |\n", name, threads, run.msPerStep, first / run.msPerStep);
      std::fflush(stdout);
    }
  }
  omp_set_num_threads(1);
}

// An unpinned cotton sheet without air falling for 0.5 s (exact: g t^2 / 2 = 1.226 m less the implicit lag).
void freeFallTable() {
  std::printf("\n## Free fall of an unpinned 32x32 cotton sheet, 0.5 s at h = 1/96 s\n\n| solver | fall (m) | "
              "vs direct |\n|---|---:|---:|\n");
  double direct = 0;
  for (StepSolver solver :
       {StepSolver::Direct, StepSolver::Auto, StepSolver::Pcg, StepSolver::KangCho, StepSolver::CG}) {
    Sheet s = makeSheet(32);
    s.state.handles.clear();
    StepSettings settings;
    settings.solver = solver;
    settings.wind.density = 0;  // no air
    const int steps = 48;
    for (int k = 0; k < steps; ++k) stepCloth(s.mesh, s.state, s.material, settings, kStep);
    double y = 0;
    for (const Node& n : s.mesh.nodes) y += n.x.y();
    const double fall = -y / double(s.mesh.nodes.size());
    if (solver == StepSolver::Direct) direct = fall;
    const char* name = solver == StepSolver::Auto     ? "auto (default)"
                       : solver == StepSolver::Pcg    ? "pcg"
                       : solver == StepSolver::Direct ? "direct"
                       : solver == StepSolver::CG     ? "cg"
                                                        : "kang_cho (1 sweep)";
    std::printf("| %s | %.4f | %+.2f %% |\n", name, fall, 100 * (fall / direct - 1));
  }
}

// conf/drape.json at `cells` x `cells` and `steps` steps per frame, solved by `solver`: the lowest point (m) of the
// sheet at frames 1..frames, and the mean ms per frame.
std::vector<double> drapeLowestPoints(int cells, int steps, const std::string& solver, int frames, double& msPerFrame) {
  const std::filesystem::path file = std::filesystem::path(ADACLOTH_SOURCE_DIR) / "conf" / "drape.json";
  std::string text = readFile(file);
  auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("conf/drape.json: cannot find " + from);
    text.replace(at, from.size(), to);
  };
  replace("\"cells\": [32, 32]", "\"cells\": [" + std::to_string(cells) + ", " + std::to_string(cells) + "]");
  replace("\"steps_per_frame\": 8,", "\"steps_per_frame\": " + std::to_string(steps) + ", \"solver\": \"" + solver +
                                          "\"," + gDrapeExtra);
  const Shot shot = parseShot(text, file);
  Scene scene = buildScene(shot);
  std::vector<double> lowestPoints;
  auto start = Clock::now();
  for (int frame = 1; frame <= frames; ++frame) {
    FrameReport report(scene.cloths.size());
    for (int step = 0; step < shot.stepsPerFrame; ++step) stepScene(shot, scene, frame, step, report);
    scene.time += shot.frameTime();
    double y = 1e300;
    for (const Node& n : scene.cloths[0].mesh.nodes) y = std::min(y, n.x.y());
    lowestPoints.push_back(y);
  }
  msPerFrame = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / frames;
  return lowestPoints;
}

// Issue 15 (b): the default solve's lowest point against the direct solve's at every one of the first 48 frames.
void drapeTable(const std::vector<int>& cellCounts) {
  std::printf("\n## conf/drape.json: lowest point of the default solve against the direct solve, frames 1..48\n\n"
              "| cells | steps / frame | max difference (mm) | at frame | default ms / frame | direct ms / frame |\n"
              "|---:|---:|---:|---:|---:|---:|\n");
  for (int cells : cellCounts)
    for (int steps : {8, 2}) {
      double msDefault = 0, msDirect = 0;
      const std::vector<double> pcg = drapeLowestPoints(cells, steps, "pcg", 48, msDefault);
      const std::vector<double> direct = drapeLowestPoints(cells, steps, "direct", 48, msDirect);
      double worst = 0;
      int at = 0;
      for (size_t f = 0; f < pcg.size(); ++f)
        if (std::abs(pcg[f] - direct[f]) > worst) worst = std::abs(pcg[f] - direct[f]), at = int(f) + 1;
      std::printf("| %d | %d | %.2f | %d | %.1f | %.1f |\n", cells, steps, 1e3 * worst, at, msDefault, msDirect);
      std::fflush(stdout);
    }
}

std::vector<int> parseCounts(const char* text, int least, const char* expected) {
  std::vector<int> counts;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    long v = std::strtol(p, &end, 10);
    if (end == p || v < least) {
      std::fprintf(stderr, "bench_solvers: %s\n", expected);
      std::exit(2);
    }
    counts.push_back(int(v));
    p = *end == ',' ? end + 1 : end;
  }
  return counts;
}

std::vector<int> parseSizes(const char* text) {
  return parseCounts(text, 2, "--sizes expects a comma-separated list of cell counts >= 2");
}

}  // namespace

int main(int argc, char** argv) {
  adacloth::keepFreedMemoryForReuse();  // as the adacloth program does (src/app/main.cpp)
  bool quick = false;
  int steps = 48;
  std::vector<int> sizes = {31, 99, 316};
  std::vector<int> drapeCells;
  bool threadsOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
      sizes = {31};
      steps = 12;
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads")) {
      threadsOnly = true;
    } else if (!std::strcmp(argv[i], "--thread-counts") && i + 1 < argc) {
      gThreadCounts =
          parseCounts(argv[++i], 1, "--thread-counts expects a comma-separated list of thread counts >= 1");
    } else if (!std::strcmp(argv[i], "--drape") && i + 1 < argc) {
      drapeCells = parseSizes(argv[++i]);
    } else if (!std::strcmp(argv[i], "--drape-keys") && i + 1 < argc) {
      gDrapeExtra = std::string(argv[++i]) + ",";
    } else if (!std::strcmp(argv[i], "--stiffen") && i + 1 < argc) {
      gStiffen = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--membrane") && i + 1 < argc &&
               (!std::strcmp(argv[i + 1], "springs") || !std::strcmp(argv[i + 1], "triangles"))) {
      gMembrane = !std::strcmp(argv[++i], "triangles") ? MaterialParams::Membrane::Triangles
                                                       : MaterialParams::Membrane::Springs;
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      gOnly = argv[++i];
    } else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
      sizes = parseSizes(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: bench_solvers [--quick] [--steps N] [--sizes c1,c2,...] [--only TEXT] [--stiffen X] "
                   "[--membrane springs|triangles] [--threads] [--thread-counts t1,t2,...] [--drape c1,c2,...]\n");
      return 2;
    }
  }
  if (threadsOnly && !gOnly.empty() && gOnly != "pcg" && gOnly != "direct" && gOnly != "kang_cho") {
    std::fprintf(stderr, "bench_solvers: with --threads, --only expects pcg, direct or kang_cho\n");
    return 2;
  }
  omp_set_num_threads(1);
  std::printf("# bench_solvers%s --membrane %s\n", quick ? " --quick" : "",
              gMembrane == MaterialParams::Membrane::Triangles ? "triangles" : "springs");
  if (!drapeCells.empty()) {
    drapeTable(drapeCells);
    return 0;
  }
  if (threadsOnly) {
    for (int cells : sizes) threadTable(cells, steps);
    return 0;
  }
  if (gOnly.empty()) freeFallTable();
  for (int cells : sizes) candidateTable(cells, steps);
  if (gOnly.empty()) threadTable(sizes.size() > 1 ? sizes[1] : sizes[0], steps);
  return 0;
}
