#pragma once
// Cloth meshes for the mannequin shots, in adacloth's OBJ convention (v = node positions in m, vt = material
// coordinates in m, f v/vt; several vt per v make a seam).
//
// Skirt and cape are *cones*: every point lies on a straight line (a ruling) from an apex above the body. A cone
// is developable, so each panel unrolls flat without stretching: a ruling of length L at turning angle psi maps to
// L (sin psi, -cos psi) in material space. The cone's top curve is fitted to the rest-pose body: at every angle
// around the body it is pushed out until the whole ruling, down to the hem, keeps `clearance` from the body.
#include <string>
#include <vector>

#include "body_sdf.h"

namespace adacloth::assets {

struct Garment {
  std::string name;
  std::vector<Vec3> x;        // node positions (m)
  std::vector<Vec2> u;        // vert material coordinates (m)
  std::vector<int> vertNode;  // node of each vert
  std::vector<Tri> faces;     // verts, counter-clockwise in material space, normal away from the body
  // Material-space rectangle (m) holding exactly the nodes to pin or bind to the body (skirt waistband, cape top
  // edge, curtain top, flag hoist).
  Vec2 pinMin = Vec2::Zero(), pinMax = Vec2::Zero();
};

struct ConeGarmentSpec {
  double yTop = 1.0, yBottom = 0.5;   // m: heights of the top curve and of the hem
  double apexAbove = 0.45;            // m: apex height above the top curve (smaller: more flare)
  double thetaBegin = 0, thetaEnd = 2 * M_PI;  // rad around Y from +Z towards +X; a full turn closes the cone
  int panels = 4;                     // panels across the range, sewn together at their sides
  int columnsPerPanel = 12, rows = 17;
  double clearance = 0.012;           // m: smallest distance to the body (as measured by bodyDistance)
  bool fitArms = false;               // keep clear of the arms too (the skirt ignores the hanging hands)
  double panelGap = 0.05;             // m: gap between panels in material space
};

Garment makeConeGarment(const std::string& name, const BodyModel& body, const ConeGarmentSpec& spec);

// Flared knee-length skirt: 4 gores (front, left, back, right) with side seams at +-45 and +-135 degrees, waistband
// at y = 1.0 m (between the waist and the widest part of the hips), hem at y = 0.5 m.
Garment makeSkirt(const BodyModel& body);
// The same skirt on a coarse grid (5 columns per gore, 5 rows: 120 nodes, edges ~0.1-0.12 m), the coarse mesh of the
// learned upsampling's skirt example (docs/upsampling.md), within the 100-300 nodes the method is meant for.
Garment makeCoarseSkirt(const BodyModel& body);
// Cape: one panel around the back (+-70 degrees about -Z) from the shoulders (y = 1.45 m) down to y = 0.55 m.
Garment makeCape(const BodyModel& body);
// Curtain: 2.0 m x 2.4 m of fabric gathered 1.5 : 1 into 10 zig-zag pleats (flat in material space), its top edge
// at y = 2.5 m on a rod along X centred at x = 0, z = 0.
Garment makeCurtain();
// Flag: a plain 1.5 m x 1.0 m rectangle in the XY plane, hoist (pole side) at x = 0.
Garment makeFlag();

// OBJ text with 4 decimals (0.1 mm): small files, identical bytes on every run.
std::string formatGarmentObj(const Garment& g);
std::string formatFixed4(double value);

}  // namespace adacloth::assets
