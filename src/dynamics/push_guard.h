#pragma once
// The push guard: what keeps the contact pass's pushes from stretching a cloth that has no strain limit of its own.
//
// Why: the proximity pushes (collision/response.h, step 3) move each pair of layers apart to the contact thickness,
// one pair after the other, with no regard for the cloth between the pairs. A cloth with a strain limit has the
// limiter run after them; one without had nothing, so in a pile of cloth (three sheets dropped on a ball, a sheet
// fallen on its edge, silk on a turning ball) every step's solve relaxed the cloth (elastic energy 30 -> 4 J, edge
// p99 2.3 -> 1.5) and every step's pushes stretched it back (-> 30 J, 2.3): knots that held edges at 2-3x their
// rest length for the rest of the shot (docs/benchmarks.md, "Piles of cloth without a strain limit").
//
// The guard is the limiter's edge pass with wide, moving limits: after the pushes, each edge is brought back within
// [0.9, 1.1] of its rest length or within its own length before the pushes, whichever is wider. So it undoes only
// stretch (and compression) that the pushes added past those bounds, never what the solve made: a cloth pulled
// past 1.1 by its handles keeps that stretch, which a strain limit of 1.1 would fight (the sheet pulled 30 % wider
// by its two held edges: edge p99 3.8 with the limit, 1.9 guarded, as unguarded). Edges only: the face pass, with
// the same moving bounds per face, left a pulled sheet with triangles through each other in 27 of 48 frames.
// Positions only: the velocities stay the solve's (the pushes moved positions, not speeds, across the cloth).
#include <vector>

#include "dynamics/strain_limit.h"

namespace adacloth {

// The guard's limits of a cloth without a strain limit: every spring edge within [0.9, 1.1] of its rest length,
// ordered outward from the held nodes as the limiter's (`held`: one flag per node), no faces, no tethers.
StrainLimits pushGuardLimits(const Mesh& mesh, const DynamicsState& state, const std::vector<char>& held);

// `limits` with each edge's bounds widened to hold its length at x (node k at x[first + k]), in place.
void widenToLengths(StrainLimits& limits, const std::vector<Vec3>& x, int first);

}  // namespace adacloth
