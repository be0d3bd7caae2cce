// `adacloth upsample track|train|eval` (docs/upsampling.md): tracked training simulations, harmonic-regularized
// training of the linear operator (+ oscillatory modes), and its evaluation against the baselines.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/args.h"
#include "app/cmd_upsample_mlp.h"
#include "app/commands.h"
#include "app/upsample_options.h"
#include "app/tracked_shot.h"
#include "io/atomic_file.h"
#include "io/error.h"
#include "config/camera_file.h"
#include "render/png.h"
#include "render/rasterizer.h"
#include "upsample/evaluate.h"
#include "upsample/mesh_pair.h"
#include "upsample/model_kind.h"
#include "upsample/patch_mlp.h"
#include "upsample/wrinkle_file.h"
#include "upsample/oscillatory_modes.h"
#include "upsample/training_data.h"
#include "upsample/twin_divergence.h"

namespace adacloth {
namespace {

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
             {"--threads", "", true}, {"--quiet", "-q", false}, {"--perturb-fine", "", true}},
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
  if (auto eps = args.value("--perturb-fine")) options.finePerturbation = parsePositive("--perturb-fine", *eps, true);
  if (options.coarseMesh && options.coarseCells)
    throw InputError("adacloth upsample track: give --coarse-mesh or --coarse-cells, not both");
  options.progress = args.has("--quiet") ? Progress::Mode::Quiet : Progress::Mode::Auto;
  if (auto threads = args.integer("--threads", 1, 1024)) omp_set_num_threads(*threads);
  const Shot shot = loadShot(args.positionals()[0]);
  const TrackedData data = runTrackedShot(shot, options);
  writeTrackedData(data, *args.value("--out"));
  std::fprintf(stderr, "tracked %zu frames: %zu coarse nodes, %ld fine nodes -> %s\n", data.frames.coarse.size(),
               data.coarse.nodes.size(), long(data.frames.fine.front().rows()), args.value("--out")->c_str());
  if (!data.failure.empty()) {
    std::fprintf(stderr, "adacloth: simulation failed: %s; the %zu good frames before it are kept\n",
                 data.failure.c_str(), data.frames.coarse.size());
    return 3;
  }
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

// `upsample train --method wrinkles`: greedy example poses (seed 002); with --validate, the pose count with the lowest
// validation error is kept.
void trainWrinkleModel(const Args& args, const std::vector<TrackedData>& data, const std::vector<TrackedData>& valid) {
  for (const char* linearOnly : {"--K", "--gamma1", "--gammaN", "--c", "--modes", "--prior"})
    if (args.has(linearOnly))
      throw InputError(std::string("adacloth upsample train: ") + linearOnly + " is an option of --method linear");
  WrinkleParams params;
  params.poses = args.integer("--poses", 1, 1000).value_or(params.poses);
  params.metricEdges = args.integer("--metric-edges", 1, 100000).value_or(params.metricEdges);
  if (auto r = args.value("--metric-radius")) params.metricRadius = parsePositive("--metric-radius", *r, false);
  if (auto d = args.value("--rbf-damping")) params.rbfDamping = parsePositive("--rbf-damping", *d, true);
  const std::string base = args.value("--base").value_or("midpoint");
  if (base != "loop" && base != "midpoint")
    throw InputError("adacloth upsample train: --base expects loop or midpoint, got '" + base + "'");
  params.base = base == "loop" ? WrinkleBase::Loop : WrinkleBase::Midpoint;
  const auto start = std::chrono::steady_clock::now();
  WrinkleTraining t = trainWrinkles(makeMeshPair(data.front().coarse, data.front().levels), params, sequencesOf(data),
                                    sequencesOf(valid));
  saveWrinkleModel(t.model, *args.value("--out"));
  std::printf("wrinkles: %zu poses (frames", t.model.poseCount());
  for (const auto& c : t.chosen) std::printf(" %d:%d", c[0], c[1]);
  std::printf("), training error %.3f mm, %.1f s -> %s\n", 1e3 * t.trainingError[t.model.poseCount() - 1],
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              args.value("--out")->c_str());
}

int runTrain(int argc, char** argv) {
  Args args("upsample train",
            {{"--out", "-o", true}, {"--method", "", true}, {"--K", "", true}, {"--gamma1", "", true},
             {"--gammaN", "", true}, {"--c", "", true}, {"--modes", "", true}, {"--prior", "", true},
             {"--validate", "", true}, {"--poses", "", true}, {"--base", "", true}, {"--metric-radius", "", true},
             {"--metric-edges", "", true}, {"--rbf-damping", "", true}, {"--max-residual", "", true}},
            argc, argv, 3);
  if (args.positionals().empty()) throw InputError("adacloth upsample train: expected one or more training folders");
  if (!args.has("--out")) throw InputError("adacloth upsample train: -o FILE is required");
  const std::string method = args.value("--method").value_or("linear");
  if (method == "mlp")
    throw InputError("adacloth upsample train: the patch MLP is trained by tools/train_patch_mlp.py (PyTorch)");
  if (method != "linear" && method != "wrinkles")
    throw InputError("adacloth upsample train: --method expects linear or wrinkles, got '" + method + "'");
  std::vector<std::string> dirs = args.positionals();
  const size_t trainCount = dirs.size();
  for (const std::string& d : splitList(args.value("--validate").value_or(""))) dirs.push_back(d);
  std::vector<TrackedData> all = readAll(dirs);  // same meshes everywhere
  const double maxResidual = maxResidualOption(args);
  const Subdivision sub = subdivide(all.front().coarse, all.front().levels);  // the same for every folder
  for (size_t i = 0; i < all.size(); ++i) {
    const std::vector<char> keep = framesWithin(all[i], sub.midpoint, maxResidual);
    reportDropped(dirs[i], size_t(std::count(keep.begin(), keep.end(), 0)), keep.size(), maxResidual);
    all[i].frames = keptFrames(all[i].frames, keep);
    if (all[i].frames.coarse.empty()) throw InputError(dirs[i] + ": no frame left after --max-residual");
  }
  const std::vector<TrackedData> data(all.begin(), all.begin() + trainCount), valid(all.begin() + trainCount,
                                                                                     all.end());
  if (method == "wrinkles") {
    trainWrinkleModel(args, data, valid);
    return 0;
  }
  for (const char* wrinkleOnly : {"--poses", "--base", "--metric-radius", "--metric-edges", "--rbf-damping"})
    if (args.has(wrinkleOnly))
      throw InputError(std::string("adacloth upsample train: ") + wrinkleOnly + " is an option of --method wrinkles");
  const int modeCount = args.integer("--modes", 0, 16).value_or(0);
  const std::string prior = args.value("--prior").value_or("barycentric");
  if (prior != "barycentric" && prior != "none")
    throw InputError("adacloth upsample train: --prior expects barycentric or none, got '" + prior + "'");
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

// Mean ms per call of `call` over the frames of `data` (round robin, at least 200 calls), on the calling thread.
double msPerFrame(const std::function<void(const TrainingSequence&, size_t)>& call,
                  const std::vector<TrainingSequence>& data) {
  std::vector<std::pair<size_t, size_t>> frames;
  for (size_t s = 0; s < data.size(); ++s)
    for (size_t f = 0; f < data[s].coarse.size(); ++f) frames.emplace_back(s, f);
  const int calls = std::max<int>(200, int(frames.size()));
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call(data[frames[i % frames.size()].first], frames[i % frames.size()].second);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / calls;
}

// One row of the evaluation table: a predictor and its memory. `timed` (the same predictor on its run-time input
// precision, float for the linear operator) is what the ms/frame column measures; empty: `up` itself.
struct EvalRow {
  std::string name;
  Upsampler up;
  double memoryMB;
  std::function<void(const TrainingSequence&, size_t)> timed;
};

size_t frameCount(const std::vector<TrainingSequence>& seqs) {
  size_t n = 0;
  for (const auto& seq : seqs) n += seq.coarse.size();
  return n;
}

// A model must be for the meshes of the data: same coarse and fine node counts.
void checkModelMatches(size_t coarseNodes, size_t fineNodes, const std::string& file, const TrackedData& data,
                       const Subdivision& sub) {
  if (coarseNodes != data.coarse.nodes.size() || fineNodes != sub.fine.nodes.size())
    throw InputError(file + ": the model is for " + std::to_string(coarseNodes) + " -> " + std::to_string(fineNodes) +
                     " nodes, the data has " + std::to_string(data.coarse.nodes.size()) + " -> " +
                     std::to_string(sub.fine.nodes.size()));
}

// A wrinkle or MLP model must be for the data's coarse mesh and levels (same topology, not only sizes).
void checkPairMatches(const MeshPair& pair, const std::string& file, const TrackedData& data) {
  const std::string bad = meshPairMismatch(pair, data.coarse, data.levels);
  if (!bad.empty()) throw InputError(file + ": the model's coarse mesh differs from the track folders' (" + bad + ")");
}

// The rows of one model file, by its kind (the file's magic).
void addModelRows(const std::string& file, const TrackedData& data, const Subdivision& sub,
                  std::vector<EvalRow>& rows, std::vector<std::shared_ptr<const void>>& keep) {
  const std::optional<UpsampleMethod> method = modelFileMethod(file);
  if (method == UpsampleMethod::Wrinkles) {
    auto m = std::make_shared<const WrinkleModel>(loadWrinkleModel(file));
    keep.push_back(m);
    checkPairMatches(m->pair, file, data);
    double floats = 0;
    for (const auto& d : m->poseDisplacements) floats += double(d.size()) + double(m->pair.coarse.edges.size());
    rows.push_back({"wrinkles", [m](const TrainingSequence& s, size_t f) { return m->apply(s.coarse[f]); },
                    floats * 4 / 1e6, nullptr});
    return;
  }
  if (method == UpsampleMethod::Mlp) {
    auto m = std::make_shared<const PatchMlp>(loadPatchMlp(file));
    keep.push_back(m);
    checkPairMatches(m->pair, file, data);
    double parameters = 0;
    for (const PatchMlpLayer& l : m->layers) parameters += double(l.W.size() + l.b.size());
    rows.push_back({"mlp",
                    [m](const TrainingSequence& s, size_t f) {
                      return m->apply(s.coarse[f], s.coarse[frameBefore(f, 1)], s.coarse[frameBefore(f, 2)]);
                    },
                    parameters * 4 / 1e6, nullptr});
    return;
  }
  auto op = std::make_shared<const UpsampleOperator>(loadUpsampleOperator(file));
  keep.push_back(op);
  checkModelMatches(op->coarseCount(), op->fineCount(), file, data, sub);
  auto plain = std::make_shared<UpsampleOperator>(*op);
  plain->modes.clear();
  keep.push_back(plain);
  auto floatApply = [](const UpsampleOperator* o) {
    return [o](const TrainingSequence& s, size_t f) {
      static thread_local Eigen::MatrixX3f in, out;
      in = s.coarse[f].cast<float>();
      o->apply(in, s.time[f], out);
    };
  };
  rows.push_back({"linear", operatorUpsampler(*plain), plain->U.size() * 4.0 / 1e6, floatApply(plain.get())});
  if (!op->modes.empty())
    rows.push_back({"linear+modes", operatorUpsampler(*op),
                    (op->U.size() + 2.0 * op->fineCount() * op->modes.size()) * 4 / 1e6, floatApply(op.get())});
}

// Mean absolute curvature (1/m) of the predicted surface and of the simulated one over the faces the camera sees of
// the simulated one (all faces without a camera), summed over the frames.
std::pair<double, double> curvatureSums(const Upsampler& up, const std::vector<TrainingSequence>& data,
                                        const std::vector<Tri>& faces, const CameraPath* camera) {
  double predicted = 0, simulated = 0;
  for (const TrainingSequence& seq : data)
    for (size_t f = 0; f < seq.coarse.size(); ++f) {
      const std::vector<char> seen =
          camera ? facesInView(faces, seq.fine[f], camera->at(seq.time[f])) : std::vector<char>{};
      predicted += meanAbsoluteCurvature(faces, up(seq, f), seen);
      simulated += meanAbsoluteCurvature(faces, seq.fine[f], seen);
    }
  return {predicted, simulated};
}

// A smooth-shaded render mesh of a triangle surface (faces by node) at positions `x` (m), one colour.
RenderMesh surfaceRenderMesh(const std::vector<Tri>& faces, const Eigen::MatrixX3d& x, const Rgb& color) {
  RenderMesh r;
  for (Eigen::Index n = 0; n < x.rows(); ++n) r.positions.push_back(x.row(n).transpose());
  r.triangles = faces;
  r.normals = vertexNormals(r.positions, r.triangles);
  r.front.assign(faces.size(), color);
  r.back.assign(faces.size(), Rgb(0.6f * color.x(), 0.6f * color.y(), 0.6f * color.z()));
  return r;
}

// Issue 19 (d): frame `frame` of `seq` drawn by `camera` once per surface (the coarse mesh, every row's prediction,
// the fine simulation), side by side in one PNG, each tile labelled by its order in the printed legend.
void writeFigure(const std::string& file, const TrainingSequence& seq, size_t frame, const CameraPath& path,
                 const std::vector<EvalRow>& rows, const Mesh& coarse, const std::vector<Tri>& fineFaces) {
  if (frame >= seq.coarse.size())
    throw InputError("adacloth upsample eval: --figure frame " + std::to_string(frame) + " is past the held-out run (" +
                     std::to_string(seq.coarse.size()) + " frames)");
  // The path's camera direction and distance, aimed at the cloth and zoomed to it (the tiles are narrower than the
  // path's images, which would cut the cloth off).
  Camera camera = path.at(seq.time[frame]);
  const Vec3 centre = seq.fine[frame].colwise().mean().transpose();
  const double radius = (seq.fine[frame].rowwise() - centre.transpose()).rowwise().norm().maxCoeff();
  const double distance = std::max((centre - camera.eye).norm(), 2 * radius);
  camera.eye = centre - distance * camera.forward;
  camera.width = 420;
  camera.height = 560;
  camera.fovYDeg = 2 * std::atan(1.1 * radius / distance) * 180 / M_PI;
  const Rgb cloth = srgb(196, 120, 84);
  std::vector<Tri> coarseFaces;
  for (int f = 0; f < int(coarse.faces.size()); ++f) coarseFaces.push_back(coarse.faceNodes(f));
  std::vector<std::pair<std::string, RenderMesh>> tiles = {
      {"coarse", surfaceRenderMesh(coarseFaces, seq.coarse[frame], cloth)}};
  for (const EvalRow& r : rows) tiles.push_back({r.name, surfaceRenderMesh(fineFaces, r.up(seq, frame), cloth)});
  tiles.push_back({"fine simulation", surfaceRenderMesh(fineFaces, seq.fine[frame], cloth)});
  Image sheet(camera.width * int(tiles.size()), camera.height);
  std::printf("figure %s (frame %zu, t = %.3f s), left to right:", file.c_str(), frame, seq.time[frame]);
  for (size_t t = 0; t < tiles.size(); ++t) {
    RenderMesh mesh = tiles[t].second;
    mesh.wireframe = tiles[t].first == "coarse";
    const Image tile = rasterize({mesh}, camera);
    for (int y = 0; y < tile.height; ++y)
      std::copy(tile.at(0, y), tile.at(0, y) + size_t(tile.width) * 3, sheet.at(int(t) * camera.width, y));
    std::printf(" %s%s", tiles[t].first.c_str(), t + 1 < tiles.size() ? "," : "\n");
  }
  writePng(sheet, file);
}

// Prints the table of every row (error on both sets, ratio to barycentric, curvature in view, memory, time) and
// returns its figures as JSON objects keyed by method. `rows` starts with barycentric, the ratios' reference.
nlohmann::ordered_json evaluateRows(const std::vector<EvalRow>& rows, const std::vector<TrainingSequence>& trainSeqs,
                                    const std::vector<TrainingSequence>& heldSeqs, const std::vector<Tri>& faces,
                                    const CameraPath* camera) {
  nlohmann::ordered_json json;
  for (const char* key : {"heldout", "training", "curvature_ratio", "ms_per_frame", "memory_mb"})
    json[key] = nlohmann::ordered_json::object();
  std::printf("%-14s %14s %14s %8s %10s %12s %10s\n", "method", "training (mm)", "held-out (mm)", "x bary",
              "curvature", "memory (MB)", "ms/frame");
  double barycentric = 0;
  for (const EvalRow& r : rows) {
    const UpsamplingError et = upsamplingError(r.up, trainSeqs), eh = upsamplingError(r.up, heldSeqs);
    if (r.name == "barycentric") barycentric = eh.mean;
    const auto [pred, sim] = curvatureSums(r.up, heldSeqs, faces, camera);
    const double t =
        msPerFrame(r.timed ? r.timed : [&](const TrainingSequence& s, size_t f) { r.up(s, f); }, heldSeqs);
    std::printf("%-14s %14.3f %14.3f %8.2f %10.2f %12.2f %10.3f\n", r.name.c_str(), 1e3 * et.mean, 1e3 * eh.mean,
                eh.mean / barycentric, pred / sim, r.memoryMB, t);
    json["heldout"][r.name] = eh.mean;
    json["training"][r.name] = et.mean;
    json["curvature_ratio"][r.name] = pred / sim;
    json["ms_per_frame"][r.name] = t;
    json["memory_mb"][r.name] = r.memoryMB;
  }
  return json;
}

int runEval(int argc, char** argv) {
  Args args("upsample eval",
            {{"--training", "", true}, {"--heldout", "", true}, {"--json", "", true}, {"--camera", "", true},
             {"--figure", "", true}, {"--figure-frame", "", true}},
            argc, argv, 3);
  if (args.positionals().empty())
    throw InputError("adacloth upsample eval: expected one or more model files (linear, wrinkles or mlp)");
  if (!args.has("--training") || !args.has("--heldout"))
    throw InputError("adacloth upsample eval: --training DIR[,DIR...] and --heldout DIR[,DIR...] are required");
  if (args.has("--figure") && !args.has("--camera"))
    throw InputError("adacloth upsample eval: --figure needs --camera FILE");
  const std::optional<int> figureFrame = args.integer("--figure-frame", 0, 1000000);
  omp_set_num_threads(1);
  Eigen::setNbThreads(1);
  std::vector<std::string> dirs = splitList(*args.value("--training"));
  const size_t trainCount = dirs.size();
  for (const std::string& d : splitList(*args.value("--heldout"))) dirs.push_back(d);
  const std::vector<TrackedData> all = readAll(dirs);  // same meshes everywhere
  const std::vector<TrackedData> training(all.begin(), all.begin() + trainCount), heldout(all.begin() + trainCount,
                                                                                          all.end());
  const Subdivision sub = subdivide(all.front().coarse, all.front().levels);
  std::optional<CameraPath> camera;
  if (auto file = args.value("--camera")) camera = loadCameraPath(*file);
  std::vector<EvalRow> rows = {
      {"barycentric", sparseUpsampler(sub.midpoint), sub.midpoint.nonZeros() * 12.0 / 1e6, nullptr},
      {"loop", sparseUpsampler(sub.loop), sub.loop.nonZeros() * 12.0 / 1e6, nullptr}};
  std::vector<std::shared_ptr<const void>> keep;  // the models the rows refer to
  for (const std::string& file : args.positionals()) addModelRows(file, all.front(), sub, rows, keep);
  std::vector<Tri> faces;
  for (int f = 0; f < int(sub.fine.faces.size()); ++f) faces.push_back(sub.fine.faceNodes(f));
  const std::vector<TrainingSequence> trainSeqs = sequencesOf(training), heldSeqs = sequencesOf(heldout);
  nlohmann::ordered_json json = evaluateRows(rows, trainSeqs, heldSeqs, faces, camera ? &*camera : nullptr);
  std::printf("M %zu coarse nodes, N %zu fine nodes, %zu training + %zu held-out frames; curvature = mean absolute "
              "curvature / the fine simulation's over %s\n",
              all.front().coarse.nodes.size(), sub.fine.nodes.size(), frameCount(trainSeqs), frameCount(heldSeqs),
              camera ? "the faces in view" : "all faces");
  json["coarse_nodes"] = all.front().coarse.nodes.size();
  json["fine_nodes"] = sub.fine.nodes.size();
  json["models"] = args.positionals();
  json["camera"] = args.value("--camera").value_or("");
  json["training_sets"] = splitList(*args.value("--training"));
  json["heldout_sets"] = splitList(*args.value("--heldout"));
  if (auto file = args.value("--json")) writeFileAtomically(*file, json.dump(2) + "\n");
  if (auto file = args.value("--figure"))
    writeFigure(*file, heldSeqs.front(), size_t(figureFrame.value_or(int(heldSeqs.front().coarse.size()) - 1)),
                *camera, rows, all.front().coarse, faces);
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
  if (sub == "mlp-data") return runUpsampleMlpData(argc, argv);
  throw InputError("adacloth upsample: expected a subcommand: track, train, eval, twin or mlp-data (see 'adacloth "
                   "upsample --help')");
}

}  // namespace adacloth
