#pragma once
// The shot: what a user writes in conf/*.json, validated and typed. The schema in shot_schema.cpp is the single
// source of truth for keys, defaults and docs (docs/shot-format.md is generated from it: `adacloth schema`).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "collision/params.h"
#include "config/schema.h"
#include "dynamics/params.h"
#include "mesh/transform.h"
#include "mesh/types.h"
#include "sizing/params.h"
#include "view/params.h"

namespace adacloth {

namespace fs = std::filesystem;

struct MeshSpec {
  enum class Type { File, Grid, Tube, Disc } type = Type::File;
  fs::path file;                // File
  Vec2 size = Vec2::Ones();     // Grid: width, height (m)
  int cellsX = 1, cellsY = 1;   // Grid
  double radius = 0, length = 0;  // Tube, Disc (radius only)
  int cellsAround = 32, cellsAlong = 16;  // Tube
  int rings = 16;               // Disc
};

// Fixed-topology output through a learned upsampling operator (`upsample`, docs/upsampled-output.md).
struct UpsampleSpec {
  std::string method = "linear";  // linear | wrinkles | mlp (upsample/model_kind.h)
  fs::path operatorFile;     // the model file (.bin) of that method, resolved against the shot's folder
  double blendLo = 1.0;      // simulation / output edge-length ratio up to which the simulation is used alone
  double blendHi = 2.0;      // ratio from which the upsampled position is used alone (> blendLo)
  int smoothingPasses = 2;   // neighbour-averaging passes of the blend weight over the output mesh
};

struct ClothSpec {
  std::string name;
  std::string place;  // JSON pointer of this cloth in the shot, for messages ("/cloths/0")
  MeshSpec mesh;
  TransformSpec transform;
  MaterialParams material;
  std::vector<HandleSpec> handles;
  StrainLimitParams strainLimit;
  std::optional<SizingParams> remeshing;  // adaptive remeshing (docs/remeshing.md); absent: the mesh stays fixed
  std::optional<ViewParams> view;  // view-dependent refinement; needs remeshing and the shot's camera
  std::optional<UpsampleSpec> upsample;  // fixed-topology output OUT/frames/<cloth>_out_<frame>.obj
};

// Checkpoints of a run (`checkpoint`; docs/design.md §8): the whole simulation state, written every `every` frames
// into OUT/checkpoints/ so that `simulate --resume` can continue an interrupted run with the same bytes.
struct CheckpointSpec {
  int every = 10;  // frames between checkpoints; 0: none
  int keep = 2;    // newest checkpoints kept (older ones are removed as new ones are written)
};

struct Shot {
  fs::path file;        // the shot file as given
  std::string name;     // "name", or the file's stem
  double fps = 24.0;
  int frames = 120;     // frames simulated after the initial frame 0
  std::vector<ClothSpec> cloths;
  std::optional<fs::path> camera;
  std::vector<ObstacleSpec> obstacles;
  CollisionParams collision;
  int stepsPerFrame = 4;
  // Contact thicknesses (1): a step in which an obstacle vertex near a cloth moves farther is split into equal
  // substeps (0: never split).
  double maxObstacleStep = 6;
  int prerollFrames = 0;  // frames simulated before frame 0 and not written (the obstacles' pre-roll)
  CheckpointSpec checkpoint;
  StepSettings dynamics;  // gravity, wind, the linear solve and the blow-up guard (docs/design.md §5)
  config::Json resolved;  // the whole shot with every default filled in (written to OUT/shot.resolved.json)

  double frameTime() const { return 1.0 / fps; }
  double stepTime() const { return frameTime() / stepsPerFrame; }
  double startTime() const { return -prerollFrames * frameTime(); }  // s: the simulation starts here, not at 0
};

// Helpers for schemas that take their defaults from parameter structs.
config::Json toJson(const Vec3& v);                                   // [x, y, z]
std::string shortNumber(double x);                                    // "%g" without exponent padding: 5e-6
std::string solverName(StepSolver solver);                            // the `solver` key's value
std::string preconditionerName(PcgSettings::Preconditioner p);        // the `solver_preconditioner` key's value

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
