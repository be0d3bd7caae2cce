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

struct MaterialSpec {
  double density = 0.15;  // area density (kg/m^2)
};

struct ClothSpec {
  std::string name;
  std::string place;  // JSON pointer of this cloth in the shot, for messages ("/cloths/0")
  MeshSpec mesh;
  TransformSpec transform;
  MaterialSpec material;
};

struct Shot {
  fs::path file;        // the shot file as given
  std::string name;     // "name", or the file's stem
  double fps = 24.0;
  int frames = 0;       // frames simulated after the initial frame 0
  std::vector<ClothSpec> cloths;
  std::optional<fs::path> camera;
  config::Json resolved;  // the whole shot with every default filled in (written to OUT/shot.resolved.json)

  double frameTime() const { return 1.0 / fps; }
};

// The schema of a shot file.
const config::Field& shotSchema();

// Reads, validates and types a shot. Every problem is an InputError naming the file and the JSON path.
Shot loadShot(const fs::path& file);
// The same from text (`file` for messages and relative paths).
Shot parseShot(const std::string& text, const fs::path& file);

}  // namespace adacloth
