#pragma once
// The mannequin: the body model polygonized into one closed surface, decimated to a target size, and skinned to
// its skeleton, ready to be posed by a gait.
#include <string>

#include "body_sdf.h"
#include "skinning.h"
#include "surface.h"

namespace adacloth::assets {

struct Gait;

struct Mannequin {
  BodyModel body;
  Surface rest;          // rest pose, faces outward
  SkinWeights weights;
};

// Marching tetrahedra on a 1 cm grid (~100k triangles), then shortest-edge collapse down to `targetFaces`.
Mannequin makeMannequin(int targetFaces = 6000);

// The posed surface at time t of a gait (same vertices and faces as the rest surface).
Surface posedSurface(const Mannequin& m, const Gait& gait, double t);

// OBJ text of a surface (v and f) with 4 decimals.
std::string formatSurfaceObj(const Surface& s, const std::string& comment);

}  // namespace adacloth::assets
