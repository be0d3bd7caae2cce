#include "collision/obstacle.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth {
namespace {

std::string sequenceFile(const std::string& pattern, int number) {
  char buf[4096];
  std::snprintf(buf, sizeof buf, pattern.c_str(), number);
  return buf;
}

Mat3 eulerDeg(const Vec3& deg) {
  const double r = M_PI / 180.0;
  return (Eigen::AngleAxisd(deg.z() * r, Vec3::UnitZ()) * Eigen::AngleAxisd(deg.y() * r, Vec3::UnitY()) *
          Eigen::AngleAxisd(deg.x() * r, Vec3::UnitX()))
      .toRotationMatrix();
}

// A key's channels as one vector (translate, rotate_deg, scale) so both interpolations treat them alike. Euler angles
// are interpolated per channel, as animation tools do, so a key may spin an obstacle by more than a half turn.
using Channels = Eigen::Matrix<double, 7, 1>;
Channels channelsOf(const ObstacleKey& k) {
  Channels c;
  c << k.translate, k.rotateDeg, k.scale;
  return c;
}

// Catmull-Rom tangent at key i (per second), zero at the first and last key (ease in and out).
Channels tangent(const std::vector<ObstacleKey>& keys, size_t i) {
  if (i == 0 || i + 1 == keys.size()) return Channels::Zero();
  return (channelsOf(keys[i + 1]) - channelsOf(keys[i - 1])) / (keys[i + 1].time - keys[i - 1].time);
}

Channels interpolate(const std::vector<ObstacleKey>& keys, bool smooth, double t) {
  if (t <= keys.front().time) return channelsOf(keys.front());
  if (t >= keys.back().time) return channelsOf(keys.back());
  size_t i = 0;
  while (keys[i + 1].time < t) ++i;
  const double h = keys[i + 1].time - keys[i].time, s = (t - keys[i].time) / h;
  const Channels a = channelsOf(keys[i]), b = channelsOf(keys[i + 1]);
  if (!smooth) return (1 - s) * a + s * b;
  // Cubic Hermite basis.
  const double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * a + (s3 - 2 * s2 + s) * h * tangent(keys, i) + (-2 * s3 + 3 * s2) * b +
         (s3 - s2) * h * tangent(keys, i + 1);
}

}  // namespace

Obstacle::Obstacle(const ObstacleSpec& spec, const std::string& shotFile, std::shared_ptr<SequenceFiles> files)
    : spec_(spec), shotFile_(shotFile), files_(std::move(files)) {
  using Shape = ObstacleSpec::Shape;
  std::vector<Tri> faces;
  switch (spec.shape) {
    case Shape::Sphere: makeIcosphere(spec.radius, spec.subdivisions, rest_, faces); break;
    case Shape::Box: makeBox(spec.size, rest_, faces); break;
    case Shape::Ground: makeGroundSquare(spec.groundSize, rest_, faces); break;
    case Shape::File:
      if (!std::filesystem::exists(spec.file))
        throw InputError(shotFile + ": " + spec.place + "/mesh: mesh file " + spec.file.string() + " does not exist");
      readObstacleObj(spec.file.string(), rest_, faces);
      break;
    case Shape::Sequence: {
      const std::string first = sequenceFile(spec.pattern, spec.firstFrame);
      if (!std::filesystem::exists(first))
        throw InputError(shotFile + ": " + spec.place + "/mesh/sequence/pattern: the first file " + first +
                         " does not exist");
      if (!files_) files_ = std::make_shared<SequenceFiles>();
      {
        const std::shared_ptr<const SequenceFile> firstFile = files_->get(first);
        rest_ = firstFile->x;
        faces_ = firstFile->faces;
      }
      // A looping cycle also takes the files numbered below `first` (the character starts mid-cycle).
      sequenceBase_ = spec.firstFrame;
      while (spec.sequenceLoop && sequenceBase_ > 0 && std::filesystem::exists(sequenceFile(spec.pattern, sequenceBase_ - 1)))
        --sequenceBase_;
      sequenceFrames_ = spec.firstFrame - sequenceBase_ + 1;
      while (sequenceFrames_ < 1000000 && std::filesystem::exists(sequenceFile(spec.pattern, sequenceBase_ + sequenceFrames_)))
        ++sequenceFrames_;
      if (!spec.sequenceRest.empty()) readPrerollStart(spec, shotFile);
      break;
    }
  }
  if (!faces_) faces_ = std::make_shared<const std::vector<Tri>>(std::move(faces));
  if (faces_->empty()) throw InputError(shotFile + ": " + spec.place + "/mesh: the obstacle has no triangles");
  edges_ = uniqueEdges(*faces_);
  objFaceLines_ = formatObjFaceLines(*faces_);
  for (size_t k = 1; k < spec.motion.size(); ++k)
    if (!(spec.motion[k].time > spec.motion[k - 1].time))
      throw InputError(shotFile + ": " + spec.place + "/motion/" + std::to_string(k) +
                       "/time: expected key times in increasing order");
}

bool Obstacle::moves() const {
  return spec_.motion.size() > 1 || (spec_.shape == ObstacleSpec::Shape::Sequence && sequenceFrames_ > 1) ||
         (spec_.preroll > 0 && !prerollStart_.empty());
}

Mat3 Obstacle::linearAt(double t, Vec3& translation) const {
  const TransformSpec& tr = spec_.transform;
  Mat3 placement = tr.scale * tr.rotation();
  translation = tr.translate;
  if (spec_.motion.empty()) return placement;
  Channels c = interpolate(spec_.motion, spec_.smooth, t);
  const Mat3 key = c[6] * eulerDeg(c.segment<3>(3));
  translation = key * translation + c.head<3>();
  return key * placement;
}

std::shared_ptr<const SequenceFile> Obstacle::sequenceFrame(int index) const {
  const std::string file = sequenceFile(spec_.pattern, sequenceBase_ + index);
  std::shared_ptr<const SequenceFile> frame = files_->get(file);
  if (frame->x.size() != rest_.size() || (frame->faces != faces_ && *frame->faces != *faces_))
    throw InputError(file + ": expected the same vertices and faces as the sequence's first file (" +
                     std::to_string(rest_.size()) + " vertices, " + std::to_string(faces_->size()) + " faces)");
  return frame;
}

double Obstacle::sequencePosition(double t) const {
  const double f = (spec_.firstFrame - sequenceBase_) + t * spec_.sequenceFps;
  if (!spec_.sequenceLoop) return std::clamp(f, 0.0, double(sequenceFrames_ - 1));
  const double wrapped = std::fmod(f, double(sequenceFrames_));
  return wrapped < 0 ? wrapped + sequenceFrames_ : wrapped;  // t < 0 runs the cycle backwards
}

// A pre-roll starts from the rest mesh and eases into the pose at time 0 (zero speed at both ends, so the cloth is
// not jerked when it starts or when the animation takes over); the rest mesh is held before -preroll.
std::vector<Vec3> Obstacle::restPositionsAt(double t) const {
  if (!(spec_.preroll > 0 && t < 0)) return sequencePoseAt(t);
  std::vector<Vec3> x = sequencePoseAt(0.0);
  if (prerollStart_.empty()) return x;
  const double u = std::clamp((t + spec_.preroll) / spec_.preroll, 0.0, 1.0), s = u * u * (3 - 2 * u);
  for (size_t k = 0; k < x.size(); ++k) x[k] = (1 - s) * prerollStart_[k] + s * x[k];
  return x;
}

void Obstacle::readPrerollStart(const ObstacleSpec& spec, const std::string& shotFile) {
  const std::string file = spec.sequenceRest.string();
  if (!std::filesystem::exists(spec.sequenceRest))
    throw InputError(shotFile + ": " + spec.place + "/mesh/sequence/rest: mesh file " + file + " does not exist");
  std::vector<Tri> faces;
  readObstacleObj(file, prerollStart_, faces);
  if (prerollStart_.size() != rest_.size() || faces != *faces_)
    throw InputError(shotFile + ": " + spec.place + "/mesh/sequence/rest: " + file + " has " +
                     std::to_string(prerollStart_.size()) + " vertices and " + std::to_string(faces.size()) +
                     " faces; expected the sequence's (" + std::to_string(rest_.size()) + " vertices, " +
                     std::to_string(faces_->size()) + " faces, the same faces)");
}

std::vector<Vec3> Obstacle::sequencePoseAt(double t) const {
  if (spec_.shape != ObstacleSpec::Shape::Sequence || sequenceFrames_ == 1) return rest_;
  const double f = sequencePosition(t);
  const int last = sequenceFrames_ - 1;
  const int i = std::min(int(std::floor(f)), last);
  // Past the last file a loop blends back into file 0; a plain sequence holds the last file.
  const int j = i < last ? i + 1 : (spec_.sequenceLoop ? 0 : last);
  const double s = f - i;
  std::vector<Vec3> a = sequenceFrame(i)->x;
  if (s == 0 || i == j) return a;
  const std::shared_ptr<const SequenceFile> b = sequenceFrame(j);
  for (size_t k = 0; k < a.size(); ++k) a[k] = (1 - s) * a[k] + s * b->x[k];
  return a;
}

std::vector<Vec3> Obstacle::positionsAt(double t) const {
  Vec3 translation;
  const Mat3 linear = linearAt(t, translation);
  std::vector<Vec3> x = restPositionsAt(t);
  for (Vec3& p : x) p = linear * p + translation;
  return x;
}

ObstaclePose poseAt(const Obstacle& obstacle, double t) {
  ObstaclePose pose;
  pose.obstacle = &obstacle;
  pose.x = obstacle.positionsAt(t);
  if (obstacle.isGround()) {
    const Tri& f = obstacle.faces()[0];
    pose.planePoint = pose.x[f[0]];
    pose.planeNormal = (pose.x[f[1]] - pose.x[f[0]]).cross(pose.x[f[2]] - pose.x[f[0]]).normalized();
  }
  return pose;
}

std::vector<ObstaclePose> posesAt(const std::vector<Obstacle>& obstacles, double t) {
  std::vector<ObstaclePose> poses;
  for (const Obstacle& o : obstacles) poses.push_back(poseAt(o, t));
  return poses;
}

void makeIcosphere(double radius, int subdivisions, std::vector<Vec3>& x, std::vector<Tri>& faces) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  x = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
       {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  faces = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
           {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8},
           {3, 8, 9}, {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
  for (Vec3& p : x) p.normalize();
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<int, int>, int> midpoint;
    auto mid = [&](int a, int b) {
      auto key = std::minmax(a, b);
      auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      x.push_back((x[a] + x[b]).normalized());
      return midpoint[key] = int(x.size()) - 1;
    };
    std::vector<Tri> finer;
    for (const Tri& f : faces) {
      int ab = mid(f[0], f[1]), bc = mid(f[1], f[2]), ca = mid(f[2], f[0]);
      finer.push_back({f[0], ab, ca});
      finer.push_back({f[1], bc, ab});
      finer.push_back({f[2], ca, bc});
      finer.push_back({ab, bc, ca});
    }
    faces = std::move(finer);
  }
  for (Vec3& p : x) p *= radius;
}

void makeBox(const Vec3& size, std::vector<Vec3>& x, std::vector<Tri>& faces) {
  x.clear();
  for (int i = 0; i < 8; ++i)
    x.push_back(0.5 * Vec3((i & 1 ? 1 : -1) * size.x(), (i & 2 ? 1 : -1) * size.y(), (i & 4 ? 1 : -1) * size.z()));
  // Two triangles per side, counter-clockwise seen from outside.
  faces = {{0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}, {0, 1, 5}, {0, 5, 4},
           {2, 6, 7}, {2, 7, 3}, {0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}};
}

void makeGroundSquare(double side, std::vector<Vec3>& x, std::vector<Tri>& faces) {
  const double h = side / 2;
  x = {{-h, 0, -h}, {-h, 0, h}, {h, 0, h}, {h, 0, -h}};
  faces = {{0, 1, 2}, {0, 2, 3}};  // (1-0) x (2-0) points along +Y
}

void readObstacleObj(const std::string& file, std::vector<Vec3>& x, std::vector<Tri>& faces) {
  parseObstacleObj(readFile(file), file, x, faces);
}

namespace {

// The whitespace of an istream's >> in the C locale.
bool isObjSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// The whitespace-separated tokens of one line in order, as `>>` into a string reads them. Why not a stringstream per
// line: constructing one costs more than the line's numbers. A walk cycle's body file (2,802 vertices, 5,600 faces)
// took twice as long to parse, ~1 % of every frame of a sequence that does not loop (docs/benchmarks.md, stop 88).
class LineTokens {
 public:
  explicit LineTokens(std::string_view line) : rest_(line) {}
  bool next(std::string& token) {
    size_t begin = 0;
    while (begin < rest_.size() && isObjSpace(rest_[begin])) ++begin;
    size_t end = begin;
    while (end < rest_.size() && !isObjSpace(rest_[end])) ++end;
    token.assign(rest_.data() + begin, end - begin);
    rest_.remove_prefix(end);
    return end > begin;
  }

 private:
  std::string_view rest_;
};

}  // namespace

void parseObstacleObj(const std::string& text, const std::string& file, std::vector<Vec3>& x,
                      std::vector<Tri>& faces) {
  x.clear();
  faces.clear();
  int lineNo = 0;
  auto fail = [&](const std::string& what) { throw InputError(file + ":" + std::to_string(lineNo) + ": " + what); };
  std::string tag, tok;
  std::vector<int> corners;
  for (size_t at = 0; at < text.size();) {
    const size_t newline = std::min(text.find('\n', at), text.size());
    LineTokens tokens(std::string_view(text).substr(at, newline - at));
    at = newline + 1;
    ++lineNo;
    if (!tokens.next(tag)) continue;
    if (tag == "v") {
      Vec3 p;
      for (int i = 0; i < 3; ++i) {
        char* end = nullptr;
        if (!tokens.next(tok)) fail("expected 3 coordinates");
        p[i] = std::strtod(tok.c_str(), &end);
        if (*end != '\0' || !std::isfinite(p[i])) fail("coordinate '" + tok + "' is not a finite number");
      }
      x.push_back(p);
    } else if (tag == "f") {
      corners.clear();
      while (tokens.next(tok)) {
        char* end = nullptr;
        long i = std::strtol(tok.c_str(), &end, 10);
        if (end == tok.c_str() || (*end != '\0' && *end != '/')) fail("face corner '" + tok + "' is not an index");
        if (i < 0) i += long(x.size()) + 1;  // relative index
        if (i < 1 || i > long(x.size())) fail("face index " + tok + " is out of range");
        corners.push_back(int(i - 1));
      }
      if (corners.size() < 3) fail("a face needs at least 3 corners");
      for (size_t k = 1; k + 1 < corners.size(); ++k) faces.push_back({corners[0], corners[k], corners[k + 1]});
    }
  }
  if (x.empty()) throw InputError(file + ": no vertices");
}

std::string formatObstacleObj(const Obstacle& obstacle, const std::vector<Vec3>& x) {
  std::string out = "# adacloth obstacle " + obstacle.name() + "\n";
  out.reserve(out.size() + 60 * x.size() + obstacle.objFaceLines().size());
  for (const Vec3& p : x) {
    out += 'v';
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      appendDouble(out, p[k]);
    }
    out += '\n';
  }
  out += obstacle.objFaceLines();
  return out;
}

std::string formatObjFaceLines(const std::vector<Tri>& faces) {
  std::string out;
  out.reserve(24 * faces.size());
  for (const Tri& f : faces) {
    out += 'f';
    for (int k = 0; k < 3; ++k) {
      out += ' ';
      appendInteger(out, f[k] + 1);
    }
    out += '\n';
  }
  return out;
}

std::vector<std::array<int, 2>> uniqueEdges(const std::vector<Tri>& faces) {
  std::vector<std::array<int, 2>> edges;
  for (const Tri& f : faces)
    for (int i = 0; i < 3; ++i) edges.push_back({std::min(f[i], f[(i + 1) % 3]), std::max(f[i], f[(i + 1) % 3])});
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace adacloth
