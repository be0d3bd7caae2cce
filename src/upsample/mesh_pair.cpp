#include "upsample/mesh_pair.h"

#include <cmath>

#include "io/error.h"

namespace adacloth {

MeshPair makeMeshPair(Mesh coarse, int levels) {
  if (levels < 0 || levels > 5) throw InputError("subdivision levels must be 0..5, got " + std::to_string(levels));
  coarse.buildAdjacency();
  coarse.updateGeometry();
  MeshPair pair;
  pair.sub = subdivide(coarse, levels);
  pair.coarse = std::move(coarse);
  pair.levels = levels;
  return pair;
}

std::string meshPairMismatch(const MeshPair& pair, const Mesh& coarse, int levels) {
  const Mesh& a = pair.coarse;
  if (levels != pair.levels) return "levels " + std::to_string(levels) + ", not " + std::to_string(pair.levels);
  if (coarse.nodes.size() != a.nodes.size() || coarse.verts.size() != a.verts.size() ||
      coarse.faces.size() != a.faces.size())
    return std::to_string(coarse.nodes.size()) + " coarse nodes and " + std::to_string(coarse.faces.size()) +
           " faces, not " + std::to_string(a.nodes.size()) + " and " + std::to_string(a.faces.size());
  for (size_t v = 0; v < a.verts.size(); ++v)
    if (coarse.verts[v].node != a.verts[v].node) return "vert " + std::to_string(v) + " names another node";
  for (size_t f = 0; f < a.faces.size(); ++f)
    if (coarse.faces[f].verts != a.faces[f].verts) return "face " + std::to_string(f) + " has other verts";
  return "";
}

void writeMeshPair(BinaryWriter& out, const MeshPair& pair) {
  const Mesh& m = pair.coarse;
  out.u32(uint32_t(pair.levels));
  out.u64(m.verts.size());
  for (const Vert& v : m.verts) out.vec2(v.u), out.i32(v.node);
  out.u64(m.nodes.size());
  for (const Node& n : m.nodes) out.vec3(n.x);
  out.u64(m.faces.size());
  for (const Face& f : m.faces)
    for (int c = 0; c < 3; ++c) out.i32(f.verts[c]);
}

MeshPair readMeshPair(BinaryReader& in) {
  const uint32_t levels = in.u32("levels");
  if (levels > 5) in.fail("subdivision levels " + std::to_string(levels) + " (expected 0..5)");
  Mesh m;
  m.verts.resize(in.count("vert count", 20));
  for (Vert& v : m.verts) {
    v.u = in.vec2("vert material coordinates");
    v.node = in.i32("vert node");
    if (!v.u.allFinite()) in.fail("non-finite material coordinates");
  }
  m.nodes.resize(in.count("node count", 24));
  for (Node& n : m.nodes) {
    n.x = in.vec3("node position");
    if (!n.x.allFinite()) in.fail("non-finite node position");
  }
  for (const Vert& v : m.verts)
    if (v.node < 0 || size_t(v.node) >= m.nodes.size()) in.fail("vert node index out of range");
  m.faces.resize(in.count("face count", 12));
  for (Face& f : m.faces)
    for (int c = 0; c < 3; ++c) {
      f.verts[c] = in.i32("face vert");
      if (f.verts[c] < 0 || size_t(f.verts[c]) >= m.verts.size()) in.fail("face vert index out of range");
    }
  if (m.faces.empty()) in.fail("the coarse mesh has no faces");
  return makeMeshPair(std::move(m), int(levels));
}

}  // namespace adacloth
