#pragma once
// The shot: what a user writes in conf/*.json, validated and typed. The schema in shot_schema.cpp is the single
// source of truth for keys, defaults and docs (docs/shot-format.md is generated from it: `adacloth schema`).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/schema.h"
#include "mesh/types.h"

namespace adacloth {

namespace fs = std::filesystem;

struct MeshSpec {
  enum class Type { File, Grid, Tube, Disc } type = Type::File;
  fs::path file;                // File
  Vec2 size = Vec2::Ones();     // Grid: width, height (m)
  int cellsX = 1, cellsY = 1;   // Grid
  double radius = 0, length = 0;  // Tube, Disc (radius only)
  int cellsAround = 3, cellsAlong = 1;  // Tube
  int rings = 1;                // Disc
};

struct TransformSpec {
  Vec3 translate = Vec3::Zero();  // m
  Vec3 rotateDeg = Vec3::Zero();  // degrees about X, then Y, then Z (world axes)
  double scale = 1.0;             // uniform, applies to material coordinates too (a unit change)
  Mat3 rotation() const;
  Vec3 apply(const Vec3& p) const { return rotation() * (scale * p) + translate; }
};

// A fabric's physical parameters (NOTES §5). Every spring constant is derived from these per edge, so the same
// material behaves the same at any mesh resolution.
struct MaterialSpec {
  std::string preset;      // name of the preset in conf/materials/ it came from; empty for none
  double density = 0.15;   // area density (kg/m^2)
  double stretch = 2000;   // in-plane stiffness along warp and weft (N/m)
  double shear = 200;      // in-plane stiffness at 45 degrees to warp and weft (N/m)
  double bending = 5e-6;   // bending stiffness (N*m)
  double damping = 0.002;  // stiffness-proportional (Rayleigh) damping time (s)
};

// One key of a handle's motion: a translation reached at `time`, interpolated linearly between keys.
struct HandleKey {
  double time = 0;                 // s
  Vec3 translate = Vec3::Zero();   // m, relative to the handle's nodes' initial positions
};

// Nodes held by a handle: by index, by a material-space rectangle, or nearest to world points.
struct HandleSpec {
  enum class Select { Nodes, Region, Points } select = Select::Nodes;
  std::string place;               // JSON pointer of the handle, for messages
  std::vector<int> nodes;          // Nodes
  Vec2 regionMin = Vec2::Zero(), regionMax = Vec2::Zero();  // Region: material coordinates (m)
  std::vector<Vec3> points;        // Points: world positions (m) at frame 0
  std::vector<HandleKey> motion;   // empty: the nodes stay where they are
  std::string bindTo;              // name of the obstacle whose surface the nodes follow; empty: not bound
  double maxDistance = 0.05;       // m: bound nodes farther than this from the surface at frame 0 are an error
};

// Optional strain limiting: edges are pulled back until their length / rest length is within [min, max].
struct StrainLimitSpec {
  bool enabled = false;
  double min = 0.9, max = 1.1;  // ratios (1)
  int iterations = 4;
};

// Adaptive remeshing of one cloth (`remeshing`, docs/remeshing.md): the sizing field's thresholds and limits.
struct RemeshingSpec {
  bool enabled = false;             // `remeshing: false` (the default) keeps the mesh fixed
  double refineAngle = 0.3;         // rad: largest change of normal across an edge
  double refineCompression = 0.01;  // compressive strain tolerated across an edge (per metre)
  double refineVelocity = 1.0;      // m/s: largest change of velocity across an edge
  double sizeMin = 0.02, sizeMax = 0.2;  // m: edge length limits
  double aspectMin = 0.2;           // thinnest allowed element shape (shortest / longest allowed edge)
};

// View-dependent refinement of one cloth (`view`, NOTES §4, docs/view-dependent.md): how its sizing field is scaled
// by the view factor F of the shot's camera. Absent (std::nullopt in ClothSpec): view-independent.
struct ViewSpec {
  double fOut = 0.1;               // view factor of faces out of view, in (0, 1]: sizing scaled by fOut^2
  double margin = 0.2;             // m: width of the buffer outside the frustum over which F falls from 1 to fOut
  int anticipationFrames = 12;     // frames looked ahead and behind (m_t)
  int fullFrames = 4;              // frames within which the camera counts at full weight (n <= m_t)
  double minPixels = 2.0;          // pixels: shortest edge a visible face is refined to on screen
  bool backface = false;           // back-facing faces count as out of view (garments); off for flags, curtains
  bool occlusion = false;          // faces hidden behind obstacles or cloth count as out of view (depth pre-pass)
  double silhouetteThreshold = 0.2;  // view factor jump across a vert above which it takes the tensor max
};

// Air moving at `velocity`: per-face drag along the normal and lift across the flow (NOTES §5).
struct WindSpec {
  Vec3 velocity = Vec3::Zero();  // m/s
  double density = 1.2;          // air density (kg/m^3)
  double drag = 1.0;             // drag coefficient (1)
  double lift = 0.0;             // lift coefficient (1)
};

// Fixed-topology output through a learned upsampling operator (`upsample`, docs/upsampled-output.md).
struct UpsampleSpec {
  fs::path operatorFile;     // the operator (.bin), resolved against the shot's folder
  double blendLo = 1.0;      // simulation / output edge-length ratio up to which the simulation is used alone
  double blendHi = 2.0;      // ratio from which the upsampled position is used alone (> blendLo)
  int smoothingPasses = 2;   // neighbour-averaging passes of the blend weight over the output mesh
};

struct ClothSpec {
  std::string name;
  std::string place;  // JSON pointer of this cloth in the shot, for messages ("/cloths/0")
  MeshSpec mesh;
  TransformSpec transform;
  MaterialSpec material;
  std::vector<HandleSpec> handles;
  StrainLimitSpec strainLimit;
  RemeshingSpec remeshing;
  std::optional<ViewSpec> view;  // view-dependent refinement; needs remeshing and the shot's camera
  std::optional<UpsampleSpec> upsample;  // fixed-topology output OUT/frames/<cloth>_out_<frame>.obj
};

// A rigid key of an obstacle's motion, applied after the obstacle's `transform` (NOTES §6).
struct ObstacleKey {
  double time = 0;                 // s
  Vec3 translate = Vec3::Zero();   // m
  Vec3 rotateDeg = Vec3::Zero();   // degrees about X, then Y, then Z
  double scale = 1.0;              // uniform (1)
};

// An obstacle: a mesh file, a generated shape, a ground plane or a deforming OBJ sequence, placed by `transform` and
// optionally moved rigidly by keys. Built into an Obstacle by src/collision/obstacle.h.
struct ObstacleSpec {
  enum class Shape { File, Sphere, Box, Ground, Sequence } shape = Shape::File;
  std::string name;
  std::string place;               // JSON pointer, for messages ("/obstacles/0")
  fs::path file;                   // File
  double radius = 0.5;             // Sphere (m)
  int subdivisions = 3;            // Sphere: icosahedron subdivisions (20 * 4^n triangles)
  Vec3 size = Vec3::Ones();        // Box: edge lengths (m)
  double groundSize = 10;          // Ground: side of the square written for drawing (m); contact uses the whole plane
  std::string pattern;             // Sequence: printf pattern of absolute file paths, e.g. ".../body_%04d.obj"
  double sequenceFps = 24;         // Sequence: frames per second of the files
  int firstFrame = 0;              // Sequence: number of the file shown at time 0
  bool sequenceLoop = false;       // Sequence: repeat the files forever (period files / fps), no hold
  TransformSpec transform;
  std::vector<ObstacleKey> motion; // empty: no rigid motion
  bool smooth = false;             // motion interpolation: Catmull-Rom (true) or linear (false)
};

// Contact parameters shared by every cloth (NOTES §6).
struct CollisionSpec {
  bool enabled = true;
  double thickness = 0.005;        // m: cloth is kept this far from obstacles and from itself
  double obstacleFriction = 0.3;   // Coulomb coefficient cloth-obstacle (1)
  double selfFriction = 0.2;       // Coulomb coefficient cloth-cloth (1)
  bool selfCollision = true;
  int iterations = 8;              // CCD passes before the impact-zone fallback
};

struct Shot {
  fs::path file;        // the shot file as given
  std::string name;     // "name", or the file's stem
  double fps = 24.0;
  int frames = 0;       // frames simulated after the initial frame 0
  std::vector<ClothSpec> cloths;
  std::optional<fs::path> camera;
  std::vector<ObstacleSpec> obstacles;
  CollisionSpec collision;
  // dynamics (NOTES §5)
  int stepsPerFrame = 4;
  Vec3 gravity = Vec3(0, -9.81, 0);  // m/s^2, Y is up
  // pcg: block-preconditioned CG (default); direct: sparse Cholesky (exact); kang_cho: the paper's Jacobi update
  // (approximate, for previews); cg: Eigen's diagonally preconditioned CG (slow reference)
  enum class Solver { Pcg, Direct, KangCho, CG } solver = Solver::Pcg;
  double solverTolerance = 1e-3;  // pcg: relative residual at which it stops
  int solverMaxIterations = 1000; // pcg: iteration cap per step
  enum class Preconditioner { Auto, BlockJacobi, Multigrid } solverPreconditioner = Preconditioner::Auto;  // pcg
  int iterations = 1;        // Jacobi sweeps of the Kang-Cho update (1 = the paper's one-iteration update)
  double cgTolerance = 1e-8; // relative residual of the CG reference solve
  double maxSpeed = 100;     // m/s; a node faster than this stops the run (SimulationError)
  WindSpec wind;
  config::Json resolved;  // the whole shot with every default filled in (written to OUT/shot.resolved.json)

  double frameTime() const { return 1.0 / fps; }
  double stepTime() const { return frameTime() / stepsPerFrame; }
};

// The schema of a cloth's `material` object (also the format of the preset files conf/materials/<name>.json).
config::Field materialObjectSchema();

// The schema of a shot file.
const config::Field& shotSchema();
// The resolved value of `remeshing: true`: the remeshing object with every default filled in.
config::Json defaultRemeshing();

// Reads, validates and types a shot. Every problem is an InputError naming the file and the JSON path.
Shot loadShot(const fs::path& file);
// The same from text (`file` for messages and relative paths).
Shot parseShot(const std::string& text, const fs::path& file);

}  // namespace adacloth
