#include "mesh/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace adacloth {
namespace {

void clearDerived(Mesh& mesh) {
  mesh.edges.clear();
  for (Vert& v : mesh.verts) v.faces.clear();
  for (Node& n : mesh.nodes) {
    n.verts.clear();
    n.edges.clear();
    n.boundary = false;
    n.seam = false;
  }
}

void linkVertsToNodes(Mesh& mesh) {
  for (int v = 0; v < int(mesh.verts.size()); ++v) {
    int n = mesh.verts[v].node;
    if (n < 0 || n >= int(mesh.nodes.size()))
      throw MeshError("vert " + std::to_string(v) + " refers to node " + std::to_string(n) + ", which does not exist");
    mesh.nodes[n].verts.push_back(v);
  }
  for (Node& n : mesh.nodes) n.seam = n.verts.size() > 1;
}

// Creates edges in order of first appearance (face order, then corner order), so that edge numbering is a pure
// function of the face list: determinism depends on it.
//
// The edges found so far are chained by their lower node (a node has a handful), which finds an edge faster than a
// hash map: this runs after every remesh batch.
void buildEdges(Mesh& mesh) {
  std::vector<int> firstEdgeAt(mesh.nodes.size(), -1), nextEdge;
  nextEdge.reserve(mesh.faces.size() * 2);
  auto findEdge = [&](int a, int b) {
    const int lo = std::min(a, b), hi = std::max(a, b);
    for (int e = firstEdgeAt[size_t(lo)]; e >= 0; e = nextEdge[size_t(e)])
      if (std::max(mesh.edges[size_t(e)].nodes[0], mesh.edges[size_t(e)].nodes[1]) == hi) return e;
    return -1;
  };
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    Face& face = mesh.faces[f];
    for (int c = 0; c < 3; ++c) {
      int v = face.verts[c];
      if (v < 0 || v >= int(mesh.verts.size()))
        throw MeshError("face " + std::to_string(f) + " refers to vert " + std::to_string(v) + ", which does not exist", f);
    }
    Tri n = mesh.faceNodes(f);
    if (n[0] == n[1] || n[1] == n[2] || n[0] == n[2])
      throw MeshError("face " + std::to_string(f) + " is degenerate: it uses a point twice", f);
    for (int c = 0; c < 3; ++c) mesh.verts[face.verts[c]].faces.push_back(f);
    for (int c = 0; c < 3; ++c) {
      int a = n[c], b = n[(c + 1) % 3];
      int found = findEdge(a, b);
      if (found < 0) {
        found = int(mesh.edges.size());
        Edge e;
        e.nodes = {a, b};
        e.faces = {f, -1};
        mesh.edges.push_back(e);
        const int lo = std::min(a, b);
        nextEdge.push_back(firstEdgeAt[size_t(lo)]);
        firstEdgeAt[size_t(lo)] = found;
      } else {
        Edge& e = mesh.edges[size_t(found)];
        // Formatted only for an error: every interior edge comes here once per rebuild (each remesh batch).
        auto pair = [&] { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; };
        if (e.faces[1] >= 0)
          throw MeshError("edge " + pair() + " is shared by more than two faces (faces " + std::to_string(e.faces[0]) +
                              ", " + std::to_string(e.faces[1]) + " and " + std::to_string(f) + ")",
                          f);
        if (e.nodes[0] == a)
          throw MeshError("faces " + std::to_string(e.faces[0]) + " and " + std::to_string(f) +
                              " are oriented inconsistently across edge " + pair(),
                          f);
        e.faces[1] = f;
      }
      face.edges[c] = found;
    }
  }
  for (int e = 0; e < int(mesh.edges.size()); ++e) {
    const Edge& edge = mesh.edges[e];
    for (int n : edge.nodes) {
      mesh.nodes[n].edges.push_back(e);
      if (edge.isBoundary()) mesh.nodes[n].boundary = true;
    }
  }
}

}  // namespace

Tri Mesh::faceNodes(int face) const {
  const Tri& v = faces[face].verts;
  return {verts[v[0]].node, verts[v[1]].node, verts[v[2]].node};
}

bool Mesh::isSeam(int e) const {
  const Edge& edge = edges[e];
  if (edge.isBoundary()) return false;
  for (int n : edge.nodes) {
    int vertIn[2] = {-1, -1};
    for (int s = 0; s < 2; ++s)
      for (int c = 0; c < 3; ++c)
        if (nodeOf(edge.faces[s], c) == n) vertIn[s] = faces[edge.faces[s]].verts[c];
    if (vertIn[0] != vertIn[1]) return true;
  }
  return false;
}

void Mesh::buildAdjacency() {
  clearDerived(*this);
  linkVertsToNodes(*this);
  buildEdges(*this);
}

void Mesh::updateFaceGeometry(int f) {
  Face& face = faces[f];
  const Vec2& u0 = verts[face.verts[0]].u;
  Mat2 Dm;
  Dm.col(0) = verts[face.verts[1]].u - u0;
  Dm.col(1) = verts[face.verts[2]].u - u0;
  double det = Dm.determinant();
  face.materialArea = 0.5 * det;
  face.DmInv = det != 0.0 ? Mat2(Dm.inverse()) : Mat2::Zero();
  Tri n = faceNodes(f);
  Vec3 cross = (nodes[n[1]].x - nodes[n[0]].x).cross(nodes[n[2]].x - nodes[n[0]].x);
  double len = cross.norm();
  face.worldArea = 0.5 * len;
  face.normal = len > 0.0 ? Vec3(cross / len) : Vec3::Zero();
}

void Mesh::updateNodeNormal(int i) {
  Vec3 sum = Vec3::Zero();
  for (int v : nodes[i].verts)
    for (int f : verts[v].faces) sum += faces[f].worldArea * faces[f].normal;
  double len = sum.norm();
  nodes[i].normal = len > 0.0 ? Vec3(sum / len) : Vec3::Zero();
}

void Mesh::updateGeometry() {
  const int nf = int(faces.size());
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f) updateFaceGeometry(f);
  const int nn = int(nodes.size());
#pragma omp parallel for schedule(static)
  for (int i = 0; i < nn; ++i) updateNodeNormal(i);
}

void Mesh::computeMasses(double areaDensity) {
  const int nn = int(nodes.size());
#pragma omp parallel for schedule(static)
  for (int i = 0; i < nn; ++i) {
    double area = 0.0;
    for (int v : nodes[i].verts)
      for (int f : verts[v].faces) area += faces[f].materialArea;
    nodes[i].mass = areaDensity * area / 3.0;
  }
}

double Mesh::totalMaterialArea() const {
  double sum = 0.0;
  for (const Face& f : faces) sum += f.materialArea;
  return sum;
}

double Mesh::totalWorldArea() const {
  double sum = 0.0;
  for (const Face& f : faces) sum += f.worldArea;
  return sum;
}

Mesh makeMesh(const std::vector<Vec2>& u, const std::vector<int>& vertNode, const std::vector<Vec3>& x,
              const std::vector<Tri>& faceVerts) {
  if (u.size() != vertNode.size()) throw MeshError("makeMesh: one node index per vert is required");
  Mesh mesh;
  mesh.verts.resize(u.size());
  for (size_t i = 0; i < u.size(); ++i) {
    mesh.verts[i].u = u[i];
    mesh.verts[i].node = vertNode[i];
  }
  mesh.nodes.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) mesh.nodes[i].x = x[i];
  mesh.faces.resize(faceVerts.size());
  for (size_t i = 0; i < faceVerts.size(); ++i) mesh.faces[i].verts = faceVerts[i];
  mesh.buildAdjacency();
  mesh.updateGeometry();
  return mesh;
}

std::pair<double, double> edgeLengthRange(const Mesh& mesh) {
  if (mesh.edges.empty()) return {0.0, 0.0};
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (const Edge& e : mesh.edges) {
    double len = (mesh.nodes[e.nodes[1]].x - mesh.nodes[e.nodes[0]].x).norm();
    lo = std::min(lo, len);
    hi = std::max(hi, len);
  }
  return {lo, hi};
}

}  // namespace adacloth
