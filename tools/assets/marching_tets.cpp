#include "marching_tets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include <omp.h>

namespace adacloth::assets {
namespace {

// Corners of a cube as bit masks: bit 0 = +x, bit 1 = +y, bit 2 = +z. The six tetrahedra share the diagonal 0-7.
constexpr int kTets[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7}, {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};

struct Grid {
  int nx, ny, nz;  // points along each axis
  Vec3 lower;
  double h;
  long index(int i, int j, int k) const { return (long(k) * ny + j) * nx + i; }
  Vec3 point(long id) const {
    const long i = id % nx, j = (id / nx) % ny, k = id / (long(nx) * ny);
    return lower + h * Vec3(double(i), double(j), double(k));
  }
};

// Samples f on all grid points. Values closer to 0 than 2 % of the spacing are pushed outside to +2 % (moving the
// surface by at most 0.4 mm on a 1 cm grid): no value is 0, and no crossing lies within ~1 % of a grid point, which
// would make clusters of tiny triangles there.
std::vector<double> sample(const std::function<double(const Vec3&)>& f, const Grid& g) {
  std::vector<double> values(size_t(g.nx) * g.ny * g.nz);
  const double snap = 0.02 * g.h;
#pragma omp parallel for schedule(static)
  for (long id = 0; id < long(values.size()); ++id) {
    const double v = f(g.point(id));
    values[id] = std::abs(v) < snap ? snap : v;
  }
  return values;
}

class Polygonizer {
 public:
  Polygonizer(const Grid& g, const std::vector<double>& values) : g_(g), values_(values) {}

  void tetrahedron(const std::array<long, 4>& p) {
    std::array<long, 4> in{}, out{};
    int nIn = 0, nOut = 0;
    for (long id : p) (values_[id] < 0 ? in[nIn++] : out[nOut++]) = id;
    if (nIn == 0 || nOut == 0) return;
    // Each triangle is turned by a corner of the tetrahedron that is never in its plane (see emit).
    if (nIn == 1) emit({in[0], out[0]}, {in[0], out[1]}, {in[0], out[2]}, in[0], true);
    else if (nIn == 3) emit({in[0], out[0]}, {in[1], out[0]}, {in[2], out[0]}, out[0], false);
    else {
      // Two inside (a, b), two outside (c, d): the surface is the quad ac, ad, bd, bc (a cycle), as two triangles.
      emit({in[0], out[0]}, {in[0], out[1]}, {in[1], out[1]}, in[0], true);
      emit({in[0], out[0]}, {in[1], out[1]}, {in[1], out[0]}, in[1], true);
    }
  }

  Surface take() { return std::move(surface_); }

 private:
  using GridEdge = std::array<long, 2>;

  // The surface vertex on grid edge (a, b), created on first use.
  int vertexOn(long a, long b) {
    const long lo = std::min(a, b), hi = std::max(a, b);
    const unsigned long long key = (unsigned long long)lo * values_.size() + (unsigned long long)hi;
    auto [it, fresh] = index_.emplace(key, int(surface_.x.size()));
    if (fresh) {
      const double fa = values_[a], fb = values_[b];
      // In (0, 1) since the signs differ and neither is 0; kept 1 % away from the ends so that a value that is
      // merely tiny does not put two corners on the same grid point in floating point (a zero-area sliver).
      const double t = std::clamp(fa / (fa - fb), 0.01, 0.99);
      surface_.x.push_back((1 - t) * g_.point(a) + t * g_.point(b));
    }
    return it->second;
  }

  // Adds the triangle whose corners lie on grid edges i, j, k, with its normal pointing away from grid point
  // `reference` when that point is inside (towards it when outside). Two of the edges end at the reference point
  // and the third does not touch their plane, so the reference point is never in the triangle's plane (for any
  // crossing positions strictly inside the edges): the sign of this test cannot be wrong through a near-zero.
  void emit(const GridEdge& i, const GridEdge& j, const GridEdge& k, long reference, bool referenceInside) {
    const int a = vertexOn(i[0], i[1]), b = vertexOn(j[0], j[1]), c = vertexOn(k[0], k[1]);
    const Vec3& pa = surface_.x[a];
    const double side = (surface_.x[b] - pa).cross(surface_.x[c] - pa).dot(g_.point(reference) - pa);
    if ((side > 0) == referenceInside) surface_.faces.push_back({a, c, b});
    else surface_.faces.push_back({a, b, c});
  }

  const Grid& g_;
  const std::vector<double>& values_;
  Surface surface_;
  std::unordered_map<unsigned long long, int> index_;
};

}  // namespace

Surface marchingTetrahedra(const std::function<double(const Vec3&)>& f, const GridSpec& spec) {
  Grid g;
  g.h = spec.spacing;
  g.lower = spec.lower;
  const Vec3 cells = ((spec.upper - spec.lower) / spec.spacing).array().ceil();
  g.nx = int(cells.x()) + 1;
  g.ny = int(cells.y()) + 1;
  g.nz = int(cells.z()) + 1;
  const std::vector<double> values = sample(f, g);
  Polygonizer poly(g, values);
  for (int k = 0; k + 1 < g.nz; ++k)
    for (int j = 0; j + 1 < g.ny; ++j)
      for (int i = 0; i + 1 < g.nx; ++i) {
        std::array<long, 8> corner;
        for (int c = 0; c < 8; ++c) corner[c] = g.index(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const auto& t : kTets) poly.tetrahedron({corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]]});
      }
  return poly.take();
}

}  // namespace adacloth::assets
