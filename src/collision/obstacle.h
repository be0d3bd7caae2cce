#pragma once
// Obstacles: triangle meshes the cloth cannot pass through, with a position for every time (docs/design.md §6).
// Static, rigidly animated by keys (translate, rotate, scale; linear or Catmull-Rom), deforming (an OBJ sequence
// interpolated between files), or a ground plane (an infinite half-space; a square is kept only for drawing).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "collision/params.h"
#include "collision/sequence_files.h"
#include "mesh/types.h"

namespace adacloth {

class Obstacle {
 public:
  // Loads or generates the mesh. Missing or malformed files are InputErrors naming `shotFile` and the JSON pointer.
  // A sequence reads its files through `files` (shared by a scene's obstacles; a cache of its own when null).
  Obstacle(const ObstacleSpec& spec, const std::string& shotFile, std::shared_ptr<SequenceFiles> files = nullptr);

  const ObstacleSpec& spec() const { return spec_; }
  const std::string& name() const { return spec_.name; }
  bool isGround() const { return spec_.shape == ObstacleSpec::Shape::Ground; }
  // True when the obstacle's shape or placement changes with time (keys or a sequence of more than one file).
  bool moves() const;

  const std::vector<Tri>& faces() const { return *faces_; }
  // The face list itself: one object, never changed, for the obstacle's whole life and its copies' (a sequence's
  // files share it), and edges() follow from it. A collision mesh built from it holds it and knows its faces and
  // edges are still the same without comparing them (collision_mesh.h).
  const std::shared_ptr<const std::vector<Tri>>& faceList() const { return faces_; }
  const std::vector<std::array<int, 2>>& edges() const { return edges_; }
  size_t nodeCount() const { return rest_.size(); }
  // The faces as OBJ lines ("f a b c", 1-based), formatted once: a moving obstacle is written every frame
  // (formatObstacleObj), and its faces were a quarter of the formatting.
  const std::string& objFaceLines() const { return objFaceLines_; }

  // World positions of the mesh's nodes at time t (s). During a pre-roll (spec().preroll > 0, t < 0) the obstacle
  // holds its pose at time 0, but a sequence with a rest mesh moves from that mesh (at -preroll) to it.
  std::vector<Vec3> positionsAt(double t) const;

 private:
  Mat3 linearAt(double t, Vec3& translation) const;
  std::shared_ptr<const SequenceFile> sequenceFrame(int index) const;
  double sequencePosition(double t) const;  // fractional file index from sequenceBase_ at time t
  std::vector<Vec3> restPositionsAt(double t) const;
  std::vector<Vec3> sequencePoseAt(double t) const;  // before transform and motion, from the files
  void readPrerollStart(const ObstacleSpec& spec, const std::string& shotFile);

  ObstacleSpec spec_;
  std::string shotFile_;
  std::vector<Vec3> rest_;  // before transform and motion (frame `firstFrame` for a sequence)
  // A sequence's is its first file's list, shared with the file cache (sequence_files.h): a file of the sequence is
  // checked against it by pointer.
  std::shared_ptr<const std::vector<Tri>> faces_;
  std::vector<Vec3> prerollStart_;  // a sequence's rest mesh (spec_.sequenceRest), before transform; empty: none
  std::vector<std::array<int, 2>> edges_;
  std::string objFaceLines_;
  int sequenceFrames_ = 1;  // number of files found for a sequence (a looping one: the whole cycle)
  int sequenceBase_ = 0;    // number of the file at index 0 (firstFrame, or the cycle's lowest file when looping)
  std::shared_ptr<SequenceFiles> files_;  // sequence files read so far (shared with copies and the scene's others)
};

// An obstacle's state at one instant: world positions of its nodes and, for a ground, its plane.
struct ObstaclePose {
  const Obstacle* obstacle = nullptr;
  std::vector<Vec3> x;                  // m
  Vec3 planePoint = Vec3::Zero();       // ground only: a point of the plane (m)
  Vec3 planeNormal = Vec3::UnitY();     // ground only: unit normal pointing to the free side
};

ObstaclePose poseAt(const Obstacle& obstacle, double t);
std::vector<ObstaclePose> posesAt(const std::vector<Obstacle>& obstacles, double t);

// Generated shapes (outward-facing, counter-clockwise seen from outside).
void makeIcosphere(double radius, int subdivisions, std::vector<Vec3>& x, std::vector<Tri>& faces);
void makeBox(const Vec3& size, std::vector<Vec3>& x, std::vector<Tri>& faces);  // centred at the origin
void makeGroundSquare(double side, std::vector<Vec3>& x, std::vector<Tri>& faces);  // y = 0, normal +Y

// Positions and triangles of an OBJ file (`v` and `f` only; polygons fan-triangulated). InputError on bad input.
void readObstacleObj(const std::string& file, std::vector<Vec3>& x, std::vector<Tri>& faces);
// The same from text; `file` names it in messages.
void parseObstacleObj(const std::string& text, const std::string& file, std::vector<Vec3>& x,
                      std::vector<Tri>& faces);

// OBJ text of an obstacle pose (v and f lines), for OUT/obstacles/<name>_<frame:05d>.obj.
std::string formatObstacleObj(const Obstacle& obstacle, const std::vector<Vec3>& x);
// The "f" lines of faces (1-based), as formatObstacleObj writes them.
std::string formatObjFaceLines(const std::vector<Tri>& faces);

// The unique undirected edges of a triangle list, sorted.
std::vector<std::array<int, 2>> uniqueEdges(const std::vector<Tri>& faces);

}  // namespace adacloth
