#include "config/shot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "config/obstacle_config.h"
#include "config/material_presets.h"
#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

using config::Json;

[[noreturn]] void fail(const Shot& shot, const std::string& ptr, const std::string& what) {
  throw InputError(shot.file.string() + ": " + ptr + ": " + what);
}

Vec2 toVec2(const Json& j) { return Vec2(j[0].get<double>(), j[1].get<double>()); }
Vec3 toVec3(const Json& j) { return Vec3(j[0].get<double>(), j[1].get<double>(), j[2].get<double>()); }

int wholeNumber(const Shot& shot, const Json& j, const std::string& ptr) {
  double x = j.get<double>();
  if (x != std::floor(x) || x > 1e7) fail(shot, ptr, "expected a whole number, got " + j.dump());
  return int(x);
}

// The most faces a generated cloth may have. Its node and corner numbers are 32-bit, which a grid of 10^7 x 10^7
// cells (the largest whole numbers taken) would overflow; and a tenth of this already needs more memory than a
// workstation has. Refused at once, naming the key, rather than after minutes of allocating.
constexpr double kMaxGeneratedFaces = 1e8;

void checkGeneratedFaces(const Shot& shot, const std::string& ptr, double faces) {
  if (faces <= kMaxGeneratedFaces) return;
  char count[32];
  std::snprintf(count, sizeof count, "%.0f", faces);
  fail(shot, ptr, std::string("expected a cloth of at most 100,000,000 faces, got ") + count +
                      " (fewer cells or rings)");
}

MeshSpec readMeshSpec(const Shot& shot, const Json& j, const std::string& ptr) {
  MeshSpec spec;
  if (j.is_string()) {
    spec.type = MeshSpec::Type::File;
    spec.file = j.get<std::string>();
    return spec;
  }
  int count = int(j.contains("grid")) + int(j.contains("tube")) + int(j.contains("disc"));
  if (count != 1)
    fail(shot, ptr, "expected exactly one generator (\"grid\", \"tube\" or \"disc\"), got " + std::to_string(count));
  if (j.contains("grid")) {
    const Json& g = j["grid"];
    spec.type = MeshSpec::Type::Grid;
    spec.size = toVec2(g["size"]);
    spec.cellsX = wholeNumber(shot, g["cells"][0], ptr + "/grid/cells/0");
    spec.cellsY = wholeNumber(shot, g["cells"][1], ptr + "/grid/cells/1");
    checkGeneratedFaces(shot, ptr + "/grid/cells", 2.0 * spec.cellsX * spec.cellsY);
  } else if (j.contains("tube")) {
    const Json& t = j["tube"];
    spec.type = MeshSpec::Type::Tube;
    spec.radius = t["radius"].get<double>();
    spec.length = t["length"].get<double>();
    spec.cellsAround = t["cells_around"].get<int>();
    spec.cellsAlong = t["cells_along"].get<int>();
    checkGeneratedFaces(shot, ptr + "/tube", 2.0 * spec.cellsAround * spec.cellsAlong);
  } else {
    const Json& d = j["disc"];
    spec.type = MeshSpec::Type::Disc;
    spec.radius = d["radius"].get<double>();
    spec.rings = d["rings"].get<int>();
    checkGeneratedFaces(shot, ptr + "/disc/rings", 6.0 * spec.rings * spec.rings);
  }
  return spec;
}

bool isFileNameSafe(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

// The keys of a material object that carry a value (everything but `preset`), applied over `m`.
void applyMaterialKeys(const Json& j, MaterialParams& m) {
  if (j.contains("density")) m.density = j["density"].get<double>();
  if (j.contains("stretch")) m.stretch = j["stretch"].get<double>();
  if (j.contains("shear")) m.shear = j["shear"].get<double>();
  if (j.contains("bending")) m.bending = j["bending"].get<double>();
  if (j.contains("damping")) m.damping = j["damping"].get<double>();
  if (j.contains("membrane"))
    m.membrane = j["membrane"].get<std::string>() == "triangles" ? MaterialParams::Membrane::Triangles
                                                                 : MaterialParams::Membrane::Springs;
}

MaterialParams loadMaterialPreset(const Shot& shot, const std::string& name, const std::string& ptr) {
  auto file = findMaterialPreset(name, shot.file);
  if (!file) {
    auto names = materialPresetNames(shot.file);
    auto guess = config::didYouMean(name, names);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    fail(shot, ptr, "unknown material preset \"" + name + "\"" + (guess ? " (did you mean \"" + *guess + "\"?)" : "") +
                        "; presets: " + (list.empty() ? "none found" : list));
  }
  config::Source source{file->string(), file->parent_path()};
  Json preset = config::resolve(config::parseJson(readFile(*file), file->string()), materialObjectSchema(), source);
  if (preset.contains("preset"))
    throw InputError(file->string() + ": /preset: a preset file cannot name another preset");
  MaterialParams m;
  applyMaterialKeys(preset, m);
  return m;
}

// `material` is a preset name or an object whose keys override its optional `preset` (or the built-in defaults).
// The resolved shot gets the complete object, so OUT/shot.resolved.json shows every value used.
MaterialParams readMaterial(const Shot& shot, Json& j, const std::string& ptr) {
  MaterialParams m;
  std::string presetPtr = ptr + (j.is_string() ? "" : "/preset");
  if (j.is_string()) j = Json{{"preset", j.get<std::string>()}};
  if (j.contains("preset")) m = loadMaterialPreset(shot, j["preset"].get<std::string>(), presetPtr);
  applyMaterialKeys(j, m);
  m.preset = j.value("preset", std::string());
  Json full = Json::object();
  if (!m.preset.empty()) full["preset"] = m.preset;
  full["density"] = m.density;
  full["stretch"] = m.stretch;
  full["shear"] = m.shear;
  full["bending"] = m.bending;
  full["damping"] = m.damping;
  full["membrane"] = m.membrane == MaterialParams::Membrane::Triangles ? "triangles" : "springs";
  j = full;
  return m;
}

std::vector<HandleKey> readMotion(const Shot& shot, const Json& j, const std::string& ptr) {
  std::vector<HandleKey> keys;
  for (size_t i = 0; i < j.size(); ++i) {
    keys.push_back({j[i]["time"].get<double>(), toVec3(j[i]["translate"])});
    if (i > 0 && keys[i].time <= keys[i - 1].time)
      fail(shot, ptr + "/" + std::to_string(i) + "/time", "expected key times in increasing order");
  }
  return keys;
}

HandleSpec readHandle(const Shot& shot, const Json& j, const std::string& ptr) {
  HandleSpec h;
  h.place = ptr;
  int count = int(j.contains("nodes")) + int(j.contains("region")) + int(j.contains("points"));
  if (count != 1)
    fail(shot, ptr, "expected exactly one of \"nodes\", \"region\" or \"points\", got " + std::to_string(count));
  if (j.contains("bind_to") && j.contains("motion"))
    fail(shot, ptr + "/motion", "a handle bound to an obstacle (\"bind_to\") follows its surface and cannot also "
                                "have a \"motion\"; remove one of them");
  if (j.contains("nodes")) {
    h.select = HandleSpec::Select::Nodes;
    for (size_t i = 0; i < j["nodes"].size(); ++i)
      h.nodes.push_back(wholeNumber(shot, j["nodes"][i], ptr + "/nodes/" + std::to_string(i)));
  } else if (j.contains("region")) {
    h.select = HandleSpec::Select::Region;
    h.regionMin = toVec2(j["region"]["min"]);
    h.regionMax = toVec2(j["region"]["max"]);
    if ((h.regionMax.array() < h.regionMin.array()).any())
      fail(shot, ptr + "/region", "expected max >= min in both coordinates");
  } else {
    h.select = HandleSpec::Select::Points;
    for (const Json& p : j["points"]) h.points.push_back(toVec3(p));
  }
  if (j.contains("motion")) h.motion = readMotion(shot, j["motion"], ptr + "/motion");
  if (j.contains("bind_to")) h.bindTo = j["bind_to"].get<std::string>();
  h.maxDistance = j["max_distance"].get<double>();
  h.bindSmoothing = j["bind_smoothing"].get<double>();
  h.bindRigidity = j["bind_rigidity"].get<double>();
  return h;
}

// `remeshing`: false (fixed mesh), true (every default, written back so shot.resolved.json shows them) or an object.
std::optional<SizingParams> readRemeshing(const Shot& shot, Json& j, const std::string& ptr) {
  if (j.is_boolean()) {
    if (!j.get<bool>()) return std::nullopt;
    j = defaultRemeshing();
  }
  SizingParams sizing;
  sizing.refineAngle = j["refine_angle"].get<double>();
  sizing.refineCompression = j["refine_compression"].get<double>();
  sizing.refineVelocity = j["refine_velocity"].get<double>();
  sizing.sizeMin = j["size"][0].get<double>();
  sizing.sizeMax = j["size"][1].get<double>();
  sizing.aspectMin = j["aspect_min"].get<double>();
  if (sizing.sizeMin > sizing.sizeMax)
    fail(shot, ptr + "/size", "expected [min, max] with min <= max, got " + j["size"].dump());
  return sizing;
}

// `view`: view-dependent refinement; only meaningful on a remeshed cloth (the camera is checked by parseShot).
ViewParams readView(const Shot& shot, const Json& j, const std::string& ptr,
                   const std::optional<SizingParams>& remeshing) {
  if (!remeshing)
    fail(shot, ptr, "view-dependent refinement needs adaptive remeshing: set \"remeshing\" on this cloth or "
                    "remove \"view\"");
  ViewParams v;
  v.fOut = j["f_out"].get<double>();
  v.margin = j["margin"].get<double>();
  v.anticipationFrames = j["anticipation"]["frames"].get<int>();
  v.fullFrames = j["anticipation"]["full_frames"].get<int>();
  v.cutRamp = j["anticipation"]["cut_ramp"].get<bool>();
  v.minPixels = j["min_pixels"].get<double>();
  v.backface = j["backface"].get<bool>();
  v.fBack = j["f_back"].get<double>();
  v.backRamp = j["back_ramp"].get<double>();
  v.occlusion = j["occlusion"].get<bool>();
  v.silhouetteThreshold = j["silhouette_threshold"].get<double>();
  v.memorySeconds = j["memory"].get<double>();
  v.keepHeld = j["keep_held"].get<bool>();
  if (v.fullFrames > v.anticipationFrames)
    fail(shot, ptr + "/anticipation/full_frames", "expected at most anticipation/frames (" +
                                                      std::to_string(v.anticipationFrames) + "), got " +
                                                      std::to_string(v.fullFrames));
  return v;
}

// `upsample`: the operator path is already absolute (resolved against the shot's folder); it is loaded with the scene.
UpsampleSpec readUpsample(const Shot& shot, const Json& j, const std::string& ptr) {
  UpsampleSpec u;
  u.method = j["method"].get<std::string>();
  u.operatorFile = j["operator"].get<std::string>();
  u.blendLo = j["blend"][0].get<double>();
  u.blendHi = j["blend"][1].get<double>();
  u.smoothingPasses = j["smoothing_passes"].get<int>();
  if (!(u.blendHi > u.blendLo))
    fail(shot, ptr + "/blend", "expected [lo, hi] with lo < hi, got " + j["blend"].dump());
  return u;
}

// A cloth with `upsample` writes <name>_out_<frame>.obj, which would overwrite the frames of a cloth named
// <name>_out.
void checkUpsampledNames(const Shot& shot) {
  for (const ClothSpec& a : shot.cloths)
    for (const ClothSpec& b : shot.cloths)
      if (a.upsample && b.name == a.name + "_out")
        fail(shot, b.place + "/name", "the name \"" + b.name + "\" clashes with the upsampled output files of "
                                      "cloth \"" + a.name + "\" (" + a.name + "_out_<frame>.obj); rename it");
}

// `strain_limit.stiffening` and `onset` when the shot gives no stiffening: the limit in the solve, 100 (at most
// 200 kN/m) from 0.1 (0.25 on soft cloth), for a tight limit (at most kTightStrainLimit) on cloth that no handle
// binds to a body, where the passes alone leave edges far past it (held at two corners at 1.05: a silk flag
// 1.28-1.78 without, 1.05 with it; ARCSim's soft knit flag 1.35-1.51, and still 1.35 with 30 from 0.5, 1.16 with
// it); none elsewhere: a garment's stretch is the body's doing, and there it only made the solve 2-3x slower, and at
// looser limits it cost a curtain 36 % of its frame for nothing (docs/benchmarks.md). `onset` keeps its usual default
// (0.5) when stiffening is off.
//
// Why the onset is early: below it a face stretches at the cloth's own stiffness, a hundredth of what it meets past
// it, and on ARCSim's flag that soft band made the cloth crumple finely: an onset of 0.25 instead of 0.1 left 1.6x
// the nodes in cotton, 1.7x in silk and 1.3x in denim, and 0.1 held the limit as well or better (silk: p99 1.051-1.057
// against 1.083). Why not on soft cloth (`stretch` under kEarlyOnsetMinStretch): at 300 N/m (a jersey, a heavy knit)
// the early onset saved few or no nodes and let the limit go (the jersey's p99 1.068-1.106 against 1.056; the knit's
// largest edge past 1.2 in two runs of six against none). Why the multiple is capped at kMaxDefaultModulus: denim
// (8,000 N/m) held ARCSim's flag as well at 25 (200 kN/m, cotton's 100) as at 100, with 1.50x ARCSim's nodes
// against 1.79x. docs/benchmarks.md, "An earlier onset".
StrainLimitParams defaultStiffening(const std::vector<HandleSpec>& handles, double max, double stretchStiffness) {
  constexpr double kTightStrainLimit = 1.05;
  constexpr double kEarlyOnsetMinStretch = 500;  // N/m: between the 300 measured worse and the 800 measured better
  constexpr double kMaxDefaultModulus = 2e5;     // N/m: the stiffening's modulus, 100 x cotton's stretch
  const bool bound =
      std::any_of(handles.begin(), handles.end(), [](const HandleSpec& h) { return !h.bindTo.empty(); });
  StrainLimitParams p;
  if (max <= kTightStrainLimit + 1e-12 && !bound) {
    p.stiffening = std::min(100.0, kMaxDefaultModulus / stretchStiffness);
    p.onset = stretchStiffness >= kEarlyOnsetMinStretch ? 0.1 : 0.25;
  }
  return p;
}

ClothSpec readCloth(Shot& shot, Json& j, size_t index) {
  ClothSpec cloth;
  cloth.place = "/cloths/" + std::to_string(index);
  if (!j.contains("name")) j["name"] = "cloth" + std::to_string(index);
  cloth.name = j["name"].get<std::string>();
  if (!isFileNameSafe(cloth.name))
    fail(shot, cloth.place + "/name",
         "expected 1 to 64 letters, digits, '_' or '-' (it names output files), got \"" + cloth.name + "\"");
  cloth.mesh = readMeshSpec(shot, j["mesh"], cloth.place + "/mesh");
  const Json& t = j["transform"];
  cloth.transform.translate = toVec3(t["translate"]);
  cloth.transform.rotateDeg = toVec3(t["rotate_deg"]);
  cloth.transform.scale = t["scale"].get<double>();
  cloth.material = readMaterial(shot, j["material"], cloth.place + "/material");
  for (size_t i = 0; i < j["handles"].size(); ++i)
    cloth.handles.push_back(readHandle(shot, j["handles"][i], cloth.place + "/handles/" + std::to_string(i)));
  if (j.contains("strain_limit")) {
    const Json& s = j["strain_limit"];
    const double max = s["max"].get<double>();
    StrainLimitParams& limit = cloth.strainLimit;
    limit = s.contains("stiffening") ? StrainLimitParams()
                                        : defaultStiffening(cloth.handles, max, cloth.material.stretch);
    limit.enabled = true;
    limit.min = s["min"].get<double>();
    limit.max = max;
    limit.iterations = s["iterations"].get<int>();
    limit.tethers = s["tethers"].get<bool>();
    if (s.contains("stiffening")) limit.stiffening = s["stiffening"].get<double>();
    if (s.contains("onset")) limit.onset = s["onset"].get<double>();
  }
  cloth.remeshing = readRemeshing(shot, j["remeshing"], cloth.place + "/remeshing");
  if (j.contains("view")) cloth.view = readView(shot, j["view"], cloth.place + "/view", cloth.remeshing);
  if (j.contains("upsample")) cloth.upsample = readUpsample(shot, j["upsample"], cloth.place + "/upsample");
  return cloth;
}

// Every `bind_to` names a mesh obstacle of the shot (the obstacles are read after the cloths).
void checkBindTargets(const Shot& shot) {
  std::vector<std::string> names;
  for (const ObstacleSpec& o : shot.obstacles) names.push_back(o.name);
  for (const ClothSpec& cloth : shot.cloths)
    for (const HandleSpec& h : cloth.handles) {
      if (h.bindTo.empty()) continue;
      auto found = std::find(names.begin(), names.end(), h.bindTo);
      if (found == names.end()) {
        auto guess = config::didYouMean(h.bindTo, names);
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        fail(shot, h.place + "/bind_to", "unknown obstacle \"" + h.bindTo + "\"" +
                                             (guess ? " (did you mean \"" + *guess + "\"?)" : "") + "; obstacles: " +
                                             (list.empty() ? "none in this shot" : list));
      }
      if (shot.obstacles[found - names.begin()].shape == ObstacleSpec::Shape::Ground)
        fail(shot, h.place + "/bind_to", "obstacle \"" + h.bindTo + "\" is a ground plane; a handle can be bound "
                                         "only to a mesh obstacle (file, sphere, box or sequence)");
    }
}

// The top-level dynamics keys (gravity, wind, the linear solve, the blow-up guard).
void readDynamics(StepSettings& d, const Json& r) {
  d.gravity = toVec3(r["gravity"]);
  // The names come from solverName / preconditionerName, the same table the schema's choices and defaults use.
  const std::string solver = r["solver"].get<std::string>();
  for (StepSolver s : {StepSolver::Auto, StepSolver::Pcg, StepSolver::Direct, StepSolver::KangCho, StepSolver::CG})
    if (solverName(s) == solver) d.solver = s;
  d.pcg.tolerance = r["solver_tolerance"].get<double>();
  d.pcg.maxIterations = r["solver_max_iterations"].get<int>();
  const std::string preconditioner = r["solver_preconditioner"].get<std::string>();
  using P = PcgSettings::Preconditioner;
  for (P p : {P::Auto, P::BlockJacobi, P::Multigrid, P::Ssor})
    if (preconditionerName(p) == preconditioner) d.pcg.preconditioner = p;
  d.iterations = r["iterations"].get<int>();
  d.cgTolerance = r["cg_tolerance"].get<double>();
  d.maxSpeed = r["max_speed"].get<double>();
  const Json& w = r["wind"];
  d.wind = {toVec3(w["velocity"]), w["density"].get<double>(), w["drag"].get<double>(), w["lift"].get<double>()};
}

}  // namespace

Shot parseShot(const std::string& text, const fs::path& file) {
  Shot shot;
  shot.file = file;
  config::Source source{file.string(), file.parent_path().empty() ? fs::path(".") : file.parent_path()};
  Json json = config::parseJson(text, file.string());
  shot.resolved = config::resolve(json, shotSchema(), source);
  Json& r = shot.resolved;
  if (!r.contains("name")) {
    Json named = Json::object();
    named["name"] = file.stem().string();
    named.update(r);
    r = named;
  }
  shot.name = r["name"].get<std::string>();
  shot.fps = r["fps"].get<double>();
  shot.frames = r["frames"].get<int>();
  std::set<std::string> names;
  for (size_t i = 0; i < r["cloths"].size(); ++i) {
    shot.cloths.push_back(readCloth(shot, r["cloths"][i], i));
    if (!names.insert(shot.cloths.back().name).second)
      fail(shot, "/cloths/" + std::to_string(i) + "/name",
           "the name \"" + shot.cloths.back().name + "\" is used by another cloth; names must be unique");
  }
  checkUpsampledNames(shot);
  if (r.contains("camera")) shot.camera = fs::path(r["camera"].get<std::string>());
  for (const ClothSpec& cloth : shot.cloths)
    if (cloth.view && !shot.camera)
      fail(shot, cloth.place + "/view", "view-dependent refinement needs the shot's camera: add \"camera\" (a "
                                        "camera path file) or remove \"view\"");
  shot.prerollFrames = r["preroll_frames"].get<int>();
  readCollisionConfig(shot, r);
  checkBindTargets(shot);
  shot.stepsPerFrame = r["steps_per_frame"].get<int>();
  shot.maxObstacleStep = r["max_obstacle_step"].get<double>();
  shot.checkpoint.every = r["checkpoint"]["every"].get<int>();
  shot.checkpoint.keep = r["checkpoint"]["keep"].get<int>();
  readDynamics(shot.dynamics, r);
  return shot;
}

Shot loadShot(const fs::path& file) {
  return parseShot(readFile(file), file);
}

}  // namespace adacloth
