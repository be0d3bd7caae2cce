// The shot file format: every key, its type, unit, default and meaning. docs/shot-format.md is generated from this
// (`adacloth schema > docs/shot-format.md`; a test fails when they differ).
#include "config/shot.h"

namespace adacloth {
namespace {

using namespace config;

Field meshSchema() {
  Field grid = object("grid", {
      vec2("size", "Width and height of the rectangle.").inUnit("m").atLeast(0, true).withExample(Json::array({1.0, 1.0})),
      vec2("cells", "Number of cells along width and height (whole numbers); each cell is two triangles.")
          .atLeast(1).withExample(Json::array({32, 32})),
  }, "A flat rectangular panel in the XY plane (normal +Z), corner at the origin, before `transform`.");
  Field tube = object("tube", {
      number("radius", "Radius of the cylinder.").inUnit("m").atLeast(0, true),
      number("length", "Length along +Y.").inUnit("m").atLeast(0, true),
      integer("cells_around", "Cells around the circumference.").atLeast(3).defaults(32),
      integer("cells_along", "Cells along the length.").atLeast(1).defaults(16),
  }, "A cylinder around +Y, sewn with one seam (a sleeve or a tube skirt), before `transform`.");
  Field disc = object("disc", {
      number("radius", "Radius of the disc.").inUnit("m").atLeast(0, true),
      integer("rings", "Concentric rings of triangles; edge length is about radius / rings.").atLeast(1).defaults(16),
  }, "A flat disc in the XY plane centred at the origin (normal +Z), before `transform`.");
  Field generated = object("mesh", {grid.isOptional(), tube.isOptional(), disc.isOptional()},
                           "A generated mesh: exactly one of `grid`, `tube` or `disc`.");
  Field file = path("mesh", "An OBJ file: `v` = world positions (m), `vt` = material coordinates (m), faces "
                            "`v/vt`. Without `vt` the mesh must be one flat panel.");
  return oneOf("mesh", {file, generated}, "The cloth's mesh: an OBJ path (relative to the shot file) or a generator.")
      .withExample("../meshes/sheet.obj");
}

Field transformSchema() {
  return object("transform", {
      vec3("translate", "Translation applied last.").inUnit("m").defaults(Json::array({0.0, 0.0, 0.0})),
      vec3("rotate_deg", "Rotation about the world X, then Y, then Z axis.").inUnit("deg")
          .defaults(Json::array({0.0, 0.0, 0.0})),
      number("scale", "Uniform scale applied first, to material coordinates too (use it as a unit change, e.g. "
                      "0.01 for a mesh modelled in centimetres).").atLeast(0, true).defaults(1.0),
  }, "Places the mesh in the world: scale, then rotate, then translate.").defaults(Json::object());
}

Field materialSchema() {
  return object("material", {
      number("density", "Area density of the fabric.").inUnit("kg/m^2").atLeast(0, true).defaults(0.15),
  }, "The fabric's physical parameters.").defaults(Json::object());
}

Field clothSchema() {
  return object("cloth", {
      string("name", "Identifier used in output file names (letters, digits, '_' and '-'); defaults to cloth<i>.")
          .isOptional(),
      meshSchema(),
      transformSchema(),
      materialSchema(),
  }, "One piece of cloth (a garment may be several panels sewn together in one mesh).");
}

Field buildShotSchema() {
  Field cloths = array("cloths", clothSchema(), "The cloths of the shot.");
  cloths.minItems = 1;
  return object("shot", {
      string("name", "Name of the shot; defaults to the file name without extension.").isOptional(),
      number("fps", "Frames per second of the output.").inUnit("1/s").atLeast(0, true).defaults(24.0),
      integer("frames", "Number of frames simulated after the initial frame 0 (output frames 0..frames).")
          .atLeast(0).defaults(120),
      cloths,
      path("camera", "Camera path (cameras/*.json) used by `render` and view-dependent refinement.").isOptional()
          .withExample("../cameras/drape.json"),
  }, "A shot file (conf/*.json) describes one simulation: its cloths, obstacles and camera. Paths are relative to "
     "the shot file. Units are SI (metres, seconds, kilograms) unless a key says otherwise (`_deg`: degrees). "
     "Unknown keys are errors.");
}

}  // namespace

const config::Field& shotSchema() {
  static const config::Field schema = buildShotSchema();
  return schema;
}

}  // namespace adacloth
