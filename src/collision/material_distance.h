#pragma once
// How far apart the two primitives of a pair inside one cloth are in material space (the cloth laid flat at rest).
// Two places of a cloth a few millimetres apart in material space are neighbours whose distance the cloth's own
// elasticity decides; they are not layers that must be kept a thickness apart (proximity pass, contact_response.h).
#include "collision/candidates.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// A pair inside one cloth whose primitives are at least this fraction of their material-space distance apart is at
// its rest spacing (1 - the fraction is the compression tolerated: the strain limit's default min). Such neighbours
// are not layers to keep a thickness apart: a remeshed 1 cm cloth has edges of 3-9 mm, so primitives two rings apart
// lie closer than a 5 mm thickness even flat and at rest, and pushing them to it every step stretched the cloth, the
// next solve pulled it back, and the strain grew step after step (skirt_walk at a 1 cm size: elastic energy
// 1 -> 200 J; docs/benchmarks.md). Pairs closer than that (cloth gathered, buckled or folded onto itself) are pushed
// apart (contact_response.h), and no pair may cross (the CCD passes).
constexpr double kMaterialRestSpacing = 0.9;

// The material-space distance (m) from point p to the triangle abc (0 inside), both in one chart.
double materialDistance(const Vec2& p, const std::array<Vec2, 3>& triangle);

// The material-space distance (m) between the primitives of `c`: a node and a face, or two edges, each taken in the
// chart (connected piece of material space) of its owner face (collision_mesh.h). Infinite when the pair is not
// inside one cloth or its primitives lie in different charts: a seam joins panels that are laid out apart, so their
// material coordinates say nothing about how close the panels are.
double materialDistance(const CollisionMesh& w, const Candidate& c);

}  // namespace adacloth
