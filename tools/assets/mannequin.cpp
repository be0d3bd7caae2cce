#include "mannequin.h"

#include "decimate.h"
#include "garments.h"
#include "marching_tets.h"
#include "motions.h"

namespace adacloth::assets {

Mannequin makeMannequin(int targetFaces) {
  Mannequin m;
  m.body = makeBodyModel();
  auto f = [&](const Vec3& p) { return bodyDistance(m.body, p); };
  GridSpec grid;
  grid.lower = Vec3(-0.5, -0.03, -0.2);  // the body lies within x +-0.42, y 0..1.75, z -0.15..0.22 (m)
  grid.upper = Vec3(0.5, 1.79, 0.27);
  grid.spacing = 0.01;
  m.rest = decimate(marchingTetrahedra(f, grid), targetFaces, f);
  m.weights = computeSkinWeights(m.body, m.rest.x);
  return m;
}

Surface posedSurface(const Mannequin& m, const Gait& gait, double t) {
  Surface s;
  s.faces = m.rest.faces;
  s.x = skin(m.weights, m.rest.x, boneTransforms(m.body.skeleton, gaitPose(m.body.skeleton, gait, t)));
  return s;
}

std::string formatSurfaceObj(const Surface& s, const std::string& comment) {
  std::string out = "# " + comment + "\n";
  for (const Vec3& p : s.x) out += "v " + formatFixed4(p.x()) + " " + formatFixed4(p.y()) + " " + formatFixed4(p.z()) + "\n";
  for (const Tri& f : s.faces)
    out += "f " + std::to_string(f[0] + 1) + " " + std::to_string(f[1] + 1) + " " + std::to_string(f[2] + 1) + "\n";
  return out;
}

}  // namespace adacloth::assets
