#include "config/obstacle_config.h"

#include <set>

#include "io/error.h"

namespace adacloth {
namespace {

using namespace config;

// The default-constructed parameter structs every default below is read from: they are the single source of
// defaults. A function-local static, so a schema built during another file's static initialization still finds
// them constructed.
struct Defaults {
  ObstacleSpec obstacle;
  ObstacleKey key;
  CollisionParams collision;
};

const Defaults& defaults() {
  static const Defaults d;
  return d;
}

Vec3 toVec3(const Json& j) { return Vec3(j[0].get<double>(), j[1].get<double>(), j[2].get<double>()); }

Field obstacleMeshSchema() {
  const Defaults& d = defaults();
  Field sphere = object("sphere", {
      number("radius", "Radius.").inUnit("m").atLeast(0, true),
      integer("subdivisions", "Subdivisions of an icosahedron: 20 * 4^n triangles.").atLeast(0).atMost(7)
          .defaults(d.obstacle.subdivisions),
  }, "A sphere centred at the origin, before `transform`.");
  Field box = object("box", {
      vec3("size", "Edge lengths along X, Y and Z.").inUnit("m").atLeast(0, true),
  }, "A box centred at the origin, before `transform` (12 triangles).");
  Field ground = object("ground", {
      number("size", "Side of the square written to OUT/obstacles for drawing; contact uses the whole plane.")
          .inUnit("m").atLeast(0, true).defaults(d.obstacle.groundSize),
  }, "The plane y = 0 (free side +Y) before `transform`: an infinite floor.");
  Field sequence = object("sequence", {
      string("pattern", "printf-style file name of the OBJ files, relative to the shot file, with one integer "
                        "conversion for the file number (e.g. \"../meshes/body_%04d.obj\"). All files must have "
                        "the first file's vertices and faces.").withExample("../meshes/body_%04d.obj"),
      number("fps", "Files per second: file first + k is shown at time k / fps.").inUnit("1/s").atLeast(0, true)
          .defaults(d.obstacle.sequenceFps),
      integer("first", "Number of the file shown at time 0. With `loop`, a file inside the cycle: the phase at "
                       "which the obstacle starts.").atLeast(0).defaults(d.obstacle.firstFrame),
      boolean("loop", "Repeat the sequence forever: the cycle is the run of consecutive files around `first`, its "
                      "period is (number of files) / fps, and the last file is interpolated back to the lowest "
                      "numbered one (so do not repeat the first pose as a last file).")
          .defaults(d.obstacle.sequenceLoop),
      path("rest", "OBJ of the pose the garments were fitted to (e.g. the character's rest pose), with the "
                   "sequence's vertices and faces, relative to the shot file: where the shot's pre-roll "
                   "(`preroll_frames`, required with it) starts; the obstacle moves from it to its pose at time 0.")
          .isOptional().withExample("../meshes/body_rest.obj"),
  }, "A deforming obstacle: a numbered OBJ sequence, interpolated linearly between files and held after the last "
     "(or looped).");
  Field generated = object("mesh", {sphere.isOptional(), box.isOptional(), ground.isOptional(), sequence.isOptional()},
                           "A generated or animated mesh: exactly one of `sphere`, `box`, `ground` or `sequence`.");
  Field file = path("mesh", "An OBJ file (`v` and `f`; world units metres), relative to the shot file. Faces "
                            "counter-clockwise seen from outside.");
  return oneOf("mesh", {file, generated}, "The obstacle's shape: an OBJ path or a generator.")
      .withExample(Json::object({{"sphere", Json::object({{"radius", 0.3}})}}));
}

Field obstacleTransformSchema() {
  const Defaults& d = defaults();
  return object("transform", {
      vec3("translate", "Translation applied last.").inUnit("m").defaults(toJson(d.obstacle.transform.translate)),
      vec3("rotate_deg", "Rotation about the world X, then Y, then Z axis.").inUnit("deg")
          .defaults(toJson(d.obstacle.transform.rotateDeg)),
      number("scale", "Uniform scale applied first.").atLeast(0, true).defaults(d.obstacle.transform.scale),
  }, "Places the mesh in the world: scale, then rotate, then translate.").defaults(Json::object());
}

Field obstacleKeySchema() {
  const Defaults& d = defaults();
  return object("key", {
      number("time", "Time of this key; keys in increasing time.").inUnit("s").atLeast(0),
      vec3("translate", "Translation at `time`, applied after `transform`.").inUnit("m")
          .defaults(toJson(d.key.translate)),
      vec3("rotate_deg", "Rotation about the world X, then Y, then Z axis at `time`, applied after `transform` "
                         "(angles are interpolated per axis, so a key may spin more than half a turn).")
          .inUnit("deg").defaults(toJson(d.key.rotateDeg)),
      number("scale", "Uniform scale at `time`, about the world origin.").atLeast(0, true).defaults(d.key.scale),
  }, "One key of a rigid motion.");
}

}  // namespace

Field obstaclesSchema() {
  const Defaults& d = defaults();
  Field obstacle = object("obstacle", {
      string("name", "Identifier used in output file names (letters, digits, '_' and '-'); defaults to "
                     "obstacle<i>.").isOptional(),
      obstacleMeshSchema(),
      obstacleTransformSchema(),
      array("motion", obstacleKeySchema(), "Rigid keyframed motion, held before the first key and after the last. "
                                           "Absent: the obstacle stays where `transform` puts it.").isOptional(),
      enumeration("interpolation", {"linear", "smooth"},
                  "Between keys: \"linear\", or \"smooth\" (Catmull-Rom, easing in and out at the first and last "
                  "key).").defaults(d.obstacle.smooth ? "smooth" : "linear"),
  }, "Something the cloth collides with. Obstacles that move are written to OUT/obstacles/<name>_<frame>.obj "
     "every frame; static ones at frame 0 only.");
  return array("obstacles", obstacle, "Obstacles: static, keyframed or deforming meshes, and ground planes.")
      .defaults(Json::array());
}

Field collisionSchema() {
  const Defaults& d = defaults();
  return object("collision", {
      boolean("enabled", "Collision handling on or off (off: cloth passes through everything).")
          .defaults(d.collision.enabled),
      number("thickness", "Cloth is kept this far from obstacles and from itself (proximity repulsion). Also sets "
                          "the CCD tolerance (5 %) and the gap left after an impact (10 %).")
          .inUnit("m").atLeast(0, true).defaults(d.collision.thickness),
      number("obstacle_friction",
             "Coulomb friction coefficient between cloth and obstacles: cloth resting on a slope flatter than "
             "atan(coefficient) stays, and cloth on a moving surface (a belt, a body) is carried with it as far as "
             "friction reaches (docs/collisions.md).")
          .inUnit("1")
          .atLeast(0)
          .defaults(d.collision.obstacleFriction),
      number("self_friction", "Coulomb friction coefficient between pieces of cloth.").inUnit("1").atLeast(0)
          .defaults(d.collision.selfFriction),
      boolean("self_collision", "Cloth-cloth contact, within a cloth and between cloths.")
          .defaults(d.collision.selfCollision),
      integer("iterations", "Continuous-collision passes per step before the impact-zone fallback.").atLeast(1)
          .defaults(d.collision.iterations),
  }, "Contact handling (docs/collisions.md).").defaults(Json::object());
}

namespace {

ObstacleSpec readObstacle(const Shot& shot, const Json& j, size_t index) {
  ObstacleSpec o;
  o.place = "/obstacles/" + std::to_string(index);
  o.name = j.contains("name") ? j["name"].get<std::string>() : "obstacle" + std::to_string(index);
  auto fail = [&](const std::string& ptr, const std::string& what) {
    throw InputError(shot.file.string() + ": " + o.place + ptr + ": " + what);
  };
  bool safe = !o.name.empty() && o.name.size() <= 64;
  for (char c : o.name) safe = safe && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  if (!safe) fail("/name", "expected 1 to 64 letters, digits, '_' or '-' (it names output files), got \"" + o.name + "\"");
  const Json& m = j["mesh"];
  using Shape = ObstacleSpec::Shape;
  if (m.is_string()) {
    o.shape = Shape::File;
    o.file = m.get<std::string>();
  } else {
    int count = int(m.contains("sphere")) + int(m.contains("box")) + int(m.contains("ground")) +
                int(m.contains("sequence"));
    if (count != 1)
      fail("/mesh", "expected exactly one of \"sphere\", \"box\", \"ground\" or \"sequence\", got " +
                        std::to_string(count));
    if (m.contains("sphere")) {
      o.shape = Shape::Sphere;
      o.radius = m["sphere"]["radius"].get<double>();
      o.subdivisions = m["sphere"]["subdivisions"].get<int>();
    } else if (m.contains("box")) {
      o.shape = Shape::Box;
      o.size = toVec3(m["box"]["size"]);
    } else if (m.contains("ground")) {
      o.shape = Shape::Ground;
      o.groundSize = m["ground"]["size"].get<double>();
    } else {
      o.shape = Shape::Sequence;
      std::string pattern = m["sequence"]["pattern"].get<std::string>();
      auto pct = pattern.find('%');
      if (pct == std::string::npos || pattern.find_first_of("di", pct) == std::string::npos ||
          pattern.find('%', pct + 1) != std::string::npos)
        fail("/mesh/sequence/pattern", "expected one integer conversion such as %04d, got \"" + pattern + "\"");
      fs::path base = shot.file.parent_path().empty() ? fs::path(".") : shot.file.parent_path();
      o.pattern = fs::path(pattern).is_absolute() ? pattern : (base / pattern).string();
      o.sequenceFps = m["sequence"]["fps"].get<double>();
      o.firstFrame = m["sequence"]["first"].get<int>();
      o.sequenceLoop = m["sequence"]["loop"].get<bool>();
      if (m["sequence"].contains("rest")) {
        // A rest mesh without a pre-roll would be read and never used: say so rather than ignore it.
        if (shot.prerollFrames == 0)
          fail("/mesh/sequence/rest", "the rest mesh is where the shot's pre-roll starts: set \"preroll_frames\" "
                                      "(at the top level) to the frames it takes, or remove \"rest\"");
        const fs::path rest = m["sequence"]["rest"].get<std::string>();
        o.sequenceRest = rest.is_absolute() ? rest : base / rest;
      }
    }
  }
  const Json& t = j["transform"];
  o.transform.translate = toVec3(t["translate"]);
  o.transform.rotateDeg = toVec3(t["rotate_deg"]);
  o.transform.scale = t["scale"].get<double>();
  if (j.contains("motion"))
    for (const Json& k : j["motion"])
      o.motion.push_back({k["time"].get<double>(), toVec3(k["translate"]), toVec3(k["rotate_deg"]),
                          k["scale"].get<double>()});
  o.smooth = j["interpolation"].get<std::string>() == "smooth";
  return o;
}

}  // namespace

void readCollisionConfig(Shot& shot, const Json& r) {
  std::set<std::string> names;
  if (r.contains("obstacles"))
    for (size_t i = 0; i < r["obstacles"].size(); ++i) {
      shot.obstacles.push_back(readObstacle(shot, r["obstacles"][i], i));
      shot.obstacles.back().preroll = -shot.startTime();
      if (!names.insert(shot.obstacles.back().name).second)
        throw InputError(shot.file.string() + ": /obstacles/" + std::to_string(i) + "/name: the name \"" +
                         shot.obstacles.back().name + "\" is used by another obstacle; names must be unique");
    }
  if (r.contains("collision")) {
    const Json& c = r["collision"];
    shot.collision.enabled = c["enabled"].get<bool>();
    shot.collision.thickness = c["thickness"].get<double>();
    shot.collision.obstacleFriction = c["obstacle_friction"].get<double>();
    shot.collision.selfFriction = c["self_friction"].get<double>();
    shot.collision.selfCollision = c["self_collision"].get<bool>();
    shot.collision.iterations = c["iterations"].get<int>();
  }
}

}  // namespace adacloth
