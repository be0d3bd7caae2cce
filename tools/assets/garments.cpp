#include "garments.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace adacloth::assets {
namespace {

// The top row may rise a little above yTop (it is cut at one distance from the apex): the fit looks this far up.
constexpr double kFitAbove = 0.03;  // m

struct Cone {
  Vec3 apex;
  std::vector<Vec3> top;  // top curve, one point per ruling
};

Cone fitCone(const BodyModel& body, const ConeGarmentSpec& s, int rulings) {
  Cone c;
  c.apex = Vec3(0, s.yTop + s.apexAbove, 0);
  const int columns = s.panels * s.columnsPerPanel;
  for (int j = 0; j < rulings; ++j) {
    const double theta = s.thetaBegin + (s.thetaEnd - s.thetaBegin) * j / columns;
    double r = 0.05;  // m: never closer to the axis than this
    // A ruling widens by k(y) = (apex - y) / apexAbove below the top: fit the top so every level clears the body.
    for (double y = s.yBottom; y <= s.yTop + kFitAbove + 1e-9; y += 0.005) {
      const double k = (c.apex.y() - y) / s.apexAbove;
      r = std::max(r, outermostRadius(body, s.fitArms, theta, y, s.clearance) / k);
    }
    c.top.push_back(Vec3(0, s.yTop, 0) + r * around(theta));
  }
  return c;
}

void addQuadFaces(Garment& g, int v00, int v01, int v10, int v11, bool flipDiagonal) {
  // v01 is below v00, v10 is the next ruling. Both splits are counter-clockwise in material space.
  if (!flipDiagonal) {
    g.faces.push_back({v00, v01, v11});
    g.faces.push_back({v00, v11, v10});
  } else {
    g.faces.push_back({v00, v01, v10});
    g.faces.push_back({v10, v01, v11});
  }
}

// Material-space rectangle around the top row of verts (row 0), checked to leave out every other vert.
void setPinRectangle(Garment& g, const std::vector<int>& topVerts) {
  double top = -1e9, lowestTop = 1e9, minX = 1e9, maxX = -1e9;
  std::vector<char> isTop(g.u.size(), 0);
  for (int v : topVerts) {
    isTop[v] = 1;
    top = std::max(top, g.u[v].y());
    lowestTop = std::min(lowestTop, g.u[v].y());
  }
  double highestOther = -1e9;
  for (size_t v = 0; v < g.u.size(); ++v) {
    minX = std::min(minX, g.u[v].x());
    maxX = std::max(maxX, g.u[v].x());
    if (!isTop[v]) highestOther = std::max(highestOther, g.u[v].y());
  }
  if (!(highestOther < lowestTop)) throw std::logic_error(g.name + ": the top edge cannot be selected by a rectangle");
  const double margin = std::min(0.002, 0.5 * (lowestTop - highestOther));
  g.pinMin = Vec2(minX - 0.002, lowestTop - margin);
  g.pinMax = Vec2(maxX + 0.002, top + 0.002);
}

}  // namespace

Garment makeConeGarment(const std::string& name, const BodyModel& body, const ConeGarmentSpec& s) {
  const int columns = s.panels * s.columnsPerPanel;
  const bool closed = std::abs(s.thetaEnd - s.thetaBegin - 2 * M_PI) < 1e-9;
  const int rulings = closed ? columns : columns + 1;  // a closed cone's last ruling is its first
  const Cone cone = fitCone(body, s, rulings);
  Garment g;
  g.name = name;
  auto nodeId = [&](int j, int i) { return (j % rulings) * (s.rows + 1) + i; };
  // The top row is cut at one distance from the apex: it unrolls to a circular arc, flat enough for a rectangle
  // to select it. The hem is cut at y = yBottom.
  double topDistance = 1e9;  // the nearest: the top row is at or above yTop, where fitCone also looked
  for (const Vec3& p : cone.top) topDistance = std::min(topDistance, (p - cone.apex).norm());
  const double hemScale = 1 + (s.yTop - s.yBottom) / s.apexAbove;
  for (int j = 0; j < rulings; ++j) {
    const Vec3 ruling = cone.top[j] - cone.apex;
    const double hemDistance = hemScale * ruling.norm();
    for (int i = 0; i <= s.rows; ++i)
      g.x.push_back(cone.apex + (topDistance + (hemDistance - topDistance) * i / s.rows) * ruling.normalized());
    if (g.x[nodeId(j, 0)].y() > s.yTop + kFitAbove)
      throw std::logic_error(name + ": the top edge rises above the fitted part of the cone");
  }
  double panelX = 0;
  std::vector<int> topVerts;
  for (int p = 0; p < s.panels; ++p) {
    const int j0 = p * s.columnsPerPanel;
    // Unroll: turning angle of each ruling about the apex, centred on the panel's middle ruling.
    std::vector<double> psi(s.columnsPerPanel + 1, 0.0);
    for (int c = 1; c <= s.columnsPerPanel; ++c) {
      const Vec3 a = (cone.top[(j0 + c - 1) % rulings] - cone.apex).normalized();
      const Vec3 b = (cone.top[(j0 + c) % rulings] - cone.apex).normalized();
      psi[c] = psi[c - 1] + std::atan2(a.cross(b).norm(), a.dot(b));
    }
    const double mid = 0.5 * psi.back();
    const int firstVert = int(g.u.size());
    double minX = 1e9, maxX = -1e9, maxY = -1e9;
    for (int c = 0; c <= s.columnsPerPanel; ++c)
      for (int i = 0; i <= s.rows; ++i) {
        const double length = (g.x[nodeId(j0 + c, i)] - cone.apex).norm();
        const Vec2 u = length * Vec2(std::sin(psi[c] - mid), -std::cos(psi[c] - mid));
        g.u.push_back(u);
        g.vertNode.push_back(nodeId(j0 + c, i));
        if (i == 0) topVerts.push_back(int(g.u.size()) - 1);
        minX = std::min(minX, u.x());
        maxX = std::max(maxX, u.x());
        maxY = std::max(maxY, u.y());
      }
    // Lay the panel out to the right of the previous one, top edge at v = 0.
    for (size_t v = firstVert; v < g.u.size(); ++v) g.u[v] += Vec2(panelX - minX, -maxY);
    panelX += maxX - minX + s.panelGap;
    auto vert = [&](int c, int i) { return firstVert + c * (s.rows + 1) + i; };
    for (int c = 0; c < s.columnsPerPanel; ++c)
      for (int i = 0; i < s.rows; ++i)
        addQuadFaces(g, vert(c, i), vert(c, i + 1), vert(c + 1, i), vert(c + 1, i + 1), (c + i) % 2 == 1);
  }
  setPinRectangle(g, topVerts);
  return g;
}

namespace {

ConeGarmentSpec skirtSpec() {
  ConeGarmentSpec s;
  s.yTop = 1.0;
  s.yBottom = 0.5;
  s.apexAbove = 0.35;  // flares enough below the waistband to clear the hips without a loose waistband
  s.clearance = 0.009;
  s.thetaBegin = -0.25 * M_PI;
  s.thetaEnd = 1.75 * M_PI;
  s.panels = 4;
  s.columnsPerPanel = 12;
  s.rows = 17;
  return s;
}

}  // namespace

Garment makeSkirt(const BodyModel& body) { return makeConeGarment("skirt", body, skirtSpec()); }

Garment makeCoarseSkirt(const BodyModel& body) {
  ConeGarmentSpec s = skirtSpec();
  s.columnsPerPanel = 5;
  s.rows = 5;
  return makeConeGarment("skirt_coarse", body, s);
}

Garment makeCape(const BodyModel& body) {
  ConeGarmentSpec s;
  s.yTop = 1.45;
  s.yBottom = 0.55;
  s.apexAbove = 1.2;  // little flare: the top edge must unroll to a shallow arc (see makeConeGarment)
  s.thetaBegin = (180.0 - 70.0) * M_PI / 180.0;
  s.thetaEnd = (180.0 + 70.0) * M_PI / 180.0;
  s.panels = 1;
  s.columnsPerPanel = 28;
  s.rows = 30;
  s.fitArms = true;
  return makeConeGarment("cape", body, s);
}

namespace {

// A flat rectangular grid of verts, one node per vert, world position given by `place(u)`.
template <class Place>
Garment gridGarment(const std::string& name, double width, double height, int nx, int ny, Place place) {
  Garment g;
  g.name = name;
  for (int i = 0; i <= nx; ++i)
    for (int j = 0; j <= ny; ++j) {
      const Vec2 u(width * i / nx, height * j / ny);
      g.u.push_back(u);
      g.vertNode.push_back(int(g.x.size()));
      g.x.push_back(place(u));
    }
  auto vert = [&](int i, int j) { return i * (ny + 1) + j; };
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      // Quads split along alternating diagonals; counter-clockwise in (u, v).
      const int a = vert(i, j), b = vert(i + 1, j), c = vert(i + 1, j + 1), d = vert(i, j + 1);
      if ((i + j) % 2 == 0) {
        g.faces.push_back({a, b, c});
        g.faces.push_back({a, c, d});
      } else {
        g.faces.push_back({a, b, d});
        g.faces.push_back({b, c, d});
      }
    }
  return g;
}

}  // namespace

Garment makeCurtain() {
  const double width = 2.0, height = 2.4, gather = 1.5;  // m of fabric; fabric / rod length
  const int pleats = 10;
  const double halfPleat = width / (2 * pleats);          // 0.1 m of fabric per slope of the zig-zag
  const double depth = halfPleat * std::sqrt(1 - 1 / (gather * gather));  // so each slope keeps its length
  auto place = [&](const Vec2& u) {
    const double s = u.x() / halfPleat, frac = s - std::floor(s);
    const bool rising = int(std::floor(s)) % 2 == 0;
    const double z = depth * (rising ? frac : 1 - frac);  // triangle wave, creases on grid columns
    return Vec3(u.x() / gather - 0.5 * width / gather, 2.5 - height + u.y(), z - 0.5 * depth);
  };
  Garment g = gridGarment("curtain", width, height, 40, 30, place);  // 5 cm columns (2 per slope), 8 cm rows
  g.pinMin = Vec2(-0.002, height - 0.01);
  g.pinMax = Vec2(width + 0.002, height + 0.002);
  return g;
}

Garment makeFlag() {
  Garment g = gridGarment("flag", 1.5, 1.0, 30, 20, [](const Vec2& u) { return Vec3(u.x(), u.y(), 0); });
  g.pinMin = Vec2(-0.002, -0.002);
  g.pinMax = Vec2(0.01, 1.002);
  return g;
}

std::string formatFixed4(double value) {
  const double rounded = std::round(value * 1e4) / 1e4 + 0.0;  // + 0.0 turns -0 into 0
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", rounded == 0 ? 0.0 : rounded);
  return buf;
}

std::string formatGarmentObj(const Garment& g) {
  std::string out = "# adacloth garment " + g.name + " (tools/make_assets): v = world (m), vt = material (m)\n";
  for (const Vec3& p : g.x) out += "v " + formatFixed4(p.x()) + " " + formatFixed4(p.y()) + " " + formatFixed4(p.z()) + "\n";
  for (const Vec2& u : g.u) out += "vt " + formatFixed4(u.x()) + " " + formatFixed4(u.y()) + "\n";
  for (const Tri& f : g.faces) {
    out += "f";
    for (int c : f) out += " " + std::to_string(g.vertNode[c] + 1) + "/" + std::to_string(c + 1);
    out += "\n";
  }
  return out;
}

}  // namespace adacloth::assets
