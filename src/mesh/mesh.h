#pragma once
// The cloth mesh: material space (verts) and world space (nodes) kept apart, as in ARCSim.
//
// A Vert is a corner in a flat panel (material coordinates u, metres). A Node is a point in the world (position,
// velocity, lumped mass). Several verts may share one node: that is a seam, where panels meet in the world but are
// separate in material space. Faces are triangles of verts, counter-clockwise in material space. Edges join two
// nodes and have one face (boundary) or two (interior, or seam when the faces use different verts).
//
// Storage is plain index arrays. Topology (faces, vert->node) is the source of truth; everything in the "derived"
// groups is rebuilt by buildAdjacency() and updateGeometry(), so there is never a stale cache after a change.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

struct Vert {
  Vec2 u = Vec2::Zero();  // material coordinates (m)
  int node = -1;
  // derived
  std::vector<int> faces;
};

struct Node {
  Vec3 x = Vec3::Zero();  // world position (m)
  Vec3 v = Vec3::Zero();  // velocity (m/s)
  // derived
  double mass = 0.0;       // lumped mass (kg), from face areas x area density
  Vec3 normal = Vec3::Zero();  // area-weighted world normal (unit, or zero when isolated)
  std::vector<int> verts;
  std::vector<int> edges;
  bool boundary = false;   // on a boundary edge
  bool seam = false;       // has more than one vert
};

struct Edge {
  std::array<int, 2> nodes{-1, -1};  // in the direction the first face traverses it
  std::array<int, 2> faces{-1, -1};  // faces[1] == -1 on a boundary
  bool isBoundary() const { return faces[1] < 0; }
};

struct Face {
  Tri verts{-1, -1, -1};
  // derived
  std::array<int, 3> edges{-1, -1, -1};  // edges[i] is opposite to nothing: it joins corner i and i+1
  Mat2 DmInv = Mat2::Identity();         // inverse of [u1-u0, u2-u0]
  double materialArea = 0.0;             // m^2, signed (positive for a valid face)
  double worldArea = 0.0;                // m^2
  Vec3 normal = Vec3::Zero();            // unit world normal
};

class Mesh {
 public:
  std::vector<Vert> verts;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Face> faces;

  int nodeOf(int face, int corner) const { return verts[faces[face].verts[corner]].node; }
  Tri faceNodes(int face) const;
  // An edge is a seam when its two faces reach one of its nodes through different verts.
  bool isSeam(int edge) const;

  // Rebuilds edges and all adjacency lists from faces and vert->node. Throws MeshError when an edge has more than
  // two faces or two faces disagree on orientation (the mesh is then not an oriented 2-manifold).
  void buildAdjacency();
  // Recomputes Dm^-1, areas and normals of faces and node normals from current positions.
  void updateGeometry();
  // The same for one face, and one node's normal from its faces' (computed first): a caller that knows which faces
  // changed (the remesher, after a batch) recomputes only those, with the same result.
  void updateFaceGeometry(int face);
  void updateNodeNormal(int node);
  // Lumped node masses: each face gives a third of materialArea x density to each of its nodes.
  void computeMasses(double areaDensity);

  double totalMaterialArea() const;
  double totalWorldArea() const;
};

// A topology problem found while building adjacency. `face` names the offending face when there is one, so a reader
// can point at the line of the file it came from.
struct MeshError : std::runtime_error {
  MeshError(const std::string& what, int face = -1) : std::runtime_error(what), face(face) {}
  int face;
};

// Builds a mesh from raw arrays and derives everything. `vertNode[i]` is the node of vert i.
Mesh makeMesh(const std::vector<Vec2>& u, const std::vector<int>& vertNode, const std::vector<Vec3>& x,
              const std::vector<Tri>& faceVerts);

// Every invariant of the data model; returns one line per violation (empty when the mesh is valid).
std::vector<std::string> validate(const Mesh& mesh);

// Edge lengths in world space (m): min and max over all edges; {0,0} for a mesh without edges.
std::pair<double, double> edgeLengthRange(const Mesh& mesh);

}  // namespace adacloth
