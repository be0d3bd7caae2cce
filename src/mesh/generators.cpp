#include "mesh/generators.h"

#include <cmath>
#include <stdexcept>

namespace adacloth {

Mesh makeGrid(double width, double height, int nx, int ny) {
  if (nx < 1 || ny < 1 || !(width > 0) || !(height > 0)) throw std::invalid_argument("makeGrid: bad dimensions");
  std::vector<Vec2> u;
  std::vector<Vec3> x;
  std::vector<int> node;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      Vec2 p(width * i / nx, height * j / ny);
      u.push_back(p);
      x.emplace_back(p.x(), p.y(), 0.0);
      node.push_back(int(node.size()));
    }
  auto id = [nx](int i, int j) { return j * (nx + 1) + i; };
  std::vector<Tri> faces;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 2 == 0) {
        faces.push_back({a, b, c});
        faces.push_back({a, c, d});
      } else {
        faces.push_back({a, b, d});
        faces.push_back({b, c, d});
      }
    }
  return makeMesh(u, node, x, faces);
}

Mesh makeTube(double radius, double length, int nAround, int nAlong) {
  if (nAround < 3 || nAlong < 1 || !(radius > 0) || !(length > 0)) throw std::invalid_argument("makeTube: bad dimensions");
  const double circumference = 2.0 * M_PI * radius;
  std::vector<Vec2> u;
  std::vector<int> node;
  std::vector<Vec3> x;
  for (int j = 0; j <= nAlong; ++j)
    for (int i = 0; i < nAround; ++i) {
      double theta = 2.0 * M_PI * i / nAround;
      // x(u,v) = (r cos(u/r), v, -r sin(u/r)): dx/du x dx/dv points outwards for a CCW panel.
      x.emplace_back(radius * std::cos(theta), length * j / nAlong, -radius * std::sin(theta));
    }
  for (int j = 0; j <= nAlong; ++j)
    for (int i = 0; i <= nAround; ++i) {
      u.emplace_back(circumference * i / nAround, length * j / nAlong);
      node.push_back(j * nAround + (i % nAround));  // column nAround is the seam: same nodes as column 0
    }
  auto id = [nAround](int i, int j) { return j * (nAround + 1) + i; };
  std::vector<Tri> faces;
  for (int j = 0; j < nAlong; ++j)
    for (int i = 0; i < nAround; ++i) {
      int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 2 == 0) {
        faces.push_back({a, b, c});
        faces.push_back({a, c, d});
      } else {
        faces.push_back({a, b, d});
        faces.push_back({b, c, d});
      }
    }
  return makeMesh(u, node, x, faces);
}

Mesh makeDisc(double radius, int rings) {
  if (rings < 1 || !(radius > 0)) throw std::invalid_argument("makeDisc: bad dimensions");
  std::vector<Vec2> u = {Vec2::Zero()};
  std::vector<int> ringStart = {0}, ringSize = {1};
  for (int k = 1; k <= rings; ++k) {
    ringStart.push_back(int(u.size()));
    ringSize.push_back(6 * k);
    for (int i = 0; i < 6 * k; ++i) {
      double theta = 2.0 * M_PI * i / (6 * k), r = radius * k / rings;
      u.emplace_back(r * std::cos(theta), r * std::sin(theta));
    }
  }
  // Stitch ring k-1 to ring k by walking both in angle order, always advancing the one whose next vert comes first.
  std::vector<Tri> faces;
  for (int k = 1; k <= rings; ++k) {
    int ni = ringSize[k - 1], no = ringSize[k];
    auto inner = [&](int i) { return ringStart[k - 1] + (i % ni); };
    auto outer = [&](int j) { return ringStart[k] + (j % no); };
    const bool centre = k == 1;  // ring 0 is a single vert that never advances: a fan
    int i = 0, j = 0;
    while (j < no || (!centre && i < ni)) {
      double nextInner = double(i + 1) / ni, nextOuter = double(j + 1) / no;
      if (j < no && (centre || i >= ni || nextOuter <= nextInner)) {
        faces.push_back({inner(i), outer(j), outer(j + 1)});
        ++j;
      } else {
        faces.push_back({inner(i), outer(j), inner(i + 1)});
        ++i;
      }
    }
  }
  std::vector<int> node(u.size());
  std::vector<Vec3> x(u.size());
  for (size_t v = 0; v < u.size(); ++v) {
    node[v] = int(v);
    x[v] = Vec3(u[v].x(), u[v].y(), 0.0);
  }
  return makeMesh(u, node, x, faces);
}

}  // namespace adacloth
