#include "dynamics/forces.h"

namespace adacloth {
namespace {

Vec3 faceWindForce(const Mesh& mesh, int f, const WindParams& wind) {
  Tri n = mesh.faceNodes(f);
  const Vec3 &x0 = mesh.nodes[n[0]].x, &x1 = mesh.nodes[n[1]].x, &x2 = mesh.nodes[n[2]].x;
  Vec3 cross = (x1 - x0).cross(x2 - x0);
  double twiceArea = cross.norm();
  if (twiceArea <= 0) return Vec3::Zero();
  Vec3 normal = cross / twiceArea;
  double area = 0.5 * twiceArea;
  Vec3 rel = wind.velocity - (mesh.nodes[n[0]].v + mesh.nodes[n[1]].v + mesh.nodes[n[2]].v) / 3.0;
  double vn = rel.dot(normal);
  Vec3 force = 0.5 * wind.density * wind.drag * area * std::abs(vn) * vn * normal;
  double speed = rel.norm();
  if (wind.lift > 0 && speed > 0) {
    // Lift is perpendicular to the flow, in the plane of flow and normal, towards the side the flow pushes.
    Vec3 side = (vn >= 0 ? normal : Vec3(-normal)) ;
    Vec3 across = side - side.dot(rel / speed) * (rel / speed);
    double len = across.norm();
    if (len > 1e-12) {
      double cosA = std::abs(vn) / speed, sinA = len;
      force += 0.5 * wind.density * wind.lift * area * speed * speed * cosA * sinA * (across / len);
    }
  }
  return force;
}

}  // namespace

void addGravity(const Mesh& mesh, const Vec3& gravity, std::vector<Vec3>& force) {
  const int n = int(mesh.nodes.size());
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) force[i] += mesh.nodes[i].mass * gravity;
}

void addWind(const Mesh& mesh, const WindParams& wind, std::vector<Vec3>& force) {
  if (wind.density <= 0 || (wind.drag <= 0 && wind.lift <= 0)) return;
  const int nf = int(mesh.faces.size()), n = int(mesh.nodes.size());
  std::vector<Vec3> faceForce(nf);
#pragma omp parallel for schedule(static)
  for (int f = 0; f < nf; ++f) faceForce[f] = faceWindForce(mesh, f, wind) / 3.0;
  // Gather per node over its verts' faces in a fixed order (deterministic at any thread count).
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i)
    for (int v : mesh.nodes[i].verts)
      for (int f : mesh.verts[v].faces) force[i] += faceForce[f];
}

}  // namespace adacloth
