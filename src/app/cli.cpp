#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "app/commands.h"
#include "config/schema.h"
#include "io/error.h"

namespace adacloth {
namespace {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"simulate", "run a shot and write frames, stats and the resolved shot",
       "usage: adacloth simulate SHOT.json [-o OUT] [--frames N] [--threads T] [--no-view] [--resume]\n"
       "                                  [--checkpoint-every N] [--cloths NAME,... [--obstacles NAME,...]] [--quiet]\n"
       "\n"
       "Runs the shot and writes OUT (default: out/<shot name>):\n"
       "  OUT/frames/<cloth>_<frame:05d>.obj   cloth meshes (v = world positions, vt = material coordinates)\n"
       "  OUT/stats.jsonl                      one JSON object per frame (faces, edge lengths, ms per phase)\n"
       "  OUT/shot.resolved.json               the shot with every default filled in\n"
       "  OUT/checkpoints/frame_<frame:05d>.ckpt  the whole state every checkpoint.every frames (default 10)\n"
       "Frames, stats, checkpoints, renders and movies left in OUT by an earlier run are removed first (nothing\n"
       "else), unless --resume.\n"
       "\n"
       "options:\n"
       "  -o, --out OUT     output folder\n"
       "  --frames N        simulate N frames after frame 0 (default: the shot's \"frames\")\n"
       "  --threads T       OpenMP threads (default: all cores); results are identical at any count\n"
       "  --no-view         ignore every cloth's \"view\" (view-independent run, for comparisons)\n"
       "  --resume          continue an interrupted run from the newest checkpoint in OUT/checkpoints (none: start\n"
       "                    at frame 0); frames and stats.jsonl come out byte-identical to an uninterrupted run (but\n"
       "                    for wall times). Give the same shot and --no-view; --frames may be larger than before\n"
       "  --checkpoint-every N  a checkpoint every N frames (0: none), instead of the shot's checkpoint.every\n"
       "  --quiet           no progress on stderr\n"
       "  --cloths LIST     simulate only these cloths (names, comma-separated; shot order is kept): one cloth group\n"
       "                    of a farm run (docs/farm.md). OUT/shot.resolved.json is then the part simulated, and\n"
       "                    OUT/group.json records the group and the whole shot for 'adacloth merge'\n"
       "  --obstacles LIST  with only these obstacles (default: all); every obstacle a kept cloth is bound to must be\n"
       "                    among them\n"
       "\n"
       "exit codes: 0 done, 2 bad input (nothing written; with --resume also a corrupt checkpoint or one of\n"
       "another shot), 3 the simulation failed (frames so far are kept)\n",
       runSimulateCommand},
      {"merge", "join the output folders of a shot's cloth groups into one output folder",
       "usage: adacloth merge OUT GROUP_OUT... [--quiet]\n"
       "\n"
       "Joins the folders written by 'adacloth simulate SHOT --cloths ...' for the cloth groups of one shot into OUT,\n"
       "the folder a single run of the whole shot writes (docs/farm.md): OUT/frames (hard links to the groups'\n"
       "files; copies when OUT is on another filesystem), OUT/obstacles, OUT/shot.resolved.json (the whole shot)\n"
       "and OUT/stats.jsonl: per frame the cloths in shot order, the collision counters summed over the groups\n"
       "(impact_zones and steps: the largest), and each wall_ms phase summed: the CPU time the frame cost on all\n"
       "machines together, not a wall time.\n"
       "\n"
       "Checks first, writes nothing on bad input: every folder holds group.json of the same shot and the same\n"
       "frames, the groups together hold every cloth exactly once, and an obstacle written by several groups is\n"
       "byte-identical in all of them. Then the safety net: at every frame, the box each cloth swept since the\n"
       "previous frame must stay farther than the interaction distance (10 x the collision thickness + 5 cm) from\n"
       "the cloths of the other groups and from the obstacles its group did not simulate. If it did not, the groups\n"
       "acted on each other and their frames are not those of the whole shot: rerun it unsplit.\n"
       "\n"
       "exit codes: 0 merged, 2 bad input (nothing written), 3 the groups came too close (nothing written)\n",
       runMergeCommand},
      {"farm", "split shots into Slurm jobs: plan, submit, status (docs/farm.md)",
       "usage: adacloth farm plan SHOT.json... [-o FARM_DIR] [--frames N] [--render-chunk F] [--no-render]\n"
       "                                       [--no-movie] [--render-width W] [--conservative]\n"
       "       adacloth farm submit SHOT.json... -o FARM_DIR [plan options] [--partition P] [--cpus-per-task C]\n"
       "                                       [--max-parallel K] [--dry-run]\n"
       "       adacloth farm status FARM_DIR\n"
       "\n"
       "plan: splits each shot into its independent cloth groups (cloths that never come within the interaction\n"
       "  distance of another group's cloths: 10 x the collision thickness + 5 cm) and its frames into render\n"
       "  chunks, prints the plan and, with -o, writes FARM_DIR/plan.json. A shot with a cloth no handle holds, or\n"
       "  with view occlusion on, is not split.\n"
       "  -o, --out DIR      the farm folder\n"
       "  --frames N         frames after frame 0, for every shot (default: each shot's \"frames\")\n"
       "  --render-chunk F   frames per render task (default 24)\n"
       "  --no-render        simulate (and merge) only\n"
       "  --no-movie         no movie stage\n"
       "  --render-width W   render at W pixels wide (height keeps the camera's aspect)\n"
       "  --conservative     group by the sure reach of each cloth (its held nodes' box inflated by its length x\n"
       "                     its stretch limit) instead of the predicted one; splits less\n"
       "submit: writes one sbatch job-array script per stage into FARM_DIR and submits them with sbatch, each\n"
       "  after the previous one succeeded: simulate (one task per shot group, or per shot when it is not split),\n"
       "  merge (one per split shot), render (one per chunk), movie (tools/make_movie.sh per shot; left out when\n"
       "  ffmpeg is missing here). Prints and records the job ids (FARM_DIR/jobs.json). Outputs: FARM_DIR/<shot>\n"
       "  (as 'simulate -o' would write it), group folders FARM_DIR/groups/<shot>/g<k>, task logs FARM_DIR/logs.\n"
       "  --partition P      Slurm partition (default: the cluster's default)\n"
       "  --cpus-per-task C  CPUs, and OpenMP threads, of every task (default 1; frames are the same at any count)\n"
       "  --max-parallel K   at most K tasks of a stage at once\n"
       "  --dry-run          write the plan and the scripts, print the sbatch commands, submit nothing\n"
       "status: counts the tasks of each submitted stage by state (from each task's exit file, else sacct, else\n"
       "  squeue when the cluster keeps no accounting) and lists failed tasks with their log files.\n"
       "\n"
       "exit codes: 0 done (status: every task completed), 1 status: some task failed or was cancelled; submit:\n"
       "  sbatch failed, 2 bad input, 4 status: none failed, some still pending or running\n",
       runFarmCommand},
      {"info", "validate a shot and print a summary",
       "usage: adacloth info SHOT.json\n"
       "\n"
       "Validates the shot and every file it names (meshes, camera) and prints its cloths (nodes, faces, material\n"
       "area, mass, bounding box), obstacles, camera and frame range. Exit code 2 with a one-line message on bad\n"
       "input.\n",
       runInfoCommand},
      {"schema", "print the reference of the shot file format (Markdown)",
       "usage: adacloth schema\n"
       "\n"
       "Prints every key of a shot file with its type, unit, default and meaning, as Markdown. docs/shot-format.md\n"
       "is this output.\n",
       runSchemaCommand},
      {"render", "draw the frames of an output folder to PNG (software rasterizer)",
       "usage: adacloth render OUT [--camera FILE] [--width W --height H] [--color material|view|sizing]\n"
       "                           [--wireframe] [--frames A:B] [-o DIR] [--threads T] [--quiet]\n"
       "\n"
       "Reads OUT/shot.resolved.json and OUT/frames/<cloth>_<frame:05d>.obj (and OUT/obstacles/<name>_<frame:05d>.obj\n"
       "if any) and writes OUT/render/<frame:05d>.png (or DIR/<frame:05d>.png). Frame f is seen by the camera at time\n"
       "f / fps.\n"
       "\n"
       "options:\n"
       "  --camera FILE     camera path (cameras/*.json; default: the shot's \"camera\")\n"
       "  --width W         image width in pixels (default: the camera file's; one of W, H alone keeps its aspect)\n"
       "  --height H        image height in pixels\n"
       "  --color MODE      material (default): each cloth's front and back colour;\n"
       "                    view: view factor of each face for the shot's camera (yellow 1 = in view, violet = not);\n"
       "                    sizing: mean edge length of each face, log scale from shortest (violet) to longest (yellow)\n"
       "  --wireframe       draw the cloth's edges (shows the adaptive mesh)\n"
       "  --frames A:B      only frames A..B (inclusive; A: and :B allowed; A-B is the same)\n"
       "  -o, --output DIR  folder for the PNGs (default OUT/render), e.g. OUT/render_view for a second rendering\n"
       "  --ground Y        ground plane height in metres (default: 1 mm below y = 0, or below the lowest point of\n"
       "                    OUT's first frame if lower, whatever --frames selects)\n"
       "  --no-ground       no ground plane\n"
       "  --threads T       OpenMP threads (default: all cores); images are identical at any count\n"
       "  --quiet           no progress on stderr\n"
       "  --camera-schema   print the camera path format (Markdown) and exit\n"
       "\n"
       "exit codes: 0 done, 2 bad input (missing OUT, no frames, no or broken camera)\n",
       runRenderCommand},
      {"compare", "compare two PNG images within a tolerance (for regression checks)",
       "usage: adacloth compare A.png B.png [--threshold T] [--max-share S] [--quiet]\n"
       "\n"
       "Prints the largest and the mean per-pixel difference (largest channel difference, 0..255) and the share of\n"
       "pixels differing by more than T.\n"
       "\n"
       "options:\n"
       "  --threshold T     a pixel differs when its difference exceeds T (0..255, default 16)\n"
       "  --max-share S     the images are the same when at most this fraction of pixels differ (default 0.001)\n"
       "  --quiet           print nothing, only set the exit code\n"
       "\n"
       "exit codes: 0 same within tolerance, 1 different (or different sizes), 2 unreadable file\n",
       runCompareCommand},
      {"contact-sheet", "one PNG with thumbnails of the rendered frames of an output folder",
       "usage: adacloth contact-sheet OUT [-o FILE] [--from DIR[,DIR...]] [--count N] [--columns C] [--thumb-width W]\n"
       "\n"
       "Reads OUT/render/*.png and writes a grid of thumbnails (default OUT/contact_sheet.png).\n"
       "\n"
       "options:\n"
       "  -o, --output FILE   where to write it\n"
       "  --from DIRS         the folders of PNGs to use instead of OUT/render, comma-separated (relative ones inside\n"
       "                      OUT); with several, each frame is shown once per folder, side by side in that order\n"
       "                      (e.g. --from render,render_view: material colours next to view factors)\n"
       "  --count N           at most N frames, evenly spread, first and last included (default 24)\n"
       "  --columns C         thumbnails per row (default 6; with several folders a multiple of their number)\n"
       "  --thumb-width W     thumbnail width in pixels (default 240)\n",
       runContactSheetCommand},
      {"upsample", "learned upsampling: tracked training runs, training, evaluation (docs/upsampling.md)",
       "usage: adacloth upsample track SHOT.json -o DIR [--cloth NAME] [--levels L] [--test-functions T]\n"
       "                               [--coarse-cells NX,NY | --coarse-mesh X.obj] [--frames N] [--threads T]\n"
       "                               [--perturb-fine X] [--quiet]\n"
       "       adacloth upsample train DIR... -o OP.bin [--method linear] [--K K] [--gamma1 A] [--gammaN G] [--c C]\n"
       "                               [--modes R] [--prior barycentric|none] [--validate DIR[,DIR...]]\n"
       "       adacloth upsample train DIR... -o W.bin --method wrinkles [--poses P] [--base midpoint|loop]\n"
       "                               [--metric-radius R] [--metric-edges E] [--rbf-damping D] [--validate DIRS]\n"
       "       adacloth upsample mlp-data DIR... -o DATASET.bin [--max-residual X]  (then tools/train_patch_mlp.py)\n"
       "       adacloth upsample eval MODEL... --training DIR[,DIR...] --heldout DIR[,DIR...] [--camera FILE]\n"
       "                               [--json FILE] [--figure PNG [--figure-frame F]]\n"
       "       adacloth upsample twin DIR_A DIR_B [--tolerance X] [--from T] [--json FILE]\n"
       "\n"
       "track: simulates one cloth of the shot twice in lockstep, on its own (coarse, fixed) mesh and on L levels of\n"
       "  1-to-4 midpoint subdivision of it, projecting the fine positions and velocities after every step so that\n"
       "  their lowest T harmonics follow the coarse run (Kavan et al. 2011). Writes DIR/coarse.obj, DIR/frames.bin.\n"
       "  --cloth NAME          the cloth to track (required when the shot has several)\n"
       "  --levels L            subdivision levels, 1..5 (default 3: ~64x the coarse faces)\n"
       "  --test-functions T    harmonics in the tracking constraint (default 60)\n"
       "  --coarse-cells NX,NY  replace a grid cloth's cells (the coarse mesh)\n"
       "  --coarse-mesh X.obj   replace the cloth's mesh by this OBJ (the cloth's transform still applies)\n"
       "  --frames N            frames after frame 0 (default: the shot's)\n"
       "  --perturb-fine X      move the fine nodes by up to X m at the start, the coarse run unchanged: the twin of\n"
       "                        a run for 'upsample twin' whose coarse motion never parts from it\n"
       "train: learns p_f = U p_c from one or more track folders with harmonic regularization and the partition of\n"
       "  unity, gamma_n = A (1 + b (n-1)/N)^C with gamma_N = G at the fine node count N, over the lowest K harmonics.\n"
       "  --K K                 harmonics kept (default 300)\n"
       "  --gamma1 A            damping of the lowest harmonic (default 1)\n"
       "  --gammaN G            damping of harmonic N (default 1e5)\n"
       "  --c C                 profile exponent (default 4)\n"
       "  --modes R             oscillatory modes fitted to the normal residual (default 0)\n"
       "  --prior P             barycentric (default): U = B + correction, regularized toward B; none: toward 0\n"
       "  --max-residual X      m, leave out training and validation frames with a fine node farther than X from\n"
       "                        barycentric (local glitches of the fine run; default 0.1, 0 keeps all; also for\n"
       "                        --method wrinkles and mlp-data)\n"
       "  --validate DIRS       track folders not trained on; K, A, G, C may then be comma lists: one operator per\n"
       "                        combination, the one with the lowest validation error is written\n"
       "train --method wrinkles: example-based wrinkles (Zurdo et al. 2012): poses chosen greedily from the training\n"
       "  frames (largest error first), weighted pose-space deformation over coarse edge-length ratios.\n"
       "  --poses P             example poses, the rest pose included (default 6); with --validate, the count with\n"
       "                        the lowest validation error up to P is kept\n"
       "  --base B              midpoint (default) or loop: the surface the displacements start from; the local\n"
       "                        frames are the Loop surface's either way (on a coarse garment Loop shrinks it)\n"
       "  --metric-radius R     m, fall-off of each coarse node's edge metric (default twice the mean edge)\n"
       "  --metric-edges E      edges per node's metric (default 16)\n"
       "  --rbf-damping D       RBF diagonal damping relative to its largest entry (default 1e-3)\n"
       "mlp-data: the patch samples of the track folders for tools/train_patch_mlp.py (docs/upsampling.md).\n"
       "eval: mean per-vertex L2 error (mm) of barycentric (midpoint) subdivision, Loop subdivision and each model\n"
       "  file (linear, wrinkles or mlp, told apart by their contents) against the tracked fine runs, its ratio to\n"
       "  barycentric, mean absolute curvature relative to the fine run's (over the faces --camera sees of the fine\n"
       "  run, else all), memory and ms per frame on one thread; --json FILE writes the figures; --figure PNG draws\n"
       "  held-out frame F (default the last) with the camera: coarse, each method and the fine run side by side.\n"
       "twin: the predictability floor. DIR_A and DIR_B track one shot whose inputs differ by a negligible amount;\n"
       "  on the frames where their coarse runs still agree (coarse divergence <= X times the fine residual's,\n"
       "  default 0.1) and from time T s on (default 0; skip the frames where the fine runs are still parting), no\n"
       "  predictor from the coarse state can beat half the residual divergence. Prints it per frame and as a\n"
       "  fraction of barycentric interpolation's error; --json FILE writes the figures.\n"
       "\n"
       "exit codes: 0 done, 2 bad input (shot, folders, operator file), 3 the simulation failed\n",
       runUpsampleCommand},
  };
  return table;
}

void printOverview() {
  std::printf("adacloth %s: adaptive, view-dependent cloth simulation for animated shots\n\n", ADACLOTH_VERSION);
  std::printf("usage: adacloth COMMAND [options]    (adacloth COMMAND --help for details)\n\ncommands:\n");
  for (const Command& c : commands()) std::printf("  %-14s %s\n", c.name, c.summary);
  std::printf("\noptions:\n  --help      this text\n  --version   print the version\n");
}

bool wantsHelp(int argc, char** argv) {
  for (int i = 2; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) return true;
  return false;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    printOverview();
    return 2;
  }
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printOverview();
    return 0;
  }
  if (name == "--version") {
    std::printf("adacloth %s\n", ADACLOTH_VERSION);
    return 0;
  }
  std::vector<std::string> names;
  for (const Command& c : commands()) {
    if (name == c.name) {
      if (wantsHelp(argc, argv)) {
        std::fputs(c.help, stdout);
        return 0;
      }
      return c.run(argc, argv);
    }
    names.push_back(c.name);
  }
  auto guess = config::didYouMean(name, names);
  throw InputError("unknown command '" + name + "'" + (guess ? " (did you mean '" + *guess + "'?)" : "") +
                   "; see 'adacloth --help'");
}

}  // namespace

int runCli(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "adacloth: error: %s\n", e.what());
    return 2;
  } catch (const SimulationError& e) {
    std::fprintf(stderr, "\nadacloth: simulation failed: %s\n", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    // Outside a simulation's frames (those say which frame, SimulationError): loading or building what the input
    // describes, e.g. a generated cloth of billions of faces, or rendering at an enormous size.
    std::fprintf(stderr, "adacloth: error: out of memory: the input asks for more memory than this machine has "
                 "(a cloth of fewer faces, or smaller images)\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "adacloth: error: %s\n", e.what());
    return 1;
  }
}

}  // namespace adacloth
