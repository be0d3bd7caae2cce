#pragma once
// The collision subsystem's parameters and obstacle definitions: plain structs whose member initializers are the
// single source of every default (the shot schema reads its defaults from them). Nothing here knows JSON.
#include <filesystem>
#include <string>
#include <vector>

#include "mesh/transform.h"
#include "mesh/types.h"

namespace adacloth {

// Contact parameters shared by every cloth (docs/design.md §6; the shot's `collision` key).
struct CollisionParams {
  bool enabled = true;            // off: no contact at all (obstacles are only drawn)
  double thickness = 0.005;       // m: cloth is kept this far from obstacles and from itself
  double obstacleFriction = 0.3;  // Coulomb coefficient cloth-obstacle (1)
  double selfFriction = 0.2;      // Coulomb coefficient cloth-cloth (1)
  bool selfCollision = true;      // cloth-cloth contact (within a cloth and between cloths)
  int iterations = 8;             // CCD passes before impact zones
  int zoneIterations = 32;        // impact-zone passes before giving up (the pair is then reported unresolved)
};

// The contact distance of the CCD queries (m): a twentieth of the thickness (docs/collisions.md, step 4).
inline double ccdTolerance(const CollisionParams& p) { return 0.05 * p.thickness; }

// A rigid key of an obstacle's motion, applied after the obstacle's `transform` (docs/design.md §6).
struct ObstacleKey {
  double time = 0;                 // s
  Vec3 translate = Vec3::Zero();   // m
  Vec3 rotateDeg = Vec3::Zero();   // degrees about X, then Y, then Z
  double scale = 1.0;              // uniform (1)
};

// An obstacle: a mesh file, a generated shape, a ground plane or a deforming OBJ sequence, placed by `transform` and
// optionally moved rigidly by keys. Built into an Obstacle by collision/obstacle.h.
struct ObstacleSpec {
  enum class Shape { File, Sphere, Box, Ground, Sequence } shape = Shape::File;
  std::string name;
  std::string place;               // where it was defined (a JSON pointer), for messages ("/obstacles/0")
  std::filesystem::path file;      // File
  double radius = 0.5;             // Sphere (m)
  int subdivisions = 3;            // Sphere: icosahedron subdivisions (20 * 4^n triangles)
  Vec3 size = Vec3::Ones();        // Box: edge lengths (m)
  double groundSize = 10;          // Ground: side of the square written for drawing (m); contact uses the whole plane
  std::string pattern;             // Sequence: printf pattern of absolute file paths, e.g. ".../body_%04d.obj"
  double sequenceFps = 24;         // Sequence: frames per second of the files
  int firstFrame = 0;              // Sequence: number of the file shown at time 0
  bool sequenceLoop = false;       // Sequence: repeat the files forever (period files / fps), no hold
  std::filesystem::path sequenceRest;  // Sequence: the pose the cloth was fitted to (OBJ, the files' topology), or none
  double preroll = 0;              // s before time 0 the simulation starts (the shot's pre-roll, docs/shot-format.md)
  TransformSpec transform;
  std::vector<ObstacleKey> motion; // empty: no rigid motion
  bool smooth = false;             // motion interpolation: Catmull-Rom (true) or linear (false)
};

}  // namespace adacloth
