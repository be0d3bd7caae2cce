// `adacloth upsample track|train|eval` (docs/upsampling.md): tracked training simulations, harmonic-regularized
// training of the linear operator (+ oscillatory modes), and its evaluation against the baselines.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/args.h"
#include "app/commands.h"
#include "app/tracked_shot.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "upsample/evaluate.h"
#include "upsample/oscillatory_modes.h"
#include "upsample/training_data.h"
#include "upsample/twin_divergence.h"

namespace adacloth {
namespace {

// The value of option `name`, > 0 unless `allowZero`; InputError naming the option otherwise.
double parsePositive(const std::string& name, const std::string& text, bool allowZero) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v) || v < 0 || (v == 0 && !allowZero))
    throw InputError("adacloth upsample: option '" + name + "' expects a positive number, got '" + text + "'");
  return v;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

// A comma-separated list of positive numbers (`fallback` when the option is absent).
std::vector<double> positiveList(const Args& args, const std::string& name, double fallback, bool allowZero = false) {
  auto text = args.value(name);
  if (!text) return {fallback};
  std::vector<double> values;
  for (const std::string& item : splitList(*text)) values.push_back(parsePositive(name, item, allowZero));
  if (values.empty()) throw InputError("adacloth upsample: option '" + name + "' expects a number or a list");
  return values;
}

std::vector<TrackedData> readAll(const std::vector<std::string>& dirs) {
  std::vector<TrackedData> all;
  for (const std::string& d : dirs) {
    all.push_back(readTrackedData(d));
    if (all.back().coarse.nodes.size() != all.front().coarse.nodes.size() ||
        all.back().levels != all.front().levels)
      throw InputError(d + ": its meshes differ from those of " + dirs.front() + " (coarse nodes or levels)");
  }
  return all;
}

std::vector<TrainingSequence> sequencesOf(const std::vector<TrackedData>& data) {
  std::vector<TrainingSequence> seqs;
  for (const TrackedData& d : data) seqs.push_back(d.frames);
  return seqs;
}

int runTrack(int argc, char** argv) {
  Args args("upsample track",
            {{"--out", "-o", true}, {"--cloth", "", true}, {"--levels", "", true}, {"--test-functions", "", true},
             {"--coarse-cells", "", true}, {"--coarse-mesh", "", true}, {"--frames", "", true},
             {"--threads", "", true}, {"--quiet", "-q", false}},
            argc, argv, 3);
  args.expectPositionals(1, "one shot file");
  if (!args.has("--out")) throw InputError("adacloth upsample track: -o DIR is required");
  TrackOptions options;
  options.cloth = args.value("--cloth").value_or("");
  options.levels = args.integer("--levels", 1, 5).value_or(3);
  options.testFunctions = args.integer("--test-functions", 1, 10000).value_or(60);
  options.frames = args.integer("--frames", 0, 1000000).value_or(-1);
  if (auto cells = args.value("--coarse-cells")) {
    const auto parts = splitList(*cells);
    int x = 0, y = 0;
    if (parts.size() != 2 || std::sscanf(parts[0].c_str(), "%d", &x) != 1 ||
        std::sscanf(parts[1].c_str(), "%d", &y) != 1 || x < 1 || y < 1)
      throw InputError("adacloth upsample track: --coarse-cells expects NX,NY (whole numbers >= 1)");
    options.coarseCells = std::array<int, 2>{x, y};
  }
  if (auto mesh = args.value("--coarse-mesh")) options.coarseMesh = std::filesystem::path(*mesh);
  if (options.coarseMesh && options.coarseCells)
    throw InputError("adacloth upsample track: give --coarse-mesh or --coarse-cells, not both");
  options.progress = args.has("--quiet") ? Progress::Mode::Quiet : Progress::Mode::Auto;
  if (auto threads = args.integer("--threads", 1, 1024)) omp_set_num_threads(*threads);
  const Shot shot = loadShot(args.positionals()[0]);
  const TrackedData data = runTrackedShot(shot, options);
  writeTrackedData(data, *args.value("--out"));
  std::fprintf(stderr, "tracked %zu frames: %zu coarse nodes, %ld fine nodes -> %s\n", data.frames.coarse.size(),
               data.coarse.nodes.size(), long(data.frames.fine.front().rows()), args.value("--out")->c_str());
  return 0;
}

// One point of the regularization scan: harmonics kept and the damping profile.
struct TrainSetting {
  int K = 300;
  HarmonicRegularization reg;
};

// Every combination of the listed values of --K, --gamma1, --gammaN and --c (K capped at the fine node count).
std::vector<TrainSetting> settingsOf(const Args& args, int fineNodes) {
  const HarmonicRegularization defaults;
  std::vector<TrainSetting> settings;
  for (double K : positiveList(args, "--K", 300))
    for (double g1 : positiveList(args, "--gamma1", defaults.gamma1))
      for (double gN : positiveList(args, "--gammaN", defaults.gammaN))
        for (double c : positiveList(args, "--c", defaults.exponent, true)) {
          if (K != std::floor(K)) throw InputError("adacloth upsample train: --K expects whole numbers");
          settings.push_back({std::min(int(K), fineNodes), {g1, gN, c}});
        }
  return settings;
}

// The lowest K harmonics of `basis` (which holds at least K).
Eigenbasis leadingHarmonics(const Eigenbasis& basis, int K) {
  return {basis.Q.leftCols(K), basis.lambda.head(K), basis.area};
}

// Trains one operator per setting; with validation data, keeps the one with the lowest validation error (the
// regularization is chosen on data the operator was not fitted to, never on the held-out set).
UpsampleOperator trainBestOperator(const std::vector<TrainSetting>& settings, const TrackedData& meshes,
                                   const Subdivision& sub, const std::vector<TrainingSequence>& seqs,
                                   const std::vector<TrainingSequence>& validation, const SparseMatrixD* priorMap) {
  int maxK = 0;
  for (const TrainSetting& s : settings) maxK = std::max(maxK, s.K);
  auto start = std::chrono::steady_clock::now();
  const Eigenbasis basis = lowestHarmonics(sub.fine, maxK);
  std::printf("harmonics (K %d): %.1f s\n", maxK,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  UpsampleOperator best;
  double bestError = INFINITY;
  for (const TrainSetting& s : settings) {
    start = std::chrono::steady_clock::now();
    UpsampleOperator op = makeUpsampleOperator(
        meshes.coarse, sub.fine, trainOperator(leadingHarmonics(basis, s.K), seqs, s.reg, priorMap));
    const double learnS = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double error = validation.empty() ? 0 : upsamplingError(operatorUpsampler(op), validation).mean;
    std::printf("K %d, gamma1 %g, gammaN %g, c %g: learn U %.2f s", s.K, s.reg.gamma1, s.reg.gammaN, s.reg.exponent,
                learnS);
    if (!validation.empty()) std::printf(", validation error %.3f mm", 1e3 * error);
    std::printf("\n");
    if (error < bestError) {
      bestError = error;
      best = std::move(op);
    }
  }
  return best;
}

int runTrain(int argc, char** argv) {
  Args args("upsample train",
            {{"--out", "-o", true}, {"--K", "", true}, {"--gamma1", "", true}, {"--gammaN", "", true},
             {"--c", "", true}, {"--modes", "", true}, {"--prior", "", true}, {"--validate", "", true}},
            argc, argv, 3);
  if (args.positionals().empty()) throw InputError("adacloth upsample train: expected one or more training folders");
  if (!args.has("--out")) throw InputError("adacloth upsample train: -o OP.bin is required");
  const int modeCount = args.integer("--modes", 0, 16).value_or(0);
  const std::string prior = args.value("--prior").value_or("barycentric");
  if (prior != "barycentric" && prior != "none")
    throw InputError("adacloth upsample train: --prior expects barycentric or none, got '" + prior + "'");
  std::vector<std::string> dirs = args.positionals();
  const size_t trainCount = dirs.size();
  for (const std::string& d : splitList(args.value("--validate").value_or(""))) dirs.push_back(d);
  const std::vector<TrackedData> all = readAll(dirs);  // same meshes everywhere
  const std::vector<TrackedData> data(all.begin(), all.begin() + trainCount), valid(all.begin() + trainCount,
                                                                                     all.end());
  const Subdivision sub = subdivide(data.front().coarse, data.front().levels);
  const int N = int(sub.fine.nodes.size());
  const std::vector<TrainSetting> settings = settingsOf(args, N);
  if (settings.size() > 1 && valid.empty())
    throw InputError("adacloth upsample train: lists of --K/--gamma1/--gammaN/--c need --validate DIR[,DIR...]");
  const std::vector<TrainingSequence> seqs = sequencesOf(data);
  const SparseMatrixD* priorMap = prior == "none" ? nullptr : &sub.midpoint;
  UpsampleOperator op = trainBestOperator(settings, data.front(), sub, seqs, sequencesOf(valid), priorMap);
  op.modes = fitOscillatoryModes(op, seqs, modeCount);
  for (const OscillatoryMode& m : op.modes)
    std::printf("mode: %.3f Hz, rms amplitude %.3f mm\n", m.omega / (2 * M_PI),
                1e3 * std::sqrt((m.sinAmp.squaredNorm() + m.cosAmp.squaredNorm()) / (2.0 * m.sinAmp.size())));
  saveUpsampleOperator(op, *args.value("--out"));
  const UpsamplingError e = upsamplingError(operatorUpsampler(op), seqs);
  std::printf("M %zu, N %d, frames %zu, %zu modes; training error %.3f mm mean, %.3f mm max -> %s\n",
              op.coarseCount(), N, e.frames, op.modes.size(), 1e3 * e.mean, 1e3 * e.max,
              args.value("--out")->c_str());
  return 0;
}

// Every coarse frame of `data` with its time, in the precision the predictor takes.
template <class Matrix>
std::vector<std::pair<Matrix, double>> framesOf(const std::vector<TrainingSequence>& data) {
  std::vector<std::pair<Matrix, double>> frames;
  for (const auto& seq : data)
    for (size_t f = 0; f < seq.coarse.size(); ++f) frames.emplace_back(seq.coarse[f].cast<typename Matrix::Scalar>(),
                                                                         seq.time[f]);
  return frames;
}

// Mean ms per call of `call` over the frames (round robin, at least 200 calls), on the calling thread.
template <class Frame>
double msPerFrame(const std::vector<Frame>& frames, const std::function<void(const Frame&)>& call) {
  const int calls = std::max<int>(200, int(frames.size()));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call(frames[i % frames.size()]);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / calls;
}

// One row of the evaluation table: a predictor, its memory, and (for the learned ones) the operator to time.
struct EvalRow {
  std::string name;
  Upsampler up;
  double memoryMB;
  const UpsampleOperator* op = nullptr;  // timed through apply() on float input; null: timed through `up`
};

double timeRow(const EvalRow& r, const std::vector<TrainingSequence>& data) {
  if (!r.op) {
    using Frame = std::pair<Eigen::MatrixX3d, double>;
    return msPerFrame<Frame>(framesOf<Eigen::MatrixX3d>(data), [&](const Frame& f) { r.up(f.first, f.second); });
  }
  using Frame = std::pair<Eigen::MatrixX3f, double>;
  Eigen::MatrixX3f out;
  return msPerFrame<Frame>(framesOf<Eigen::MatrixX3f>(data),
                           [&](const Frame& f) { r.op->apply(f.first, f.second, out); });
}

size_t frameCount(const std::vector<TrainingSequence>& seqs) {
  size_t n = 0;
  for (const auto& seq : seqs) n += seq.coarse.size();
  return n;
}

// The operator must be for the meshes of the data: same coarse and fine node counts.
void checkOperatorMatches(const UpsampleOperator& op, const std::string& opFile, const TrackedData& data,
                          const Subdivision& sub) {
  if (op.coarseCount() != data.coarse.nodes.size() || op.fineCount() != sub.fine.nodes.size())
    throw InputError(opFile + ": operator is for " + std::to_string(op.coarseCount()) + " -> " +
                     std::to_string(op.fineCount()) + " nodes, the data has " +
                     std::to_string(data.coarse.nodes.size()) + " -> " + std::to_string(sub.fine.nodes.size()));
}

int runEval(int argc, char** argv) {
  Args args("upsample eval", {{"--training", "", true}, {"--heldout", "", true}, {"--json", "", true}}, argc, argv,
            3);
  args.expectPositionals(1, "one operator file");
  if (!args.has("--training") || !args.has("--heldout"))
    throw InputError("adacloth upsample eval: --training DIR[,DIR...] and --heldout DIR[,DIR...] are required");
  omp_set_num_threads(1);
  Eigen::setNbThreads(1);
  const std::string opFile = args.positionals()[0];
  const UpsampleOperator op = loadUpsampleOperator(opFile);
  std::vector<std::string> dirs = splitList(*args.value("--training"));
  const size_t trainCount = dirs.size();
  for (const std::string& d : splitList(*args.value("--heldout"))) dirs.push_back(d);
  const std::vector<TrackedData> all = readAll(dirs);  // same meshes everywhere
  const std::vector<TrackedData> training(all.begin(), all.begin() + trainCount), heldout(all.begin() + trainCount,
                                                                                          all.end());
  const Subdivision sub = subdivide(all.front().coarse, all.front().levels);
  checkOperatorMatches(op, opFile, all.front(), sub);
  UpsampleOperator plain = op;
  plain.modes.clear();
  std::vector<EvalRow> rows = {{"barycentric", sparseUpsampler(sub.midpoint), sub.midpoint.nonZeros() * 12.0 / 1e6},
                               {"loop", sparseUpsampler(sub.loop), sub.loop.nonZeros() * 12.0 / 1e6},
                               {"learned", operatorUpsampler(plain), plain.U.size() * 4.0 / 1e6, &plain}};
  if (!op.modes.empty())
    rows.push_back({"learned+modes", operatorUpsampler(op),
                    (op.U.size() + 2.0 * op.fineCount() * op.modes.size()) * 4 / 1e6, &op});
  const std::vector<TrainingSequence> trainSeqs = sequencesOf(training), heldSeqs = sequencesOf(heldout);
  nlohmann::ordered_json json, train = nlohmann::ordered_json::object(), held = nlohmann::ordered_json::object();
  std::printf("%-14s %14s %14s %12s %12s\n", "method", "training (mm)", "held-out (mm)", "memory (MB)", "ms/frame");
  double learnedMs = 0;
  for (const EvalRow& r : rows) {
    const UpsamplingError et = upsamplingError(r.up, trainSeqs), eh = upsamplingError(r.up, heldSeqs);
    const double ms = timeRow(r, heldSeqs);
    std::printf("%-14s %14.3f %14.3f %12.2f %12.3f\n", r.name.c_str(), 1e3 * et.mean, 1e3 * eh.mean, r.memoryMB, ms);
    train[r.name] = et.mean;
    held[r.name] = eh.mean;
    if (r.name == "learned") learnedMs = ms;
  }
  std::printf("M %zu coarse nodes, N %zu fine nodes, %zu training + %zu held-out frames, %zu modes\n",
              op.coarseCount(), op.fineCount(), frameCount(trainSeqs), frameCount(heldSeqs), op.modes.size());
  json["heldout"] = held;
  json["training"] = train;
  json["ms_per_frame"] = learnedMs;
  json["coarse_nodes"] = op.coarseCount();
  json["fine_nodes"] = op.fineCount();
  json["memory_mb"] = op.U.size() * 4.0 / 1e6;
  json["operator"] = opFile;
  json["training_sets"] = splitList(*args.value("--training"));
  json["heldout_sets"] = splitList(*args.value("--heldout"));
  if (auto file = args.value("--json")) writeFileAtomically(*file, json.dump(2) + "\n");
  return 0;
}

// The predictability floor of docs/upsampling.md: two tracked runs of one shot, inputs a hair apart.
int runTwin(int argc, char** argv) {
  Args args("upsample twin", {{"--tolerance", "", true}, {"--from", "", true}, {"--json", "", true}}, argc, argv, 3);
  args.expectPositionals(2, "two track folders");
  TwinOptions options;
  // Single numbers: a list here would silently use its first entry.
  if (auto text = args.value("--tolerance")) options.coarseTolerance = parsePositive("--tolerance", *text, false);
  if (auto text = args.value("--from")) options.from = parsePositive("--from", *text, true);
  const std::vector<std::string> dirs = {args.positionals()[0], args.positionals()[1]};
  const std::vector<TrackedData> runs = readAll(dirs);
  const Subdivision sub = subdivide(runs[0].coarse, runs[0].levels);
  const TwinDivergence d = twinDivergence(runs[0].frames, runs[1].frames, sub.midpoint, options);
  std::printf("%8s %22s %22s %18s %6s\n", "time (s)", "coarse divergence (mm)", "residual divergence (mm)",
              "barycentric (mm)", "used");
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  for (const TwinFrame& f : d.frames) {
    const bool used = twinFrameUsed(f, options);
    std::printf("%8.3f %22.4f %24.4f %18.3f %6s\n", f.time, 1e3 * f.coarseDivergence, 1e3 * f.residualDivergence,
                1e3 * f.barycentricError, used ? "yes" : "");
    frames.push_back({{"time", f.time}, {"coarse_divergence", f.coarseDivergence},
                      {"residual_divergence", f.residualDivergence}, {"barycentric", f.barycentricError},
                      {"used", used}});
  }
  if (d.framesUsed == 0)
    std::printf("no frame where the fine runs have parted while the coarse runs agree: nothing to bound\n");
  else
    std::printf("%zu frames used: residual divergence %.3f mm, barycentric %.3f mm; any predictor from the coarse "
                "state >= %.2f x barycentric (triangle inequality); best predictor ~%.2f x if the unpredictable "
                "part is independent between the runs\n",
                d.framesUsed, 1e3 * d.residualDivergence, 1e3 * d.barycentricError, d.boundRatio, d.estimateRatio);
  if (auto file = args.value("--json")) {
    nlohmann::ordered_json json = {{"runs", dirs},
                                   {"tolerance", options.coarseTolerance},
                                   {"from", options.from},
                                   {"frames_used", d.framesUsed},
                                   {"residual_divergence", d.residualDivergence},
                                   {"barycentric", d.barycentricError},
                                   {"bound_ratio", d.boundRatio},
                                   {"estimate_ratio", d.estimateRatio},
                                   {"frames", frames}};
    writeFileAtomically(*file, json.dump(2) + "\n");
  }
  return 0;
}

}  // namespace

int runUpsampleCommand(int argc, char** argv) {
  const std::string sub = argc > 2 ? argv[2] : "";
  if (sub == "track") return runTrack(argc, argv);
  if (sub == "train") return runTrain(argc, argv);
  if (sub == "eval") return runEval(argc, argv);
  if (sub == "twin") return runTwin(argc, argv);
  throw InputError(
      "adacloth upsample: expected a subcommand: track, train, eval or twin (see 'adacloth upsample --help')");
}

}  // namespace adacloth
