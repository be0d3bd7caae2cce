#pragma once
// Conjugate gradient on the implicit step's system preconditioned by symmetric block Gauss-Seidel (SSOR over Kang
// and Cho's per-node 3x3 blocks), applied with Eisenstat's trick.
//
// Why: the per-node blocks W_i^-1 (block Jacobi) leave CG a condition number of about h^2 k / m, and CG needs about
// its square root in iterations (~240 on a 1 cm cotton sheet at h = 1/96 s). A Gauss-Seidel sweep along the mesh
// carries a correction across the sheet in one pass instead of one edge per iteration; the symmetric, over-relaxed
// sweep keeps the preconditioner symmetric positive definite, as CG needs. Measured in a time loop on a held cotton
// sheet: 2.2x fewer iterations than block Jacobi at 1k nodes, 3.6x at 10k, 5.9x at 100k (docs/benchmarks.md,
// "Implicit step solvers").
//
// Cost: with A = L + D + L^T (D the blocks W_i, L the couplings -c J_ij to earlier free nodes) and P = D/omega + L,
// SSOR is M = P K^-1 P^T with K = (2 - omega)/omega D. CG on the transformed system P^-1 A P^-T y = P^-1 b (x =
// P^-T y) preconditioned by K is CG on A preconditioned by M (M^-1 = P^-T K P^-1), and since P^-1 A P^-T v =
// t + P^-1 (v - K t) with t = P^-T v (Eisenstat 1981), one iteration costs one backward and one forward half-sweep:
// each coupling is read once, as in one product with A. The solve runs on one thread (Gauss-Seidel is sequential,
// and sharing only the loops between the sweeps cost more in moving data between cores than it saved), so the
// result does not depend on the thread count. The sweeps go along rows of material space, not node numbers: a
// remesh appends the nodes it makes, and Gauss-Seidel gains only along an order that follows the cloth.
//
// Stopping rule: the same as solveBlockPcg's, |b - A dv|_W <= tolerance |b|_W. The iteration watches the residual
// in the preconditioner's norm (free in CG); when that says done, the true residual is measured (r = P r^, one pass
// over the lower couplings), and CG goes on with a new target if it is not yet below the tolerance.
#include <vector>

#include "dynamics/block_pcg.h"

namespace adacloth {

// Solves sys for dv from `guess` (held nodes get their prescribed dv). The mesh's material coordinates set the sweep
// order (rows of material space); the order is kept in `work` while the held nodes and the pairs stay the same.
// settings.ssorOmega in (0, 2) is the over-relaxation; 0 takes ssorOmegaFor(the number of free nodes).
std::vector<Vec3> solveSsorPcg(const ImplicitSystem& sys, const DynamicsState& state, const Mesh& mesh,
                               const std::vector<Vec3>& guess, const PcgSettings& settings, PcgWorkspace& work,
                               SolveReport* report = nullptr);

// The over-relaxation for a system of `freeNodes` free nodes: 2 / (1 + 5.67 n^-0.357), kept within [1.5, 1.85]
// (1.5 up to ~2,800 nodes, 1.65 at 10k, 1.75 at 30k, 1.83 at 100k). Why it grows: the finer the mesh, the more the
// system is a graph Laplacian across many edges, whose best SSOR relaxation tends to 2 as the grid grows (for a grid
// of N x N nodes 2 / (1 + O(1/N))). The constants are fitted to the iterations of the held cotton sheet in a time
// loop (docs/benchmarks.md, "The over-relaxation from the mesh size"); its best values were 1.3-1.5 at 1k nodes,
// 1.6-1.7 at 10k, 1.7-1.8 at 30k and 1.8-1.85 at 100k, and stiffer springs at the same node count moved them by no
// more than 0.1 (31 cells with the springs 100x stiffer: 1.5; 99 cells 10x stiffer: 1.7). The optimum is flat
// within about 0.1; below ~2,800 nodes (the shots' cloths) the rule keeps 1.5, so their bytes do not change.
double ssorOmegaFor(int freeNodes);

// Each node's material coordinates (m): those of its first vert.
std::vector<Vec2> nodeMaterialCoordinates(const Mesh& mesh);

}  // namespace adacloth
