#include "regression/scene_list.h"

#include "io/atomic_file.h"
#include "io/error.h"

namespace adacloth::regression {

using config::Field;
using config::Json;

namespace {

// The defaults here are the ones of struct Tolerances, so a scene without "tolerances" gets exactly those.
Field tolerancesSchema() {
  const Tolerances d;
  using namespace config;
  return object("tolerances",
                {number("count_relative", "Faces and nodes may move +-max(count_relative * ref, count_absolute).")
                     .inUnit("1").atLeast(0).defaults(d.countRelative),
                 number("count_absolute", "See count_relative.").atLeast(0).defaults(d.countAbsolute),
                 number("bbox_absolute", "A bounding-box corner may move max(bbox_absolute, bbox_relative * the "
                                         "reference diagonal).").inUnit("m").atLeast(0).defaults(d.bboxAbsolute),
                 number("bbox_relative", "See bbox_absolute.").inUnit("1").atLeast(0).defaults(d.bboxRelative),
                 number("penetration_slack", "max_penetration may exceed the reference by this much.")
                     .inUnit("m").atLeast(0).defaults(d.penetrationSlack),
                 integer("intersections_slack", "intersections may exceed the reference by this many.")
                     .atLeast(0).defaults(d.intersectionsSlack),
                 number("height_absolute", "The centre of mass of a cloth, potential_energy / (its mass x |gravity|), "
                                           "may move up or down by this much.")
                     .inUnit("m").atLeast(0).defaults(d.heightAbsolute),
                 number("kinetic_peak_share", "kinetic_energy may move +-(kinetic_peak_share x the cloth's largest "
                                              "kinetic_energy over the reference frames).")
                     .inUnit("1").atLeast(0).defaults(d.kineticPeakShare),
                 number("elastic_peak_share", "The same for elastic_energy and its largest value.")
                     .inUnit("1").atLeast(0).defaults(d.elasticPeakShare),
                 integer("image_threshold", "A pixel differs when a channel differs by more than this (0..255).")
                     .atLeast(0).atMost(255).defaults(d.imageThreshold),
                 number("image_max_share", "Fraction of pixels of a frame allowed to differ.")
                     .inUnit("1").atLeast(0).atMost(1).defaults(d.imageMaxShare)},
                "How far a scene may move from its references.")
      .defaults(Json::object());
}

Field sceneSchema() {
  using namespace config;
  return object(
      "scene",
      {string("name", "Scene name: test name `scene <name>`, references in tests/regression/<name>/."),
       path("shot", "The shot file, relative to the repository root."),
       integer("frames", "Frames simulated (`--frames`); keep the scene within 60 s on 2 cores.").atLeast(1),
       array("render_frames", integer("frame", "A frame number.").atLeast(0),
             "Frames rendered and compared with frame_<n>.png.")
           .defaults(Json::array()),
       integer("width", "Render width.").inUnit("px").atLeast(1).defaults(320),
       integer("height", "Render height.").inUnit("px").atLeast(1).defaults(180),
       array("threads", integer("count", "OpenMP threads.").atLeast(1),
             "Thread counts; the first makes the summary, every other must give identical output bytes.")
           .defaults(Json::array({1, 2})),
       tolerancesSchema()},
      "One regression scene.");
}

Tolerances tolerancesOf(const Json& t) {
  Tolerances tol;
  tol.countRelative = t["count_relative"];
  tol.countAbsolute = t["count_absolute"];
  tol.bboxAbsolute = t["bbox_absolute"];
  tol.bboxRelative = t["bbox_relative"];
  tol.penetrationSlack = t["penetration_slack"];
  tol.intersectionsSlack = t["intersections_slack"];
  tol.heightAbsolute = t["height_absolute"];
  tol.kineticPeakShare = t["kinetic_peak_share"];
  tol.elasticPeakShare = t["elastic_peak_share"];
  tol.imageThreshold = t["image_threshold"];
  tol.imageMaxShare = t["image_max_share"];
  return tol;
}

SceneSpec sceneOf(const Json& s, const std::string& file, size_t index) {
  SceneSpec scene;
  scene.name = s["name"];
  scene.shot = s["shot"].get<std::string>();
  scene.frames = s["frames"];
  scene.renderFrames = s["render_frames"].get<std::vector<int>>();
  scene.width = s["width"];
  scene.height = s["height"];
  scene.threads = s["threads"].get<std::vector<int>>();
  scene.tolerances = tolerancesOf(s["tolerances"]);
  const std::string where = file + ": /scenes/" + std::to_string(index);
  if (scene.name.empty() || scene.name.find_first_of("/\\ ") != std::string::npos)
    throw InputError(where + "/name: expected a name without spaces or slashes, got \"" + scene.name + "\"");
  for (int f : scene.renderFrames)
    if (f > scene.frames)
      throw InputError(where + "/render_frames: frame " + std::to_string(f) + " is after the last simulated frame " +
                       std::to_string(scene.frames));
  if (scene.threads.empty()) throw InputError(where + "/threads: expected at least one thread count");
  return scene;
}

}  // namespace

const Field& sceneListSchema() {
  static const Field schema = config::object(
      "scenes.json", {config::array("scenes", sceneSchema(), "The regression scenes, in test order.")},
      "The regression scene list.");
  return schema;
}

std::vector<SceneSpec> loadSceneList(const std::filesystem::path& file, const std::filesystem::path& repoRoot) {
  const std::string name = file.string();
  const Json list = config::resolve(config::parseJson(readFile(file), name), sceneListSchema(), {name, repoRoot});
  std::vector<SceneSpec> scenes;
  for (const Json& s : list["scenes"]) {
    scenes.push_back(sceneOf(s, name, scenes.size()));
    for (size_t i = 0; i + 1 < scenes.size(); ++i)
      if (scenes[i].name == scenes.back().name)
        throw InputError(name + ": /scenes/" + std::to_string(scenes.size() - 1) + "/name: \"" + scenes.back().name +
                         "\" is already the name of scene " + std::to_string(i));
  }
  return scenes;
}

std::filesystem::path regressionDir() { return std::filesystem::path(ADACLOTH_SOURCE_DIR) / "tests" / "regression"; }

}  // namespace adacloth::regression
