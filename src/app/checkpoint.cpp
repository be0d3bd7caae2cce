#include "app/checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>

#include "dynamics/multigrid.h"
#include "io/atomic_file.h"
#include "io/binary_stream.h"
#include "io/error.h"

namespace adacloth {
namespace {

const std::string kMagic = "ADACKPT\n";
constexpr uint32_t kVersion = 5;  // 4: solver auto's mode and counts; 5: bound handles' rigid rest places
constexpr size_t kHeaderBytes = 8 + 4 + 8 + 4 + 8 + 8;

// ---- writing -------------------------------------------------------------------------------------------------

void writeMesh(BinaryWriter& out, const Mesh& mesh) {
  out.u64(mesh.verts.size());
  for (const Vert& v : mesh.verts) out.vec2(v.u), out.i32(v.node);
  out.u64(mesh.nodes.size());
  for (const Node& n : mesh.nodes) out.vec3(n.x), out.vec3(n.v);
  out.u64(mesh.faces.size());
  for (const Face& f : mesh.faces)
    for (int v : f.verts) out.i32(v);
}

void writeHandle(BinaryWriter& out, const HandleState& h) {
  out.ints(h.nodes);
  out.vec3s(h.anchors);
  out.vec2s(h.materialPoints);
  out.u64(h.bindings.size());
  for (const SurfaceBinding& b : h.bindings) {
    out.i32(b.at.face);
    out.vec3(b.at.bary);
    out.f64(b.at.distance);
    out.u64(b.captures.size());
    for (const BindCapture& c : b.captures) {
      out.i32(c.face);
      out.f64(c.weight);
      out.vec3(c.bary);
      out.vec3(c.offset);
    }
  }
  out.vec3s(h.rigidRest);
}

void writeSolverCache(BinaryWriter& out, const SolverCache& cache) {
  out.vec3s(cache.lastDv);
  out.chars(cache.lastDvKnown);
  out.vec3s(cache.prevDv);
  out.chars(cache.prevDvKnown);
  out.i32(cache.multigridBaseIterations);
  out.u8(cache.multigridStale ? 1 : 0);
  out.u8(cache.multigrid ? 1 : 0);
  if (cache.multigrid) cache.multigrid->save(out);
  const AutoSolverChoice& choice = cache.autoChoice;
  out.u8(choice.direct ? 1 : 0);
  out.u8(choice.checking ? 1 : 0);
  out.i32(choice.directFrames);
  out.i32(choice.iterations);
  out.i32(choice.solves);
  out.i32(choice.freeNodes);
  out.u8(choice.blockJacobi ? 1 : 0);
}

// The memory's grid is the one buildScene makes from the shot's mesh: only the cells' state is saved.
void writeViewMemory(BinaryWriter& out, const std::optional<ViewMemory>& memory) {
  out.u8(memory ? 1 : 0);
  if (!memory) return;
  std::vector<double> tensors;
  for (const Mat2& m : memory->sizing) tensors.insert(tensors.end(), {m(0, 0), m(0, 1), m(1, 1)});
  out.doubles(tensors);
  out.doubles(memory->awayAt);
}

void writeCloth(BinaryWriter& out, const Cloth& cloth) {
  out.text(cloth.spec.name);
  writeMesh(out, cloth.mesh);
  out.f64(cloth.dynamics.time);
  out.u64(cloth.dynamics.handles.size());
  for (const HandleState& h : cloth.dynamics.handles) writeHandle(out, h);
  writeSolverCache(out, cloth.dynamics.solver);
  writeViewMemory(out, cloth.viewMemory);
}

// ---- reading -------------------------------------------------------------------------------------------------

// A mesh from its source of truth, with everything derived rebuilt by the code that derived it in the run.
Mesh readMesh(BinaryReader& in) {
  std::vector<Vec2> u(in.count("verts", 20));
  std::vector<int> vertNode(u.size());
  for (size_t i = 0; i < u.size(); ++i) u[i] = in.vec2("vert"), vertNode[i] = in.i32("vert");
  std::vector<Vec3> x(in.count("nodes", 48)), v(x.size());
  for (size_t i = 0; i < x.size(); ++i) x[i] = in.vec3("node"), v[i] = in.vec3("node");
  std::vector<Tri> faces(in.count("faces", 12));
  for (Tri& f : faces)
    for (int& k : f) k = in.i32("face");
  for (int n : vertNode)
    if (n < 0 || size_t(n) >= x.size()) in.fail("a vert's node is out of range");
  for (const Tri& f : faces)
    for (int k : f)
      if (k < 0 || size_t(k) >= u.size()) in.fail("a face's vert is out of range");
  Mesh mesh;
  try {
    mesh = makeMesh(u, vertNode, x, faces);
  } catch (const MeshError& e) {
    in.fail(std::string("the mesh is not valid: ") + e.what());
  }
  for (size_t i = 0; i < v.size(); ++i) mesh.nodes[i].v = v[i];
  const std::vector<std::string> problems = validate(mesh);
  if (!problems.empty()) in.fail("the mesh is not valid: " + problems.front());
  return mesh;
}

// A handle's state over the fresh one of the same spec (whose surface it keeps), checked against the mesh.
void readHandle(BinaryReader& in, HandleState& h, size_t nodes) {
  h.nodes = in.ints("handle nodes");
  for (size_t k = 0; k < h.nodes.size(); ++k)
    if (h.nodes[k] < 0 || size_t(h.nodes[k]) >= nodes || (k > 0 && h.nodes[k] <= h.nodes[k - 1]))
      in.fail("a handle's nodes are out of range or not sorted");
  h.anchors = in.vec3s("handle anchors");
  h.materialPoints = in.vec2s("handle material points");
  h.bindings.assign(in.count("handle bindings", 4 + 24 + 8 + 8), SurfaceBinding());
  const size_t faces = h.surface ? h.surface->faces.size() : 0;
  for (SurfaceBinding& b : h.bindings) {
    b.at.face = in.i32("binding");
    b.at.bary = in.vec3("binding");
    b.at.distance = in.f64("binding");
    b.captures.assign(in.count("binding captures", 4 + 8 + 24 + 24), BindCapture());
    for (BindCapture& c : b.captures) {
      c.face = in.i32("binding capture");
      c.weight = in.f64("binding capture");
      c.bary = in.vec3("binding capture");
      c.offset = in.vec3("binding capture");
      if (c.face < 0 || size_t(c.face) >= faces) in.fail("a handle binding's face is out of range of its surface");
    }
    if (b.at.face < 0 || size_t(b.at.face) >= faces || b.captures.empty())
      in.fail("a handle binding's face is out of range of its surface");
  }
  h.rigidRest = in.vec3s("handle rigid rest places");
  const size_t expected = h.nodes.size();
  if (h.surface ? h.bindings.size() != expected || !h.anchors.empty()
                : h.anchors.size() != expected || !h.bindings.empty())
    in.fail("a handle's anchors or bindings do not match its nodes");
  const bool rigid = h.surface && h.spec.bindRigidity > 0;
  if (h.rigidRest.size() != (rigid ? expected : 0))
    in.fail("a handle's rigid rest places do not match its nodes and its bind_rigidity");
}

void readSolverCache(BinaryReader& in, SolverCache& cache, size_t nodes) {
  cache.clear();
  cache.lastDv = in.vec3s("solver last dv");
  cache.lastDvKnown = in.chars("solver last dv");
  cache.prevDv = in.vec3s("solver previous dv");
  cache.prevDvKnown = in.chars("solver previous dv");
  auto fits = [nodes](const auto& dv, const std::vector<char>& known) {
    return (dv.empty() || dv.size() == nodes) && known.size() == dv.size();
  };
  if (!fits(cache.lastDv, cache.lastDvKnown) || !fits(cache.prevDv, cache.prevDvKnown))
    in.fail("the solver's dv history does not match the mesh");
  cache.multigridBaseIterations = in.i32("solver multigrid iterations");
  cache.multigridStale = in.u8("solver multigrid stale") != 0;
  if (in.u8("solver multigrid")) {
    cache.multigrid = std::make_shared<Multigrid>();
    cache.multigrid->load(in);
  }
  AutoSolverChoice& choice = cache.autoChoice;
  choice.direct = in.u8("solver auto mode") != 0;
  choice.checking = in.u8("solver auto check") != 0;
  choice.directFrames = in.i32("solver auto frames");
  choice.iterations = in.i32("solver auto iterations");
  choice.solves = in.i32("solver auto solves");
  choice.freeNodes = in.i32("solver auto free nodes");
  choice.blockJacobi = in.u8("solver auto preconditioner") != 0;
  if (choice.iterations < 0 || choice.solves < 0 || choice.freeNodes < 0 || choice.directFrames < 0 ||
      (choice.checking && !choice.direct))
    in.fail("solver auto's counts are not valid");
}

void readViewMemory(BinaryReader& in, std::optional<ViewMemory>& memory) {
  if ((in.u8("view memory") != 0) != memory.has_value()) in.fail("the view memory does not match the shot's");
  if (!memory) return;
  const std::vector<double> tensors = in.doubles("view memory sizing");
  std::vector<double> awayAt = in.doubles("view memory times");
  if (tensors.size() != 3 * memory->sizing.size() || awayAt.size() != memory->sizing.size())
    in.fail("the view memory's grid differs from the shot's");
  for (size_t c = 0; c < memory->sizing.size(); ++c)
    memory->sizing[c] << tensors[3 * c], tensors[3 * c + 1], tensors[3 * c + 1], tensors[3 * c + 2];
  memory->awayAt = std::move(awayAt);
}

void readCloth(BinaryReader& in, Cloth& cloth) {
  const std::string name = in.text("cloth name");
  if (name != cloth.spec.name) in.fail("cloth \"" + name + "\" where the shot has \"" + cloth.spec.name + "\"");
  cloth.mesh = readMesh(in);
  cloth.dynamics.time = in.f64("cloth time");
  if (in.count("handles", 24) != cloth.dynamics.handles.size())
    in.fail("cloth \"" + name + "\": the number of handles differs from the shot's");
  for (HandleState& h : cloth.dynamics.handles) readHandle(in, h, cloth.mesh.nodes.size());
  readSolverCache(in, cloth.dynamics.solver, cloth.mesh.nodes.size());
  readViewMemory(in, cloth.viewMemory);
  // Masses, springs and strain limits from the restored mesh and handles, as after a remesh in the run.
  rebuildDynamics(cloth);
}

struct Header {
  uint64_t fingerprint = 0;
  int frame = 0;
};

// Checks magic, version, size and checksum; the payload starts at kHeaderBytes.
Header readHeader(const std::string& bytes, const std::string& file) {
  if (bytes.size() < kHeaderBytes || bytes.compare(0, kMagic.size(), kMagic) != 0)
    throw InputError(file + ": not an adacloth checkpoint");
  BinaryReader in(bytes, file, kMagic.size());
  const uint32_t version = in.u32("version");
  if (version != kVersion)
    throw InputError(file + ": checkpoint format version " + std::to_string(version) + ", this adacloth reads " +
                     std::to_string(kVersion));
  Header h;
  h.fingerprint = in.u64("fingerprint");
  h.frame = in.i32("frame");
  const uint64_t size = in.u64("payload size"), checksum = in.u64("checksum");
  if (size != in.left() || fnv1a64(bytes.substr(kHeaderBytes)) != checksum || h.frame < 0)
    throw InputError(file + ": corrupt checkpoint (size or checksum does not match; delete it to resume from an "
                            "older one)");
  return h;
}

}  // namespace

uint64_t simulationFingerprint(const Shot& shot, Scene& scene, bool view) {
  config::Json j = shot.resolved;
  j.erase("frames");
  j.erase("checkpoint");
  BinaryWriter state;
  state.raw(j.dump());
  state.raw(view ? "|view" : "|no-view");
  for (const Cloth& cloth : scene.cloths) writeMesh(state, cloth.mesh);
  for (const ObstaclePose& pose : scene.obstaclePoses.at(scene.obstacles, 0.0)) state.vec3s(pose.x);
  return fnv1a64(state.bytes());
}

std::string encodeCheckpoint(const Scene& scene, int frame, uint64_t fingerprint) {
  BinaryWriter payload;
  payload.f64(scene.time);
  payload.f64(scene.contactFieldBuiltAt);
  payload.u64(scene.cloths.size());
  for (const Cloth& cloth : scene.cloths) writeCloth(payload, cloth);
  BinaryWriter file;
  file.raw(kMagic);
  file.u32(kVersion);
  file.u64(fingerprint);
  file.i32(frame);
  file.u64(payload.bytes().size());
  file.u64(fnv1a64(payload.bytes()));
  file.raw(payload.bytes());
  return file.take();
}

int checkpointFrame(const std::string& bytes, const std::string& file, uint64_t fingerprint) {
  const Header h = readHeader(bytes, file);
  if (h.fingerprint != fingerprint)
    throw InputError(file + ": checkpoint of another simulation (the shot, the files it names or --no-view differ "
                            "from the run that wrote it)");
  return h.frame;
}

void restorePayload(const std::string& bytes, size_t offset, const std::string& file, Scene& scene) {
  BinaryReader in(bytes, file, offset);
  scene.time = in.f64("time");
  scene.contactFieldBuiltAt = in.f64("contact field time");
  if (in.count("cloths", 8) != scene.cloths.size()) in.fail("the number of cloths differs from the shot's");
  for (Cloth& cloth : scene.cloths) readCloth(in, cloth);
  if (!in.atEnd()) in.fail("unexpected bytes after the last cloth");
  if (!std::isfinite(scene.time)) in.fail("the time is not finite");
  scene.contactField.reset();
  scene.contactFieldStart = scene.contactFieldStep = std::numeric_limits<double>::quiet_NaN();
  if (std::isfinite(scene.contactFieldBuiltAt))
    scene.contactField.emplace(scene.obstaclePoses.at(scene.obstacles, scene.contactFieldBuiltAt));
}

int restoreCheckpoint(const std::string& bytes, const std::string& file, uint64_t fingerprint, Scene& scene) {
  const int frame = checkpointFrame(bytes, file, fingerprint);
  try {
    restorePayload(bytes, kHeaderBytes, file, scene);
  } catch (const BinaryFormatError& e) {
    throw InputError(std::string(e.what()) + "; the checkpoint does not fit the shot");
  }
  return frame;
}

std::filesystem::path checkpointFile(const std::filesystem::path& out, int frame) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.ckpt", frame);
  return out / "checkpoints" / name;
}

std::vector<std::pair<int, std::filesystem::path>> listCheckpoints(const std::filesystem::path& out) {
  std::vector<std::pair<int, std::filesystem::path>> found;
  std::error_code ec;
  if (!std::filesystem::is_directory(out / "checkpoints", ec)) return found;
  static const std::regex pattern("frame_([0-9]{5,9})\\.ckpt");
  std::smatch m;
  for (const auto& entry : std::filesystem::directory_iterator(out / "checkpoints")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, m, pattern)) found.push_back({std::stoi(m[1]), entry.path()});
  }
  std::sort(found.begin(), found.end());
  return found;
}

void writeCheckpoint(const std::filesystem::path& out, const Scene& scene, int frame, uint64_t fingerprint,
                     int keep) {
  std::filesystem::create_directories(out / "checkpoints");
  writeFileAtomically(checkpointFile(out, frame), encodeCheckpoint(scene, frame, fingerprint));
  const auto all = listCheckpoints(out);
  for (size_t k = 0; k + size_t(keep) < all.size(); ++k) std::filesystem::remove(all[k].second);
}

}  // namespace adacloth
