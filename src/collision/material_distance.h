#pragma once
// How far apart the two primitives of a pair inside one cloth are in material space (the cloth laid flat at rest).
// Two places of a cloth a few millimetres apart in material space are neighbours whose distance the cloth's own
// elasticity decides; they are not layers that must be kept a thickness apart (proximity pass, contact_response.h).
#include "collision/candidates.h"
#include "collision/collision_mesh.h"

namespace adacloth {

// The closest two places of one cloth, `d` apart in material space, can come without the cloth between them
// stretching or bending tighter than a fold of the contact thickness allows: kFoldChord x d, the chord of a half
// circle of arc length d (2 / pi). A fold whose crest is a half circle of diameter `thickness` holds every pair of its
// cloth at least min(thickness, kFoldChord x d) apart (the chord of an arc s <= pi thickness / 2 on it is
// thickness sin(s / thickness) >= kFoldChord s), so keeping pairs that far apart asks nothing of the cloth that a fold
// of that thickness cannot give.
//
// So a pair inside one cloth at least kFoldChord x d apart is no contact (contact_response.h), and one closer is pushed
// to min(thickness, kFoldChord x d) at most. Such neighbours are not layers to keep a thickness apart: a remeshed 1 cm
// cloth has edges of 3-9 mm, so primitives two rings apart lie closer than a 5 mm thickness even flat and at rest,
// and pushing them to it every step stretched the cloth, the next solve pulled it back, and the strain grew step
// after step (skirt_walk at a 1 cm size: elastic energy 1 -> 200 J; docs/benchmarks.md). Until stop 92 the fraction
// was 0.9 (the cloth's rest spacing, 10 % compression tolerated): a fold's two flanks near its crest, a few mm apart
// in material space, were then pushed to 0.9 of that, which no crest narrower than about 1.4 thicknesses allows, and
// the pushes stretched the cloth across every fold tighter than that (a cotton sheet at a 2 mm size draped on a ball
// under a 5 mm thickness: face stretch p99 1.24 after 1 s, 1.04 with self-contact off; docs/collisions.md, "Folds
// finer than the thickness"). Pairs closer than the fold allows (cloth gathered or crushed) are pushed apart, and no
// pair may cross (the CCD passes).
constexpr double kFoldChord = 0.63661977236758134;  // 2 / pi

// The material-space distance (m) from point p to the triangle abc (0 inside), both in one chart.
double materialDistance(const Vec2& p, const std::array<Vec2, 3>& triangle);

// The material-space distance (m) between the primitives of `c`: a node and a face, or two edges, each taken in the
// chart (connected piece of material space) of its owner face (collision_mesh.h). Infinite when the pair is not
// inside one cloth or its primitives lie in different charts: a seam joins panels that are laid out apart, so their
// material coordinates say nothing about how close the panels are.
double materialDistance(const CollisionMesh& w, const Candidate& c);

}  // namespace adacloth
