#include "view/view_factor.h"

#include <algorithm>

namespace adacloth {

double backFaceFactor(double cosineToEye, double fBack, double backRamp) {
  if (!(backRamp > 0.0)) return fBack;
  return 1.0 + std::clamp(-cosineToEye / backRamp, 0.0, 1.0) * (fBack - 1.0);
}

double basicViewFactor(const Camera& camera, const Vec3& centroid, const Vec3& normal,
                       const ViewFactorOptions& options) {
  if (!camera.inFrustum(centroid)) return options.fOut;
  if (!options.backFacesHidden || camera.isFrontFacing(centroid, normal)) return 1.0;
  const Vec3 toEye = camera.eye - centroid;
  const double length = normal.norm() * toEye.norm();
  return backFaceFactor(length > 0.0 ? normal.dot(toEye) / length : 0.0, options.fBack, options.backRamp);
}

std::vector<double> basicViewFactors(const Mesh& mesh, const Camera& camera, const ViewFactorOptions& options) {
  std::vector<double> factors(mesh.faces.size());
#pragma omp parallel for schedule(static)
  for (int f = 0; f < int(mesh.faces.size()); ++f) {
    const Tri n = mesh.faceNodes(f);
    const Vec3 centroid = (mesh.nodes[n[0]].x + mesh.nodes[n[1]].x + mesh.nodes[n[2]].x) / 3.0;
    factors[f] = basicViewFactor(camera, centroid, mesh.faces[f].normal, options);
  }
  return factors;
}

}  // namespace adacloth
