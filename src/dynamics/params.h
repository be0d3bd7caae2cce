#pragma once
// The dynamics' parameters: plain structs whose member initializers are the single source of every default (the
// shot schema reads its defaults from them, the shot reader fills them, tests and benchmarks set them directly).
// Nothing here knows JSON.
#include <string>
#include <vector>

#include "mesh/types.h"

namespace adacloth {

// A fabric's physical parameters (docs/design.md §5). Every spring constant is derived from these per edge, so the
// same material behaves the same at any mesh resolution.
struct MaterialParams {
  std::string preset;      // name of the preset in conf/materials/ it came from; empty for none
  double density = 0.15;   // area density (kg/m^2)
  double stretch = 2000;   // in-plane stiffness along warp and weft (N/m)
  double shear = 200;      // in-plane stiffness at 45 degrees to warp and weft (N/m)
  double bending = 5e-6;   // bending stiffness (N*m)
  double damping = 0.002;  // stiffness-proportional (Rayleigh) damping time (s)
  // In-plane elasticity: a spring per edge (the paper's model), or each face as a constant-strain triangle with the
  // same moduli (dynamics/membrane.h), which holds them on any mesh.
  enum class Membrane { Springs, Triangles } membrane = Membrane::Springs;
};

// Optional strain limiting: edges are pulled back until their length / rest length is within [min, max].
struct StrainLimitParams {
  bool enabled = false;
  double min = 0.9, max = 1.1;  // ratios (1)
  int iterations = 4;           // Gauss-Seidel passes over the tethers, faces and edges per step
  bool tethers = false;         // tether free nodes to the held ones (dynamics/tethers.h)
  // The limit inside the implicit solve (dynamics/face_stiffening.h): a face stiffens by `stiffening` x the material's
  // stretch stiffness once its larger principal stretch passes 1 + onset (max - 1); 0: none. Off by default: on a
  // flag held at two corners in wind (limit 1.05) 30 and 0.5 kept the largest edge at 1.05-1.06 where 0 left
  // 1.28-1.78, but on the garments, whose stretch the body decides, it raised the solve's iterations 2-3x and did
  // not lower their stretch (docs/benchmarks.md). A shot that leaves it out gets 100 (at most 200 kN/m) from 0.1
  // (from 0.25 under 500 N/m) on free cloth with a limit of 1.05 or less (config/shot.cpp, defaultStiffening).
  double stiffening = 0;        // (1)
  double onset = 0.5;           // fraction of the way from 1 to max where it starts (1)
};

// Air moving at `velocity`: per-face drag along the normal and lift across the flow (docs/design.md §5).
struct WindParams {
  Vec3 velocity = Vec3::Zero();  // m/s
  double density = 1.2;          // air density (kg/m^3)
  double drag = 1.0;             // drag coefficient (1)
  double lift = 0.0;             // lift coefficient (1)
};

// One key of a handle's motion: a translation reached at `time`, interpolated linearly between keys.
struct HandleKey {
  double time = 0;                 // s
  Vec3 translate = Vec3::Zero();   // m, relative to the handle's nodes' initial positions
};

// Nodes held by a handle: by index, by a material-space rectangle, or nearest to world points.
struct HandleSpec {
  enum class Select { Nodes, Region, Points } select = Select::Nodes;
  std::string place;               // where it was defined (a JSON pointer), for messages
  std::vector<int> nodes;          // Nodes
  Vec2 regionMin = Vec2::Zero(), regionMax = Vec2::Zero();  // Region: material coordinates (m)
  std::vector<Vec3> points;        // Points: world positions (m) at frame 0
  std::vector<HandleKey> motion;   // empty: the nodes stay where they are
  std::string bindTo;              // name of the obstacle whose surface the nodes follow; empty: not bound
  double maxDistance = 0.05;       // m: bound nodes farther than this from the surface at frame 0 are an error
  double bindSmoothing = 0.05;     // m: a bound node follows the surface triangles within its distance plus this
  double bindRigidity = 1.0;       // 0: bound nodes follow the surface as it deforms; 1: the rigid motion that best
                                   // fits it (the held band keeps its shape); between: the blend
};

// Stopping rule and preconditioner of the default solve (dynamics/block_pcg.h).
struct PcgSettings {
  enum class Preconditioner {
    Auto,         // BlockJacobi below ssorMinNodes free nodes, Ssor from there on
    BlockJacobi,  // Kang and Cho's per-node blocks W_i^-1
    Multigrid,    // a smoothed-aggregation V-cycle (dynamics/multigrid.h); on request only: ssor measured 1.5x
                  // faster at 100k nodes, 4x at 10k (docs/benchmarks.md)
    Ssor,         // symmetric block Gauss-Seidel in rows of material space, by Eisenstat's trick (dynamics/ssor_pcg.h)
  };
  double tolerance = 3e-3;  // stop when |b - A dv|_W <= tolerance |b|_W over the free nodes (1), in the norm of the
                            // per-node blocks |y|_W = sqrt(sum_i y_i . W_i^-1 y_i) (implicit_system.h)
  int maxIterations = 1000; // stop here whatever the residual
  Preconditioner preconditioner = Preconditioner::Auto;
  int ssorMinNodes = 1000;        // Auto: free nodes from which the sweeps' fewer iterations pay for their cost
  bool warmStart = true;    // start from the last steps' dv (dynamics/warm_start.h), else from h f_ext / m
  // Ssor: over-relaxation in (0, 2); 0: from the number of free nodes (ssorOmegaFor in dynamics/ssor_pcg.h): 1.5 up
  // to ~2,800 nodes, 1.83 at 100k (docs/benchmarks.md); not a shot key.
  double ssorOmega = 0;
};

// How the implicit step's linear system is solved (docs/materials.md, "Which solve to use").
enum class StepSolver {
  Auto,     // Pcg, and per cloth Direct where its pcg frames show that to be the cheaper (the default)
  Pcg,      // block-preconditioned CG, converging
  Direct,   // sparse Cholesky, exact
  KangCho,  // the paper's Jacobi update: approximate, for previews
  CG,       // Eigen's diagonally preconditioned CG: a slow reference
};

// Everything a step needs besides the cloth's own material and strain limit.
// The obstacle contacts' springs in the solve (dynamics/obstacle_contact.h); multiples are dimensionless.
struct ContactSprings {
  // x m / h^2: at 64 the solve takes 98 % of a predicted depth out of a node its inertia alone holds; 1 and 16 left
  // the ball in sheet_on_sphere pumping energy.
  double massMultiple = 64;
  // x the cloth's own stiffness at the node along the normal. With the mass part alone, a refined sheet under
  // tension pulled its nodes centimetres into an obstacle and tore on it (a cotton sheet pressed 50 cm by a ball:
  // edge p99 21.9; here 1.55). 1 left a curtain that a 3 cm rod sweeps at 3.5 m/s torn, 16 blew it up (measured on
  // a first version; docs/benchmarks.md, "Contact springs as stiff as the cloth").
  double clothMultiple = 4;
  // Contacts that end a checked step pulling their node towards the obstacle are let go and the step solved again
  // (stepCloth's check, step.h): springs this stiff would otherwise hold cloth leaving an obstacle on it for the step.
  bool oneSided = true;
  // Coulomb coefficient (1) of the contacts (the shot's obstacle_friction; the app sets it): each spring's normal
  // impulse over the step bounds the tangential velocity it takes from its node relative to the obstacle's surface
  // (applyContactFriction). 0: frictionless springs, and friction only from the contact pass after the step, which
  // sees none of the normal impulse the springs gave: cotton on a 20 degree slope slid at 97 % of the frictionless
  // rate with a coefficient of 0.5.
  double friction = 0;
  bool enabled() const { return massMultiple > 0 || clothMultiple > 0; }
};

struct StepSettings {
  Vec3 gravity = Vec3(0, -9.81, 0);  // m/s^2, Y is up
  WindParams wind;
  StepSolver solver = StepSolver::Auto;
  PcgSettings pcg;            // solver pcg: stopping rule
  int iterations = 1;         // solver kang_cho: Jacobi sweeps (1 = the paper's one-iteration update)
  double cgTolerance = 1e-8;  // solver cg: relative residual
  double maxSpeed = 100;      // m/s: a node faster than this is a blow-up (findBadNode)
  ContactSprings contactSprings;  // obstacle contacts in the solve (dynamics/obstacle_contact.h)
};

}  // namespace adacloth
