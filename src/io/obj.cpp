#include "io/obj.h"

#include <tiny_obj_loader.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

// Where each `v`, `vt` and `f` statement of the file is, and the coordinates read with strtod: tinyobjloader's own
// number parser is not correctly rounded and reads "nan" as 0, so coordinates are taken from this scan.
struct ObjScan {
  std::vector<int> vLine, vtLine, fLine;
  std::vector<Vec3> v;
  std::vector<Vec2> vt;
};

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw InputError(name + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what);
}

std::vector<double> readNumbers(std::istringstream& tokens, const std::string& name, int line, const char* what,
                                size_t needed) {
  std::vector<double> values;
  std::string token;
  while (tokens >> token) {
    char* end = nullptr;
    double value = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0') fail(name, line, std::string(what) + " '" + token + "' is not a number");
    if (!std::isfinite(value)) fail(name, line, std::string(what) + " '" + token + "' is not a finite number");
    values.push_back(value);
  }
  if (values.size() < needed)
    fail(name, line, std::string(what) + "s: expected " + std::to_string(needed) + " numbers, got " +
                         std::to_string(values.size()));
  return values;
}

ObjScan scanLines(const std::string& text, const std::string& name) {
  ObjScan scan;
  std::istringstream in(text);
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    std::istringstream tokens(line);
    std::string keyword;
    if (!(tokens >> keyword)) continue;
    if (keyword == "v") {
      auto c = readNumbers(tokens, name, lineNo, "vertex coordinate", 3);
      scan.v.emplace_back(c[0], c[1], c[2]);
      scan.vLine.push_back(lineNo);
    } else if (keyword == "vt") {
      auto c = readNumbers(tokens, name, lineNo, "texture (material) coordinate", 2);
      scan.vt.emplace_back(c[0], c[1]);
      scan.vtLine.push_back(lineNo);
    } else if (keyword == "f") {
      scan.fLine.push_back(lineNo);
    }
  }
  return scan;
}

// Material coordinates for a flat panel without vt: project on the best-fit plane, with the plane's frame oriented so
// that faces come out counter-clockwise (its normal agrees with the faces' summed normal).
std::vector<Vec2> projectOnBestPlane(const std::vector<Vec3>& x, const std::vector<Tri>& faces, const std::string& name) {
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& p : x) centroid += p;
  centroid /= double(x.size());
  Mat3 cov = Mat3::Zero();
  for (const Vec3& p : x) cov += (p - centroid) * (p - centroid).transpose();
  Eigen::SelfAdjointEigenSolver<Mat3> eig(cov);
  Vec3 normal = eig.eigenvectors().col(0);
  Vec3 summed = Vec3::Zero();
  for (const Tri& f : faces) summed += (x[f[1]] - x[f[0]]).cross(x[f[2]] - x[f[0]]);
  if (summed.dot(normal) < 0) normal = -normal;
  double extent = 0.0, deviation = 0.0;
  for (const Vec3& p : x) {
    extent = std::max(extent, (p - centroid).norm());
    deviation = std::max(deviation, std::abs((p - centroid).dot(normal)));
  }
  if (deviation > 1e-6 * std::max(extent, 1e-12)) {
    std::ostringstream s;
    s << "the mesh has no vt (material coordinates) and is not flat (it leaves its best plane by " << deviation
      << " m), so it cannot be unfolded; add vt coordinates in metres, one panel per flat piece";
    fail(name, 0, s.str());
  }
  // Prefer the world X axis as the first material axis (a mesh in the XY plane keeps u = (x, y)).
  Vec3 e1 = Vec3::UnitX() - normal * normal.x();
  if (e1.norm() < 0.5) e1 = Vec3::UnitY() - normal * normal.y();
  e1.normalize();
  Vec3 e2 = normal.cross(e1);
  std::vector<Vec2> u;
  u.reserve(x.size());
  for (const Vec3& p : x) u.emplace_back(p.dot(e1), p.dot(e2));
  return u;
}

struct Corner {
  int v, vt;
};

// All polygons of all shapes, in file order (one per `f` statement).
std::vector<std::vector<Corner>> collectPolygons(const tinyobj::ObjReader& reader) {
  std::vector<std::vector<Corner>> polygons;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    size_t offset = 0;
    for (unsigned char count : shape.mesh.num_face_vertices) {
      std::vector<Corner> poly;
      for (size_t k = 0; k < count; ++k) {
        const tinyobj::index_t& idx = shape.mesh.indices[offset + k];
        poly.push_back({idx.vertex_index, idx.texcoord_index});
      }
      offset += count;
      polygons.push_back(std::move(poly));
    }
  }
  return polygons;
}

void checkPolygons(const std::vector<std::vector<Corner>>& polygons, const ObjScan& scan, const std::string& name,
                   bool& hasVt) {
  if (polygons.empty()) fail(name, 0, "the mesh has no faces");
  if (polygons.size() != scan.fLine.size())
    fail(name, 0, "could not read every face statement (" + std::to_string(polygons.size()) + " of " +
                      std::to_string(scan.fLine.size()) + ")");
  hasVt = polygons[0][0].vt >= 0;
  for (size_t p = 0; p < polygons.size(); ++p) {
    int line = scan.fLine[p];
    if (polygons[p].size() < 3) fail(name, line, "a face needs at least 3 corners");
    for (const Corner& c : polygons[p]) {
      if (c.v < 0 || c.v >= int(scan.v.size()))
        fail(name, line, "face refers to vertex " + std::to_string(c.v + 1) + ", but the file has " +
                             std::to_string(scan.v.size()));
      if ((c.vt >= 0) != hasVt)
        fail(name, line, "some face corners have vt (material coordinates) and some do not; use v/vt on all of them");
      if (hasVt && c.vt >= int(scan.vt.size()))
        fail(name, line, "face refers to texture coordinate " + std::to_string(c.vt + 1) + ", but the file has " +
                             std::to_string(scan.vt.size()));
    }
  }
}

struct RawMesh {
  std::vector<Vec2> u;
  std::vector<int> vertNode;
  std::vector<Vec3> x;
  std::vector<Tri> faces;
  std::vector<int> faceLine;  // source line of each triangle
};

// Verts are the vt entries used by faces (or the v entries, without vt); nodes are the v entries used by faces.
// Unused entries are dropped; order is kept, so a file written by writeObj reads back with the same indices.
RawMesh assemble(const std::vector<std::vector<Corner>>& polygons, const ObjScan& scan, bool hasVt,
                 const std::string& name) {
  RawMesh raw;
  std::vector<int> nodeOfV(scan.v.size(), -1);
  std::vector<int> vertOfKey(hasVt ? scan.vt.size() : scan.v.size(), -1);
  std::vector<int> vOfVert;
  for (const auto& poly : polygons)
    for (const Corner& c : poly) nodeOfV[c.v] = 0;
  for (size_t v = 0; v < scan.v.size(); ++v)
    if (nodeOfV[v] == 0) {
      nodeOfV[v] = int(raw.x.size());
      raw.x.push_back(scan.v[v]);
    }
  for (size_t p = 0; p < polygons.size(); ++p)
    for (const Corner& c : polygons[p]) {
      int key = hasVt ? c.vt : c.v;
      if (vertOfKey[key] < 0) {
        vertOfKey[key] = int(vOfVert.size());
        vOfVert.push_back(c.v);
      } else if (vOfVert[vertOfKey[key]] != c.v) {
        fail(name, scan.fLine[p], "texture coordinate " + std::to_string(key + 1) + " is used with two vertices (" +
                                      std::to_string(vOfVert[vertOfKey[key]] + 1) + " and " + std::to_string(c.v + 1) +
                                      "); a material point belongs to one world point");
      }
    }
  // Renumber verts in key order so that round trips keep indices.
  std::vector<int> order;
  for (size_t key = 0; key < vertOfKey.size(); ++key)
    if (vertOfKey[key] >= 0) order.push_back(int(key));
  std::vector<int> finalVert(vertOfKey.size(), -1);
  for (size_t i = 0; i < order.size(); ++i) {
    int key = order[i];
    finalVert[key] = int(i);
    int v = vOfVert[vertOfKey[key]];
    raw.vertNode.push_back(nodeOfV[v]);
    if (hasVt) raw.u.push_back(scan.vt[key]);
  }
  for (size_t p = 0; p < polygons.size(); ++p) {
    const auto& poly = polygons[p];
    auto vertOf = [&](const Corner& c) { return finalVert[hasVt ? c.vt : c.v]; };
    for (size_t k = 1; k + 1 < poly.size(); ++k) {
      raw.faces.push_back({vertOf(poly[0]), vertOf(poly[k]), vertOf(poly[k + 1])});
      raw.faceLine.push_back(scan.fLine[p]);
    }
  }
  if (!hasVt) {
    std::vector<Tri> nodeFaces;
    for (const Tri& f : raw.faces) nodeFaces.push_back({raw.vertNode[f[0]], raw.vertNode[f[1]], raw.vertNode[f[2]]});
    raw.u = projectOnBestPlane(raw.x, nodeFaces, name);
  }
  return raw;
}

// Faces must be counter-clockwise in material space. A panel whose vt are mirrored as a whole (all faces clockwise,
// common in DCC exports) is mirrored back; a mix is an error.
void orientMaterialSpace(Mesh& mesh, const RawMesh& raw, const std::string& name) {
  double scale = 0.0;
  for (const Vert& v : mesh.verts) scale = std::max(scale, v.u.cwiseAbs().maxCoeff());
  const double tiny = 1e-14 * std::max(scale * scale, 1e-300);
  int negative = 0;
  for (size_t f = 0; f < mesh.faces.size(); ++f) {
    if (std::abs(mesh.faces[f].materialArea) <= tiny)
      fail(name, raw.faceLine[f], "face is degenerate (zero area in material space)");
    negative += mesh.faces[f].materialArea < 0;
  }
  if (negative == int(mesh.faces.size())) {
    for (Vert& v : mesh.verts) v.u.x() = -v.u.x();
    mesh.updateGeometry();
  } else if (negative > 0) {
    for (size_t f = 0; f < mesh.faces.size(); ++f)
      if (mesh.faces[f].materialArea < 0)
        fail(name, raw.faceLine[f], "face is flipped in material space (its vt run clockwise, the others' do not)");
  }
}

}  // namespace

Mesh parseObj(const std::string& text, const std::string& name) {
  ObjScan scan = scanLines(text, name);
  tinyobj::ObjReaderConfig config;
  config.triangulate = false;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config)) {
    std::string error = reader.Error();
    while (!error.empty() && (error.back() == '\n' || error.back() == '\r')) error.pop_back();
    fail(name, 0, "cannot parse OBJ: " + error.substr(0, error.find('\n')));
  }
  auto polygons = collectPolygons(reader);
  bool hasVt = false;
  checkPolygons(polygons, scan, name, hasVt);
  RawMesh raw = assemble(polygons, scan, hasVt, name);
  Mesh mesh;
  try {
    mesh = makeMesh(raw.u, raw.vertNode, raw.x, raw.faces);
  } catch (const MeshError& e) {
    fail(name, e.face >= 0 ? raw.faceLine[e.face] : 0, e.what());
  }
  orientMaterialSpace(mesh, raw, name);
  return mesh;
}

Mesh readObj(const std::filesystem::path& path) {
  return parseObj(readFile(path), path.string());
}

std::string formatObj(const Mesh& mesh) {
  std::string out;
  out.reserve(mesh.nodes.size() * 60 + mesh.verts.size() * 40 + mesh.faces.size() * 30);
  out += "# adacloth mesh: " + std::to_string(mesh.nodes.size()) + " nodes, " + std::to_string(mesh.verts.size()) +
         " verts, " + std::to_string(mesh.faces.size()) + " faces\n";
  for (const Node& n : mesh.nodes) {
    out += "v ";
    appendDouble(out, n.x.x());
    out += ' ';
    appendDouble(out, n.x.y());
    out += ' ';
    appendDouble(out, n.x.z());
    out += '\n';
  }
  for (const Vert& v : mesh.verts) {
    out += "vt ";
    appendDouble(out, v.u.x());
    out += ' ';
    appendDouble(out, v.u.y());
    out += '\n';
  }
  for (const Face& f : mesh.faces) {
    out += 'f';
    for (int v : f.verts) {
      out += ' ';
      appendInteger(out, mesh.verts[v].node + 1);
      out += '/';
      appendInteger(out, v + 1);
    }
    out += '\n';
  }
  return out;
}

void writeObj(const Mesh& mesh, const std::filesystem::path& path) {
  writeFileAtomically(path, formatObj(mesh));
}

}  // namespace adacloth
