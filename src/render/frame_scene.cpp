#include "render/frame_scene.h"

#include <tiny_obj_loader.h>

#include <cmath>

#include "io/error.h"
#include "render/colors.h"

namespace adacloth {
namespace {

double meanEdgeLength(const Mesh& mesh, int face) {
  const Tri n = mesh.faceNodes(face);
  double sum = 0;
  for (int i = 0; i < 3; ++i) sum += (mesh.nodes[n[(i + 1) % 3]].x - mesh.nodes[n[i]].x).norm();
  return sum / 3.0;
}

// Map modes paint both sides with the value's colour, the back a little darker so a fold still reads.
void paintBothSides(RenderMesh& r, int face, const Rgb& c) {
  r.front[face] = c;
  r.back[face] = c * 0.7f;
}

void colorBySizing(const Mesh& mesh, const FrameStyle& style, RenderMesh& r) {
  const auto range = style.edgeRange ? *style.edgeRange : edgeLengthRange(mesh);
  for (int f = 0; f < int(mesh.faces.size()); ++f) paintBothSides(r, f, sizingColor(meanEdgeLength(mesh, f), range));
}

void colorByView(const Mesh& mesh, const FrameStyle& style, RenderMesh& r) {
  const std::vector<double> factors = basicViewFactors(mesh, *style.viewCamera, style.viewFactor);
  const double fOut = style.viewFactor.fOut;
  for (int f = 0; f < int(mesh.faces.size()); ++f)
    paintBothSides(r, f, colorMap(fOut < 1 ? (factors[f] - fOut) / (1 - fOut) : 1.0));
}

}  // namespace

Rgb sizingColor(double edgeLength, const std::pair<double, double>& range) {
  const auto [lo, hi] = range;
  if (!(hi > lo) || !(lo > 0) || !(edgeLength > 0)) return colorMap(0.5);
  return colorMap(std::log(edgeLength / lo) / std::log(hi / lo));
}

RenderMesh clothRenderMesh(const Mesh& mesh, int clothIndex, const FrameStyle& style) {
  RenderMesh r;
  r.wireframe = style.wireframe;
  for (const Node& n : mesh.nodes) {
    r.positions.push_back(n.x);
    r.normals.push_back(n.normal);
  }
  for (int f = 0; f < int(mesh.faces.size()); ++f) r.triangles.push_back(mesh.faceNodes(f));
  const auto [front, back] = clothColors(clothIndex);
  r.front.assign(mesh.faces.size(), front);
  r.back.assign(mesh.faces.size(), back);
  if (style.color == ColorMode::Sizing) colorBySizing(mesh, style, r);
  if (style.color == ColorMode::View && style.viewCamera) colorByView(mesh, style, r);
  return r;
}

RenderMesh obstacleRenderMesh(const std::filesystem::path& file) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = false;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(file.string(), config)) {
    std::string error = reader.Error();
    throw InputError(file.string() + ": cannot read obstacle OBJ: " + error.substr(0, error.find('\n')));
  }
  const auto& v = reader.GetAttrib().vertices;
  RenderMesh r;
  for (size_t i = 0; i + 2 < v.size(); i += 3) {
    r.positions.emplace_back(v[i], v[i + 1], v[i + 2]);
    if (!r.positions.back().allFinite()) throw InputError(file.string() + ": obstacle vertex with NaN or Inf");
  }
  for (const auto& shape : reader.GetShapes()) {
    size_t offset = 0;
    for (unsigned char corners : shape.mesh.num_face_vertices) {
      for (size_t k = 1; k + 1 < corners; ++k)
        r.triangles.push_back({shape.mesh.indices[offset].vertex_index, shape.mesh.indices[offset + k].vertex_index,
                               shape.mesh.indices[offset + k + 1].vertex_index});
      offset += corners;
    }
  }
  for (const Tri& t : r.triangles)
    for (int i : t)
      if (i < 0 || i >= int(r.positions.size())) throw InputError(file.string() + ": face index out of range");
  r.normals = vertexNormals(r.positions, r.triangles);
  const auto [front, back] = obstacleColors();
  r.front.assign(r.triangles.size(), front);
  r.back.assign(r.triangles.size(), back);
  return r;
}

}  // namespace adacloth
