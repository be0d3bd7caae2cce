// The shot file format: every key, its type, unit, default and meaning. docs/shot-format.md is generated from this
// (`adacloth schema > docs/shot-format.md`; a test fails when they differ).
#include "config/shot.h"

#include <cstdio>

#include "config/obstacle_config.h"

namespace adacloth {
namespace {

using namespace config;

// The default-constructed parameter structs every default below is read from: they are the single source of
// defaults. A function-local static, so a schema built during another file's static initialization still finds
// them constructed.
struct Defaults {
  MeshSpec mesh;
  TransformSpec transform;
  StrainLimitParams strainLimit;
  SizingParams sizing;
  ViewParams view;
  UpsampleSpec upsample;
  HandleSpec handle;
  StepSettings dynamics;
  Shot shot;
  MaterialParams material;
};

const Defaults& defaults() {
  static const Defaults d;
  return d;
}

// 30000 -> "30,000", as the docs write large counts.
std::string withThousands(int n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Field meshSchema() {
  const Defaults& d = defaults();
  Field grid = object("grid", {
      vec2("size", "Width and height of the rectangle.").inUnit("m").atLeast(0, true).withExample(Json::array({1.0, 1.0})),
      vec2("cells", "Number of cells along width and height (whole numbers); each cell is two triangles, at most "
                      "100,000,000 in all.")
          .atLeast(1).withExample(Json::array({32, 32})),
  }, "A flat rectangular panel in the XY plane (normal +Z), corner at the origin, before `transform`.");
  Field tube = object("tube", {
      number("radius", "Radius of the cylinder.").inUnit("m").atLeast(0, true),
      number("length", "Length along +Y.").inUnit("m").atLeast(0, true),
      integer("cells_around", "Cells around the circumference.").atLeast(3).defaults(d.mesh.cellsAround),
      integer("cells_along", "Cells along the length.").atLeast(1).defaults(d.mesh.cellsAlong),
  }, "A cylinder around +Y, sewn with one seam (a sleeve or a tube skirt), before `transform`. Each cell is two "
     "triangles, at most 100,000,000 in all.");
  Field disc = object("disc", {
      number("radius", "Radius of the disc.").inUnit("m").atLeast(0, true),
      integer("rings", "Concentric rings of triangles (6 rings^2 triangles, at most 100,000,000); edge length is about "
              "radius / rings.").atLeast(1)
          .defaults(d.mesh.rings),
  }, "A flat disc in the XY plane centred at the origin (normal +Z), before `transform`.");
  Field generated = object("mesh", {grid.isOptional(), tube.isOptional(), disc.isOptional()},
                           "A generated mesh: exactly one of `grid`, `tube` or `disc`.");
  Field file = path("mesh", "An OBJ file: `v` = world positions (m), `vt` = material coordinates (m), faces "
                            "`v/vt`. Without `vt` the mesh must be one flat panel.");
  return oneOf("mesh", {file, generated}, "The cloth's mesh: an OBJ path (relative to the shot file) or a generator.")
      .withExample("../meshes/sheet.obj");
}

Field transformSchema() {
  const Defaults& d = defaults();
  return object("transform", {
      vec3("translate", "Translation applied last.").inUnit("m").defaults(toJson(d.transform.translate)),
      vec3("rotate_deg", "Rotation about the world X, then Y, then Z axis.").inUnit("deg")
          .defaults(toJson(d.transform.rotateDeg)),
      number("scale", "Uniform scale applied first, to material coordinates too (use it as a unit change, e.g. "
                      "0.01 for a mesh modelled in centimetres).").atLeast(0, true).defaults(d.transform.scale),
  }, "Places the mesh in the world: scale, then rotate, then translate.").defaults(Json::object());
}

Field materialSchema() {
  Field preset = string("material", "Name of a preset: conf/materials/<name>.json (cotton, silk, denim, jersey, ...).")
                     .withExample("cotton");
  return oneOf("material", {preset, materialObjectSchema()},
               "The fabric: a preset name, or an object of physical parameters (optionally based on a `preset`). "
               "Spring constants are derived from these per edge and face area, so behaviour does not depend on "
               "mesh resolution (docs/materials.md).")
      .defaults(Json::object());
}

Field strainLimitSchema() {
  const Defaults& d = defaults();
  return object("strain_limit", {
      number("min", "Smallest allowed stretch: edge length / rest length, and each face's smaller principal "
                    "stretch.").inUnit("1").atLeast(0, true).atMost(1).defaults(d.strainLimit.min),
      number("max", "Largest allowed stretch: edge length / rest length, and each face's larger principal stretch.")
          .inUnit("1").atLeast(1).defaults(d.strainLimit.max),
      integer("iterations", "Gauss-Seidel passes per step over the tethers (with `tethers`), the faces, then the "
                            "edges (fewer when the limits hold earlier); when they run out, one pass pulls outward "
                            "from the handles and one more plain pass follows.")
          .atLeast(1).defaults(d.strainLimit.iterations),
      boolean("tethers", "Tether every free node to the nearest nodes of (up to 4) handles at max times their "
                         "material-space distance (long range attachments): a cloth hanging from a few held points "
                         "(a flag held at its corners) then stays far nearer its limit in a few passes. Off by default: "
                         "on garments bound to a body, where the body's contacts rather than the limiter decide the "
                         "stretch, they did not help (docs/benchmarks.md).").defaults(d.strainLimit.tethers),
      number("stiffening", "Makes the limit part of the implicit solve: each face whose larger principal stretch "
                           "passes `onset` stiffens by this multiple of the material's `stretch`, so the solve itself "
                           "keeps free cloth near its limit and the passes have little left to correct. For cloth "
                           "hanging in wind (a silk flag held at two corners, limit 1.05, 12 m/s: largest edge 1.05 "
                           "with 30, 1.44 without). A softer or heavier cloth needs more, and sooner: a soft knit "
                           "flag (300 N/m) kept edges within 1.13 with 300 and `onset` 0.25, against 1.50 with 30 at "
                           "0.5. Faces with two held corners or touching an obstacle are left out. 0 turns it "
                           "off. When absent: 100, at most 200 kN/m / `stretch` (25 for a denim of 8,000 N/m), "
                           "from `onset` 0.1 (0.25 for a `stretch` under 500 N/m), for a "
                           "tight limit (`max` at most 1.05) on cloth that no handle binds to an obstacle "
                           "(`bind_to`), where the passes alone leave edges far "
                           "past the limit (the soft knit flag without it: 1.30), else 0: on garments, whose stretch the body "
                           "decides, it made the solve 2-3x slower without lowering their stretch, and at a 1.1 "
                           "limit it cost jump_cut's curtains 36 % of the frame for nothing (docs/benchmarks.md).")
          .inUnit("1").atLeast(0).isOptional(),
      number("onset", "Where `stiffening` starts, as a fraction of the way from rest (0) to `max` (1). On the flag, "
                      "0.75 let edges reach 1.12-1.43 where 0.5 kept them within 1.06; on a soft knit flag 0.25 "
                      "held where 0.5 did not; on ARCSim's flag (limit 1.05) 0.1 held it as well as 0.25 or better "
                      "with 1.3-1.7x fewer nodes in cotton, silk and denim (cloth that stretches freely below the "
                      "onset folds finely when the load eases), but not on 300 N/m cloth (docs/benchmarks.md, \"An "
                      "earlier onset\"). When absent: 0.5, or where `stiffening` is absent too and the default "
                      "gives it 0.1 (0.25 for a `stretch` under 500 N/m).")
          .inUnit("1").atLeast(0).atMost(1).isOptional(),
  }, "Strain limiting in each step's contact pass, before the contacts and again after their proximity pushes: "
     "over- or under-stretched edges and faces are pulled back within [min, max], and the speed that would stretch "
     "an edge further is removed (nothing is added). Absent: no limiting, but the contact pushes are still kept from "
     "stretching an edge past the wider of 1.1 x its rest length and its length before them (the push guard, "
     "docs/collisions.md).").isOptional();
}

Field remeshingObjectSchema() {
  const Defaults& d = defaults();
  return object("remeshing", {
      number("refine_angle", "Largest change of the surface normal across one edge; smaller refines curved regions "
                             "more.").inUnit("rad").atLeast(0, true).defaults(d.sizing.refineAngle),
      number("refine_compression", "Compressive strain tolerated across one edge (per metre of reference length, "
                                   "as in ARCSim); smaller refines compressed, buckling regions more.")
          .atLeast(0, true).defaults(d.sizing.refineCompression),
      number("refine_velocity", "Largest change of velocity across one edge; smaller refines fast-deforming regions "
                                "more.").inUnit("m/s").atLeast(0, true).defaults(d.sizing.refineVelocity),
      vec2("size", "Shortest and longest edge the remesher may make, in material space.").inUnit("m")
          .atLeast(0, true).defaults(Json::array({d.sizing.sizeMin, d.sizing.sizeMax})),
      number("aspect_min", "Thinnest allowed element: smallest ratio of the shortest to the longest allowed edge "
                           "length at a point.").atLeast(0, true).atMost(1).defaults(d.sizing.aspectMin),
  }, "Adaptive remeshing settings (see docs/remeshing.md).");
}

Field remeshingSchema() {
  return oneOf("remeshing", {boolean("remeshing", "false: fixed mesh; true: adaptive with every default."),
                             remeshingObjectSchema()},
               "Adaptive anisotropic remeshing once per frame (Narain et al. 2012), with initial refinement to the "
               "rest sizing before frame 0: `false` keeps the mesh fixed, `true` or an object turns it on.")
      .defaults(false)
      .withExample(Json::object({{"size", Json::array({0.01, 0.1})}}));
}

Field viewSchema() {
  const Defaults& d = defaults();
  Field anticipation = object("anticipation", {
      integer("frames", "Frames of the camera path looked at before and after the current one (m_t): cloth is "
                        "refined before the camera shows it, e.g. across a jump cut.").atLeast(0)
          .defaults(d.view.anticipationFrames),
      integer("full_frames", "Frames on each side within which the camera counts at full weight (n, at most "
                             "`frames`); beyond, its weight falls linearly to n / m_t at the window's ends.")
          .atLeast(0).defaults(d.view.fullFrames),
      boolean("cut_ramp", "Cloth that the shot after a jump cut shows larger than the current one (a cut to a "
                          "close-up) is refined gradually over the `frames` before the cut, so that it is at the "
                          "next shot's resolution at the cut without a jump in the face count. false: cloth the "
                          "current camera sees keeps that camera's resolution up to the cut.").defaults(d.view.cutRamp),
  }, "Temporal anticipation over the camera path (docs/design.md §4.3).").defaults(Json::object());
  return object("view", {
      number("f_out", "View factor of faces out of view: their sizing tensor is scaled by f_out^2, i.e. edges "
                      "up to 1/f_out times longer.").inUnit("1").atLeast(0, true).atMost(1).defaults(d.view.fOut),
      number("margin", "Buffer outside the frustum over which the view factor falls from 1 to f_out.").inUnit("m")
          .atLeast(0).defaults(d.view.margin),
      anticipation,
      number("min_pixels", "Shortest edge a face in view is refined to, in pixels of the camera's image "
                           "(screen-space clamp).").inUnit("px").atLeast(0, true).defaults(d.view.minPixels),
      boolean("backface", "Back-facing faces count as out of view: true for garments on a body, false for "
                          "two-sided cloth seen from both sides (flags, curtains).").defaults(d.view.backface),
      number("f_back", "View factor of the back faces that `backface` hides (in the frustum, facing away). Milder "
                       "than the default f_out: a garment's back lies against the body, where the legs push it, and "
                       "as coarse as cloth out of frame it stretched and snagged more often (docs/view-dependent.md).")
          .inUnit("1").atLeast(0, true).atMost(1).defaults(d.view.fBack),
      number("back_ramp", "How far past the silhouette a back face's view factor falls from 1 to f_back, as the "
                          "cosine between its normal and the direction to the camera (0: at once). Faces that "
                          "folds and turns tip across the silhouette then change resolution gradually, not all at "
                          "once (docs/view-dependent.md).").inUnit("1").atLeast(0).atMost(1)
          .defaults(d.view.backRamp),
      boolean("occlusion", "Faces hidden behind obstacles or cloth (this one included) count as out of view, by "
                           "the distance they lie behind the visible surface, with the same margin and "
                           "anticipation (a 128-pixel-high depth pre-pass per camera of the window).")
          .defaults(d.view.occlusion),
      number("silhouette_threshold", "Jump of the view factor across a vertex above which the vertex takes the "
                                     "tensor max of its faces instead of their average (keeps silhouettes and the "
                                     "frustum border fine).").inUnit("1").atLeast(0)
          .defaults(d.view.silhouetteThreshold),
      number("memory", "Fade time of the memory of the resolution the cloth had where the camera last saw it: "
                       "cloth that comes back into view (or nears it again) after being coarsened out of view is "
                       "refined where it was fine when last seen, fading over this time (for at most 3 x it), "
                       "instead of entering coarse while its folds regrow. 0: off.")
          .inUnit("s").atLeast(0).defaults(d.view.memorySeconds),
      boolean("keep_held", "Faces with a node held by a handle bound to an obstacle (`bind_to`: a waistband, a "
                           "cape's collar) keep the sizing they would have without the view: no view factor, no "
                           "screen-space clamp. For cameras that start wide: the wide shot's coarse band rebinds its "
                           "nodes as it refines, and the cloth beside it over-stretched. Elsewhere it cost faces and "
                           "stretched more (docs/view-dependent.md).")
          .defaults(d.view.keepHeld),
  }, "View-dependent refinement against the shot's `camera` (docs/view-dependent.md). Needs `remeshing` and a "
     "`camera`. Absent: the cloth's resolution does not depend on the view.").isOptional()
      .withExample(Json::object({{"f_out", 0.2}, {"backface", true}}));
}

Field upsampleSchema() {
  const Defaults& d = defaults();
  return object("upsample", {
      enumeration("method", {"linear", "wrinkles", "mlp"},
                  "How the coarse sample becomes the output mesh where the simulation is too coarse "
                  "(docs/upsampling.md): \"linear\": the learned linear operator (Kavan et al.); \"wrinkles\": "
                  "example-based wrinkles (Zurdo et al.); \"mlp\": the patch MLP (seed 004). `operator` must be a "
                  "file of that kind (made by `adacloth upsample train --method linear|wrinkles` or "
                  "tools/train_patch_mlp.py).").defaults(d.upsample.method),
      path("operator", "Model file (.bin, docs/upsampling.md) of `method`'s kind, whose fine mesh is the output "
                       "mesh; its material space is the cloth's (after `transform`'s scale).")
          .withExample("../ops/sheet.bin"),
      vec2("blend", "Band [lo, hi] of the ratio (simulation edge length) / (output edge length), longest material "
                    "edges: at or below lo the output is the simulation, at or above hi the upsampled coarse "
                    "sample, smoothstep between.").inUnit("1").atLeast(0, true)
          .defaults(Json::array({d.upsample.blendLo, d.upsample.blendHi})),
      integer("smoothing_passes", "Neighbour-averaging passes of the blend weight over the output mesh (hides "
                                  "the border between simulated and upsampled regions).").atLeast(0)
          .defaults(d.upsample.smoothingPasses),
  }, "Fixed-topology output: every frame also writes `OUT/frames/<cloth>_out_<frame>.obj`, the operator's fine "
     "mesh placed from the simulation where it is fine enough and from the upsampled simulation elsewhere "
     "(docs/upsampled-output.md). Absent: no such output.").isOptional();
}

Field handleSchema() {
  const Defaults& d = defaults();
  Field key = object("key", {
      number("time", "Time of this key.").inUnit("s").atLeast(0),
      vec3("translate", "Displacement of the handle's nodes from their initial positions at `time`.").inUnit("m"),
  }, "One key of a handle's motion.");
  Field region = object("region", {
      vec2("min", "Lower corner of the rectangle in material coordinates.").inUnit("m"),
      vec2("max", "Upper corner of the rectangle in material coordinates.").inUnit("m"),
  }, "Every node with a material point inside this rectangle (after `transform`'s scale).");
  return object("handle", {
      array("nodes", integer("node", "A node index (0-based, the OBJ `v` order).").atLeast(0),
            "Nodes held, by index.").isOptional().withExample(Json::array({0, 32})),
      region.isOptional(),
      array("points", vec3("point", "A world position (m)."),
            "For each point, the node nearest to it at frame 0 (world coordinates, after `transform`).")
          .isOptional(),
      array("motion", key, "Keyframed translation of the held nodes, linear between keys and held before the first "
                            "and after the last. Absent: the nodes stay fixed.").isOptional(),
      string("bind_to", "Name of a mesh obstacle (not a ground) whose surface the nodes follow: each is attached "
                        "at frame 0 to the surface triangles near it (see `bind_smoothing`), keeping its place in "
                        "their frames, and rides along as the obstacle moves or deforms. Not together with "
                        "`motion`.").isOptional(),
      number("max_distance", "With `bind_to`: a held node farther than this from the obstacle's surface at the start "
                             "(frame 0, or the start of the pre-roll) is an error (catches a cloth placed in the "
                             "wrong spot).").inUnit("m").atLeast(0)
          .defaults(d.handle.maxDistance),
      number("bind_smoothing", "With `bind_to`: each held node follows the blended motion of every surface "
                               "triangle within its distance from the surface plus this radius, nearer ones weighing "
                               "more. "
                               "It keeps neighbouring held nodes from swinging through each other where the surface "
                               "folds or turns under them (a collar over the shoulders, a gathered waistband); "
                               "larger is smoother but follows small surface features less closely. 0: the nearest "
                               "triangle alone.").inUnit("m").atLeast(0)
          .defaults(d.handle.bindSmoothing),
      number("bind_rigidity", "With `bind_to`: how far the held nodes keep the shape they had when bound. 0: each "
                              "follows the surface as it deforms, so a band bound to skin that stretches or shears "
                              "(a waist as the hips turn) stretches with it and drags the free cloth beside it; 1: "
                              "they move together with the rigid motion that best fits the surface's (least "
                              "squares), as a firm waistband rides the hips; between: the blend. Rigid suits a band "
                              "round a body part that moves nearly as one piece; where the surface under the band "
                              "bends (a collar across both shoulders and the neck) the held nodes may come closer to "
                              "it than when bound.").inUnit("1").atLeast(0).atMost(1)
          .defaults(d.handle.bindRigidity),
  }, "Nodes pinned in place, moved along a keyframed path, or bound to an obstacle's surface. Exactly one of "
     "`nodes`, `region` or `points`.");
}

Field windSchema() {
  const Defaults& d = defaults();
  return object("wind", {
      vec3("velocity", "Velocity of the air.").inUnit("m/s").defaults(toJson(d.dynamics.wind.velocity)),
      number("density", "Density of the air.").inUnit("kg/m^3").atLeast(0).defaults(d.dynamics.wind.density),
      number("drag", "Drag coefficient: force 0.5 rho C_d A |v_n| v_n along the face normal, v_n the normal "
                     "component of the air's velocity relative to the face.").inUnit("1").atLeast(0)
          .defaults(d.dynamics.wind.drag),
      number("lift", "Lift coefficient: force 0.5 rho C_l A |v|^2 cos(a) sin(a) across the relative flow, a the "
                     "angle between flow and normal.").inUnit("1").atLeast(0).defaults(d.dynamics.wind.lift),
  }, "Aerodynamic forces per face from the velocity relative to the air. With the default still air, `drag` "
     "is air resistance.").defaults(Json::object());
}

Field checkpointSchema() {
  const Defaults& d = defaults();
  return object("checkpoint", {
      integer("every", "Frames between checkpoints (the first after frame `every`); 0 writes none.").atLeast(0)
          .defaults(d.shot.checkpoint.every),
      integer("keep", "Newest checkpoints kept; older ones are removed as new ones are written.").atLeast(1)
          .defaults(d.shot.checkpoint.keep),
  }, "Checkpoints: the whole state of the simulation (meshes with material coordinates, velocities, handles and "
     "bindings, solver state, time), written atomically to OUT/checkpoints/frame_<frame:05d>.ckpt after the frame "
     "is written. `adacloth simulate SHOT -o OUT --resume` continues from the newest one; the resumed run's frames "
     "and stats are byte-identical to an uninterrupted run's (but for wall times). They do not change the "
     "simulation.").defaults(Json::object());
}

Field clothSchema() {
  return object("cloth", {
      string("name", "Identifier used in output file names (letters, digits, '_' and '-'); defaults to cloth<i>.")
          .isOptional(),
      meshSchema(),
      transformSchema(),
      materialSchema(),
      array("handles", handleSchema(), "Pinned or animated nodes.").defaults(Json::array()),
      strainLimitSchema(),
      remeshingSchema(),
      viewSchema(),
      upsampleSchema(),
  }, "One piece of cloth (a garment may be several panels sewn together in one mesh).");
}

Field buildShotSchema() {
  const Defaults& d = defaults();
  Field cloths = array("cloths", clothSchema(), "The cloths of the shot.");
  cloths.minItems = 1;
  return object("shot", {
      string("name", "Name of the shot; defaults to the file name without extension.").isOptional(),
      number("fps", "Frames per second of the output.").inUnit("1/s").atLeast(0, true).defaults(d.shot.fps),
      integer("frames", "Number of frames simulated after the initial frame 0 (output frames 0..frames).")
          .atLeast(0).defaults(d.shot.frames),
      cloths,
      path("camera", "Camera path (cameras/*.json) used by `render` and view-dependent refinement.").isOptional()
          .withExample("../cameras/drape.json"),
      integer("steps_per_frame", "Time steps per frame; the step is 1 / (fps * steps_per_frame).").atLeast(1)
          .defaults(d.shot.stepsPerFrame),
      number("max_obstacle_step", "Largest distance, in contact thicknesses (`collision.thickness`), that an "
                                  "obstacle's vertex near a cloth (inside the box of its nodes grown by the "
                                  "thickness) may move in one step: a step in which one moves farther is split into "
                                  "equal substeps (at most 16), so that a fast limb meets the cloth in the implicit "
                                  "solve, whose contacts reach 3 thicknesses into an obstacle, rather than in the "
                                  "contact passes alone. With 2 steps per frame a walking knee moves 4-9 cm per step "
                                  "and the skirt's edges reached 3.8x their rest length; at 8 steps the character "
                                  "shots move at most 2.6 cm per step and are never split (6 thicknesses: 3 cm). A "
                                  "step is also split where cloth comes onto an obstacle so fast that the obstacle "
                                  "stops a node after more than half its shortest edge (a small, finely meshed cloth "
                                  "landing): the solve, linearized at the step's start, stretched the edges that "
                                  "turned over the obstacle's edge by 1 / cos of that turn. 0: never split.")
          .inUnit("1").atLeast(0).defaults(d.shot.maxObstacleStep),
      integer("preroll_frames", "Frames simulated before frame 0 and not written: the cloth settles while every "
                                "obstacle holds its pose at time 0, and a sequence with a `rest` mesh moves from "
                                "that pose (the one the garments were fitted to) to its pose at time 0. For a "
                                "character whose animation does not start in the garment's pose.")
          .atLeast(0).defaults(d.shot.prerollFrames),
      vec3("gravity", "Gravitational acceleration (Y is up).").inUnit("m/s^2")
          .defaults(toJson(d.dynamics.gravity)),
      enumeration("solver", {"auto", "pcg", "direct", "kang_cho", "cg"},
                  "Linear solve of each implicit (backward Euler) step. \"auto\" (the default, for final shots): "
                  "pcg, and per cloth the direct solve from the frame after one whose pcg solves took more "
                  "iterations each than a factorization costs at the cloth's size (stiff cloth, e.g. under a tight "
                  "strain limit); one frame in five is then solved by pcg again to check; stats.jsonl counts "
                  "`solver_direct_solves`. \"pcg\": conjugate gradient preconditioned "
                  "by symmetric Gauss-Seidel sweeps over Kang and Cho's per-node blocks or by the blocks alone "
                  "(`solver_preconditioner`), warm-started from the previous step; converges to "
                  "`solver_tolerance`. \"direct\": sparse Cholesky factorization "
                  "(CHOLMOD), exact; the reference, and faster than pcg on stiff cloth (a tight strain limit) whose "
                  "pcg solves take many iterations, where auto turns to it. \"kang_cho\": the paper's "
                  "per-node Jacobi update with `iterations` sweeps; fast but it does not converge (cloth falls and "
                  "swings in slow motion), for previews only. \"cg\": Eigen's diagonally preconditioned conjugate "
                  "gradient to `cg_tolerance`; slow, kept for comparison. docs/materials.md says which to use when.")
          .defaults(solverName(d.dynamics.solver)),
      number("solver_tolerance", "Relative residual |b - A dv| / |b| at which the pcg solve of a step stops, "
                                 "both measured in the norm of the per-node blocks (sqrt(sum y_i . W_i^-1 y_i): "
                                 "the velocity error, weighted by node mass, so that no light node's error can "
                                 "hide). The default keeps the motion within millimetres of the exact solve "
                                 "(docs/benchmarks.md).").inUnit("1").atLeast(0, true)
          .defaults(d.dynamics.pcg.tolerance),
      integer("solver_max_iterations", "Iteration cap per step of the pcg solve (stats.jsonl reports the residual "
                                       "reached).").atLeast(1).defaults(d.dynamics.pcg.maxIterations),
      enumeration("solver_preconditioner", {"auto", "ssor", "block_jacobi", "multigrid"},
                  "Preconditioner of the pcg solve. \"ssor\": symmetric block Gauss-Seidel over the cloth's "
                  "nodes (Eisenstat's trick), 3-6x fewer iterations than block_jacobi at about 1.5x the cost "
                  "each. \"block_jacobi\": Kang and Cho's per-node 3x3 blocks, cheapest per iteration but "
                  "several times the iterations. \"multigrid\": a smoothed-aggregation V-cycle over the cloth's "
                  "nodes, the fewest iterations but a set-up that is redone when the cloth's shape has changed "
                  "enough; slower than ssor at 10k and 100k nodes. \"auto\": block_jacobi below " +
                      withThousands(d.dynamics.pcg.ssorMinNodes) + " free nodes, ssor from there on.")
          .defaults(preconditionerName(d.dynamics.pcg.preconditioner)),
      integer("iterations", "Jacobi sweeps of the kang_cho update (1 = the paper's one-iteration update).")
          .atLeast(1).defaults(d.dynamics.iterations),
      number("cg_tolerance", "Relative residual at which the cg solve stops.").inUnit("1").atLeast(0, true)
          .defaults(d.dynamics.cgTolerance),
      number("max_speed", "A node faster than this stops the run with exit code 3 (a blow-up guard).")
          .inUnit("m/s").atLeast(0, true).defaults(d.dynamics.maxSpeed),
      windSchema(),
      obstaclesSchema(),
      collisionSchema(),
      checkpointSchema(),
  }, "A shot file (conf/*.json) describes one simulation: its cloths, obstacles and camera. Paths are relative to "
     "the shot file. Units are SI (metres, seconds, kilograms) unless a key says otherwise (`_deg`: degrees). "
     "Unknown keys are errors, and so is a key given twice in one object.");
}

}  // namespace

config::Json toJson(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }

std::string shortNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  std::string s = buf;
  const size_t e = s.find("e-0");
  if (e != std::string::npos) s.erase(e + 2, 1);
  return s;
}

std::string solverName(StepSolver solver) {
  switch (solver) {
    case StepSolver::Auto: return "auto";
    case StepSolver::Pcg: return "pcg";
    case StepSolver::Direct: return "direct";
    case StepSolver::KangCho: return "kang_cho";
    case StepSolver::CG: return "cg";
  }
  return "auto";
}

std::string preconditionerName(PcgSettings::Preconditioner p) {
  switch (p) {
    case PcgSettings::Preconditioner::Auto: return "auto";
    case PcgSettings::Preconditioner::BlockJacobi: return "block_jacobi";
    case PcgSettings::Preconditioner::Multigrid: return "multigrid";
    case PcgSettings::Preconditioner::Ssor: return "ssor";
  }
  return "auto";
}

// Keys absent from an inline material take the value of its `preset`, or else the built-in default (cotton).
config::Field materialObjectSchema() {
  const Defaults& d = defaults();
  return object("material", {
      string("preset", "Preset whose values the keys given here override (conf/materials/<name>.json).")
          .isOptional().withExample("denim"),
      number("density", "Area density of the fabric. Default " + shortNumber(d.material.density) + " (cotton).")
          .inUnit("kg/m^2").atLeast(0, true).isOptional(),
      number("stretch", "In-plane stiffness along warp and weft (material u and v axes). Default " +
                            shortNumber(d.material.stretch) + " (cotton).")
          .inUnit("N/m").atLeast(0).isOptional(),
      number("shear", "In-plane stiffness at 45 degrees to warp and weft. Default " + shortNumber(d.material.shear) +
                          " (cotton).")
          .inUnit("N/m").atLeast(0).isOptional(),
      number("bending", "Bending stiffness (moment per length per curvature). Default " +
                            shortNumber(d.material.bending) + " (cotton).")
          .inUnit("N*m").atLeast(0).isOptional(),
      number("damping", "Stiffness-proportional damping time: damping force = damping x stiffness x velocity "
                        "difference. Default " + shortNumber(d.material.damping) + " (cotton).")
          .inUnit("s").atLeast(0).isOptional(),
      enumeration("membrane", {"springs", "triangles"},
                  "In-plane elasticity. \"springs\" (the default): a spring per edge, stiffness from `stretch` and "
                  "`shear` by the edge's angle to warp and weft; the moduli hold on a regular grid, but a remeshed "
                  "mesh's thin triangles are soft to some strains, so soft cloth (`stretch` in the hundreds of N/m) "
                  "stays compressed in its plane where it should fold. \"triangles\": each face a constant-strain "
                  "triangle with the same moduli (stretch + shear/4 along warp and weft, shear/4 in shear), exact on "
                  "any mesh (docs/materials.md).")
          .isOptional(),
  }, "The fabric's physical parameters.");
}

config::Json defaultRemeshing() {
  static const config::Json value = config::resolve(Json::object(), remeshingObjectSchema(), {"defaults", "."});
  return value;
}

const config::Field& shotSchema() {
  static const config::Field schema = buildShotSchema();
  return schema;
}

}  // namespace adacloth
