#include "upsample/wrinkle_file.h"

#include <cstring>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

constexpr char kMagic[9] = "ADCWRNKL";
constexpr uint32_t kVersion = 1;

void readPoses(BinaryReader& in, WrinkleModel& m) {
  const size_t edges = m.pair.coarse.edges.size(), fine = m.pair.sub.fine.nodes.size();
  const size_t poses = in.count("pose count", 16);
  if (poses == 0) in.fail("no poses");
  for (size_t i = 0; i < poses; ++i) {
    const std::vector<double> f = in.doubles("pose features");
    if (f.size() != edges) in.fail("a pose has " + std::to_string(f.size()) + " features, the mesh " +
                                   std::to_string(edges) + " edges");
    m.poseFeatures.push_back(Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size())));
    if (!m.poseFeatures.back().allFinite()) in.fail("non-finite pose feature");
    if (in.u64("displacement rows") != fine) in.fail("displacement rows differ from the fine node count");
    if (in.left() < fine * 12) in.fail("truncated displacements");
    Eigen::MatrixX3f d(Eigen::Index(fine), 3);
    for (size_t n = 0; n < fine; ++n)
      for (int k = 0; k < 3; ++k) {
        const uint32_t bits = in.u32("displacement");
        float v;
        std::memcpy(&v, &bits, 4);
        if (!std::isfinite(v)) in.fail("non-finite displacement");
        d(Eigen::Index(n), k) = v;
      }
    m.poseDisplacements.push_back(std::move(d));
  }
}

}  // namespace

void saveWrinkleModel(const WrinkleModel& m, const std::string& file) {
  BinaryWriter out;
  out.raw(std::string(kMagic, 8));
  out.u32(kVersion);
  writeMeshPair(out, m.pair);
  out.u32(m.params.base == WrinkleBase::Loop ? 0 : 1);
  out.f64(m.params.metricRadius);
  out.u32(uint32_t(m.params.metricEdges));
  out.f64(m.params.rbfDamping);
  out.u64(m.poseCount());
  for (size_t i = 0; i < m.poseCount(); ++i) {
    out.doubles(std::vector<double>(m.poseFeatures[i].data(), m.poseFeatures[i].data() + m.poseFeatures[i].size()));
    out.u64(uint64_t(m.poseDisplacements[i].rows()));
    for (Eigen::Index n = 0; n < m.poseDisplacements[i].rows(); ++n)
      for (int k = 0; k < 3; ++k) {
        uint32_t bits;
        const float v = m.poseDisplacements[i](n, k);
        std::memcpy(&bits, &v, 4);
        out.u32(bits);
      }
  }
  out.u64(fnv1a64(out.bytes()));
  writeFileAtomically(file, out.bytes());
}

WrinkleModel loadWrinkleModel(const std::string& file) {
  const std::string bytes = readFile(file);
  try {
    BinaryReader in(bytes, file);
    if (in.raw(8, "magic") != std::string(kMagic, 8)) in.fail("not a wrinkle model (bad magic)");
    const uint32_t version = in.u32("version");
    if (version != kVersion) in.fail("unsupported version " + std::to_string(version) + " (expected 1)");
    if (bytes.size() < 16 + 8) in.fail("truncated");
    uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    if (stored != fnv1a64(bytes.substr(0, bytes.size() - 8))) in.fail("checksum mismatch (corrupt or truncated)");
    WrinkleModel m;
    m.pair = readMeshPair(in);
    const uint32_t base = in.u32("base");
    if (base > 1) in.fail("unknown smooth base " + std::to_string(base));
    m.params.base = base == 0 ? WrinkleBase::Loop : WrinkleBase::Midpoint;
    m.params.metricRadius = in.f64("metric radius");
    m.params.metricEdges = int(in.u32("metric edges"));
    m.params.rbfDamping = in.f64("RBF damping");
    if (!std::isfinite(m.params.metricRadius) || m.params.metricRadius < 0 || m.params.metricEdges < 1 ||
        !std::isfinite(m.params.rbfDamping) || m.params.rbfDamping < 0)
      in.fail("bad metric radius, edge count or damping");
    readPoses(in, m);
    m.params.poses = int(m.poseCount());
    in.u64("hash");
    if (!in.atEnd()) in.fail("trailing bytes");
    m.prepare();
    return m;
  } catch (const BinaryFormatError& e) {
    throw InputError(e.what());
  } catch (const MeshError& e) {
    throw InputError(file + ": the coarse mesh is not a valid oriented 2-manifold: " + e.what());
  }
}

}  // namespace adacloth
