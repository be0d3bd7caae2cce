#!/usr/bin/env python3
"""Runs the shots of conf/ pushed to production settings and checks that contact holds up.

usage: tools/stress.py [--list ci|quick|full] [--only NAME,...] [--frames N] [--threads T] [--json FILE]
                       [--adacloth PATH] [--keep DIR] [--names]

Each case is a conf/ shot with some settings changed (finer remeshing, thicker contact, faster motion, fewer steps
per frame, self-collision on). It runs `adacloth simulate` and reads OUT/stats.jsonl. A case passes when the run
completes and, at every frame end:
  - no triangle pairs intersect (stats `intersections`, all cloths),
  - no node is deeper inside an obstacle than a tenth of the collision thickness (`max_penetration`),
  - no step ended with colliding pairs left over (`collision.unresolved`); pairs left touching on held features
    (`collision.held_contacts`: a handle-held node against a handle-held edge, which the handles decide) are reported
    in the `held` column, not failed,
  - for the cases that say so, the stretch stayed within the case's bounds (`stretch_p99`, `stretch_max`): a strain
    limit held, or a cloth did not stay caught on an obstacle.
It also reports the largest rise of the cloths' total energy (kinetic + gravitational + elastic) above its value at
frame 0, as a share of that value (handles and wind do work, so this is a figure, not a check), and ms per frame.

Prints one line per case and exits 1 when a case fails, 2 on bad arguments or a missing shot. `ci` is the list
ctest runs (label `stress`, one test per case) within CI's time budget; `quick` adds the slower production cases;
`full` adds the long and the hardest ones (run on demand). The cases are what issue 16 ("production-robust contact")
asks to hold; docs/benchmarks.md ("Contact at production settings") has the last figures.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    print("stress.py: " + message, file=sys.stderr)
    sys.exit(2)


# Settings changes, each a function of the shot JSON (modified in place).
def fine_remeshing(shot):
    """Remeshed cloths get size [0.01, 0.1] m (production resolution)."""
    for cloth in shot["cloths"]:
        if cloth.get("remeshing", False) is not False:
            remeshing = cloth["remeshing"] if isinstance(cloth["remeshing"], dict) else {}
            remeshing["size"] = [0.01, 0.1]
            cloth["remeshing"] = remeshing


def thickness(metres):
    def change(shot):
        shot.setdefault("collision", {})["thickness"] = metres
    change.__doc__ = "collision thickness %g m" % metres
    return change


def self_collision(shot):
    """self-collision on"""
    shot.setdefault("collision", {})["self_collision"] = True


def steps(n):
    def change(shot):
        shot["steps_per_frame"] = n
    change.__doc__ = "%d steps per frame" % n
    return change


def speed(factor):
    """Every motion (obstacle keys and sequences, handle keys) played `factor` times faster."""
    def change(shot):
        for obstacle in shot.get("obstacles", []):
            for key in obstacle.get("motion", []):
                key["time"] = key["time"] / factor
            mesh = obstacle.get("mesh")
            if isinstance(mesh, dict) and "sequence" in mesh:
                mesh["sequence"]["fps"] = mesh["sequence"].get("fps", 24.0) * factor
        for cloth in shot["cloths"]:
            for handle in cloth.get("handles", []):
                for key in handle.get("motion", []):
                    key["time"] = key["time"] / factor
    change.__doc__ = "motion %gx faster" % factor
    return change


def material(name):
    """Every cloth in one of conf/materials/ (the shots are mostly cotton)."""
    def change(shot):
        for cloth in shot["cloths"]:
            cloth["material"] = name
    change.__doc__ = "every cloth in %s" % name
    return change


def steady_wind(velocity):
    def change(shot):
        shot["wind"] = {"velocity": list(velocity)}
    change.__doc__ = "wind %s m/s" % list(velocity)
    return change


def flag_two_corners(limit, wind):
    """The flag held at its two hoist corners only, in a stronger wind, with a tighter strain limit."""
    def change(shot):
        shot["wind"]["velocity"] = [wind, 0.0, wind / 4]
        cloth = shot["cloths"][0]
        cloth["handles"] = [{"region": {"min": [0, 0], "max": [0.001, 0.001]}},
                            {"region": {"min": [0, 0.999], "max": [0.001, 1.0]}}]
        cloth["strain_limit"] = {"max": limit, "stiffening": 30}
    change.__doc__ = "held at two corners, wind %g m/s, strain limit %g with stiffening 30" % (wind, limit)
    return change


def default_stiffening(shot):
    """the strain limit's stiffening left to the shot's default (100 from 0.25 for a limit of 1.05 or less on free
    cloth)"""
    for cloth in shot["cloths"]:
        limit = cloth.get("strain_limit")
        if isinstance(limit, dict):
            limit.pop("stiffening", None)
            limit.pop("onset", None)


def soft_knit_two_corners(limit, wind):
    """A soft, heavy knit (300 N/m, 0.568 kg/m², as ARCSim's flag's camel-ponte-roma thickened twice) held at its two
    hoist corners in a strong wind with a tight strain limit and no stiffening: the limiter's passes run out every
    step. Its shock pass once added energy there until the flag blew up (frame 59 of 96)."""
    def change(shot):
        flag_two_corners(limit, wind)(shot)
        cloth = shot["cloths"][0]
        cloth["strain_limit"] = {"max": limit, "stiffening": 0}  # a tight limit on free cloth gets 30 by default
        cloth["material"] = {"density": 0.568, "stretch": 300, "shear": 40, "bending": 8e-5, "damping": 0.002}
    change.__doc__ = "a soft knit held at two corners, wind %g m/s, strain limit %g without stiffening" % (wind, limit)
    return change


def stiffened(stiffening, onset):
    """The limit in the solve: faces past `onset` of the way to the limit stiffen by `stiffening` x the material's
    stretch stiffness (strain_limit.stiffening, .onset)."""
    def change(shot):
        for cloth in shot["cloths"]:
            cloth.setdefault("strain_limit", {}).update({"stiffening": stiffening, "onset": onset})
    change.__doc__ = "strain limit stiffening %g from onset %g" % (stiffening, onset)
    return change


def run_cycle(shot):
    """on the run cycle at 0.6x (1.8 m/s), with a 12-frame pre-roll from the rest pose the garments were fitted to"""
    for obstacle in shot.get("obstacles", []):
        sequence = obstacle.get("mesh", {}).get("sequence") if isinstance(obstacle.get("mesh"), dict) else None
        if not sequence or "mannequin_walk" not in sequence["pattern"]:
            continue
        sequence["pattern"] = sequence["pattern"].replace("mannequin_walk", "mannequin_run")
        sequence["fps"] = 7.2
        sequence["rest"] = sequence["pattern"].replace("mannequin_run/mannequin_run_%04d.obj", "mannequin_rest.obj")
        for key in obstacle.get("motion", []):
            key["translate"] = [c * 1.8 / 1.3 for c in key["translate"]]
    shot["preroll_frames"] = 12


def no_view(shot):
    """no view-dependent refinement (as --no-view)"""
    for cloth in shot["cloths"]:
        cloth.pop("view", None)


def adaptive(shot):
    """remeshing on (default sizes)"""
    for cloth in shot["cloths"]:
        cloth.setdefault("remeshing", {})


def interlock_triangles(shot):
    """ARCSim's gray-interlock thickened twice, converted (docs/materials.md: stretch 65, shear 147 N/m, 0.374 kg/m²),
    as constant-strain triangles ("membrane": "triangles")"""
    for cloth in shot["cloths"]:
        cloth["material"] = {"density": 0.374, "stretch": 65, "shear": 147, "bending": 2e-5, "membrane": "triangles"}


def arcsim_moving_ball(shot):
    """ARCSim's sheet on a moving sphere (its conf/sphere.json, Narain et al. 2012 fig. 2b) rebuilt: a 1 m cotton
    sheet held at two corners, remeshed at [0.01, 0.2] m with ARCSim's thresholds, swept by a 10 cm ball at 1.5 m/s
    (ARCSim's keys, linear here); no ground, no strain limit"""
    shot["fps"] = 25
    shot["steps_per_frame"] = 8
    shot["cloths"] = [{
        "name": "sheet", "mesh": {"grid": {"size": [1.0, 1.0], "cells": [4, 4]}},
        "transform": {"translate": [-0.5, 0.5, 1.0], "rotate_deg": [-90, 0, 0]},
        "material": "cotton",
        "handles": [{"points": [[-0.5, 0.5, 0.0], [0.5, 0.5, 0.0]]}],
        "remeshing": {"refine_angle": 0.3, "refine_compression": 0.005, "refine_velocity": 0.5,
                      "size": [0.01, 0.2], "aspect_min": 0.2}}]
    keys = [(0, 0), (2, 0), (3, 1.5), (4, 0), (5, -1.5), (6, 0), (7, 0.4)]
    shot["obstacles"] = [{"name": "ball", "mesh": {"sphere": {"radius": 0.1, "subdivisions": 3}},
                          "motion": [{"time": t, "translate": [0, 0, z]} for t, z in keys]}]
    shot["collision"] = {"thickness": 0.005}


# (name, shot in conf/, changes, frames, lists it belongs to, stretch bounds (p99, max; either may be None) or None)
CASES = [
    ("sheet_on_sphere", "sheet_on_sphere", [], 48, {"ci", "quick", "full"}, None),
    ("skirt_walk", "skirt_walk", [], 48, {"ci", "quick", "full"}, None),
    ("flag.corners", "flag", [flag_two_corners(1.05, 12.0)], 48, {"ci", "quick", "full"}, (1.07, 1.2)),
    ("flag.soft", "flag", [soft_knit_two_corners(1.05, 12.0)], 96, {"ci", "quick", "full"}, None),
    # One step per frame: the first step, from rest, is solved before any face has the limit's stiffening.
    ("flag.corners.1step", "flag", [flag_two_corners(1.05, 16.0), default_stiffening, steps(1)], 48,
     {"ci", "quick", "full"}, (1.07, 1.2)),
    ("flag.soft.stiffened", "flag", [soft_knit_two_corners(1.05, 12.0), adaptive, stiffened(300, 0.25)], 48,
     {"ci", "quick", "full"}, (1.07, 1.2)),
    ("crowd.self", "crowd", [self_collision], 24, {"ci", "quick", "full"}, None),
    ("jump_cut.2steps", "jump_cut", [steps(2)], 24, {"ci", "quick", "full"}, None),
    ("skirt_walk.fine", "skirt_walk", [fine_remeshing], 24, {"ci", "quick", "full"}, None),
    ("skirt_walk.thick", "skirt_walk", [thickness(0.01)], 24, {"ci", "quick", "full"}, None),
    ("cape_run.fine", "cape_run", [fine_remeshing], 24, {"quick", "full"}, None),
    ("flag.corners.adaptive", "flag", [flag_two_corners(1.05, 12.0), adaptive], 48, {"quick", "full"}, (1.07, 1.2)),
    ("skirt_walk.full", "skirt_walk", [], 96, {"full"}, None),
    ("skirt_walk.fine.full", "skirt_walk", [fine_remeshing], 96, {"full"}, None),
    ("skirt_walk.fine.noview.full", "skirt_walk", [fine_remeshing, no_view], 96, {"full"}, None),
    ("cape_run.fine.full", "cape_run", [fine_remeshing], 72, {"full"}, None),
    ("crowd.self.full", "crowd", [self_collision], 96, {"full"}, None),
    ("skirt_walk.fast", "skirt_walk", [speed(2.0)], 48, {"full"}, None),
    ("skirt_walk.run", "skirt_walk", [run_cycle], 48, {"quick", "full"}, None),
    ("cape_run.1step", "cape_run", [steps(1)], 48, {"full"}, None),
    ("skirt_walk.2steps", "skirt_walk", [steps(2)], 48, {"ci", "quick", "full"}, (1.15, 2.0)),
    ("crowd.fine.thick", "crowd", [self_collision, fine_remeshing, thickness(0.01)], 24, {"full"}, None),
    # The other materials of conf/materials/ (the shots are cotton): lighter, softer, stiffer and heavier cloth,
    # with the settings that make contact harder for each (docs/benchmarks.md, "Other materials").
    ("skirt_walk.jersey.fine", "skirt_walk", [material("jersey"), fine_remeshing], 48, {"full"}, None),
    ("cape_run.denim.2steps", "cape_run", [material("denim"), steps(2)], 72, {"full"}, None),
    ("sphere.silk.fine", "sheet_on_sphere", [material("silk"), adaptive, fine_remeshing], 120, {"full"}, None),
    ("crowd.silk.4steps", "crowd", [material("silk"), steps(4)], 96, {"full"}, None),
    ("drape.jersey.wind.fine", "drape", [material("jersey"), steady_wind([0.0, 0.0, 8.0]), adaptive,
                                         fine_remeshing], 72, {"full"}, None),
    ("jump_cut.denim.thick", "jump_cut", [material("denim"), thickness(0.012)], 96, {"full"}, None),
    # The ball's first sweep (to 3 s). A run caught on the ball kept its edges at p99 2-12 (and slowed to seconds
    # per frame). Chaotic: over nine solver tolerances 1 of 9 runs stayed caught before the push guard, none since,
    # all at a p99 of 1.08-1.12 (docs/benchmarks.md, "Piles of cloth without a strain limit").
    ("sphere.arcsim", "sheet_on_sphere", [arcsim_moving_ball], 75, {"full"}, (1.3, None)),
    # The same in ARCSim's own soft knit, as triangles (docs/benchmarks.md, "Against ARCSim itself"): a soft sheet
    # on a remeshed mesh with contact, the case the triangle membrane is for.
    ("sphere.arcsim.interlock", "sheet_on_sphere", [arcsim_moving_ball, interlock_triangles], 75, {"full"}, None),
]


def failure_message(proc):
    """The last line a failed run wrote on stderr; a run killed by a signal (out of memory, stopped by hand) writes
    none, and is named by its signal."""
    if proc.returncode == 0:
        return ""
    lines = proc.stderr.strip().splitlines()
    if lines:
        return lines[-1]
    if proc.returncode < 0:
        return "killed by signal %d" % -proc.returncode
    return "exit code %d without a message" % proc.returncode


def run_case(adacloth, name, shot_name, changes, frames, threads, out, stretch_bounds):
    shot_file = os.path.join(ROOT, "conf", shot_name + ".json")
    if not os.path.isfile(shot_file):
        fail(shot_file + ": no such shot")
    with open(shot_file) as f:
        shot = json.load(f)
    for change in changes:
        change(shot)
    thickness_m = shot.get("collision", {}).get("thickness", 0.005)
    # Written next to the original, so its relative paths (meshes, camera, sequences) still resolve (.gitignore has
    # conf/.stress-*.json).
    handle, path = tempfile.mkstemp(prefix=".stress-", suffix=".json", dir=os.path.dirname(shot_file))
    try:
        with os.fdopen(handle, "w") as f:
            json.dump(shot, f, indent=1)
        start = time.time()
        proc = subprocess.run([adacloth, "simulate", path, "-o", out, "--frames", str(frames), "--threads",
                               str(threads), "--quiet"], capture_output=True, text=True)
        seconds = time.time() - start
    finally:
        os.remove(path)
    result = {"case": name, "shot": shot_name, "changes": [c.__doc__ for c in changes], "frames": frames,
              "exit_code": proc.returncode, "seconds": round(seconds, 1), "message": failure_message(proc)}
    result.update(measure(os.path.join(out, "stats.jsonl"), thickness_m))
    result["stretch_bounds"] = stretch_bounds
    result["passed"] = (proc.returncode == 0 and result["frames_done"] == frames + 1 and
                        result["max_intersections"] == 0 and result["max_penetration"] <= thickness_m / 10 and
                        result["unresolved"] == 0 and
                        (stretch_bounds is None or
                         ((stretch_bounds[0] is None or result["stretch_p99"] <= stretch_bounds[0]) and
                          (stretch_bounds[1] is None or result["stretch_max"] <= stretch_bounds[1]))))
    return result


def measure(stats_file, thickness_m):
    rows = []
    if os.path.isfile(stats_file):
        with open(stats_file) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    m = {"frames_done": len(rows), "max_intersections": 0, "max_penetration": 0.0, "unresolved": 0,
         "unresolved_steps": 0, "held_contacts": 0, "energy_rise": 0.0, "ms_per_frame": 0.0, "thickness": thickness_m,
         "stretch_p99": 1.0, "stretch_max": 1.0, "face_stretch_p99": 1.0, "face_stretch_max": 1.0}
    if not rows:
        return m
    energy0 = None
    for row in rows:
        cloths = row["cloths"]
        m["max_intersections"] = max(m["max_intersections"], sum(c["intersections"] for c in cloths))
        m["max_penetration"] = max(m["max_penetration"], max(c["max_penetration"] for c in cloths))
        m["stretch_p99"] = max(m["stretch_p99"], max(c.get("stretch_p99", 1.0) for c in cloths))
        m["stretch_max"] = max(m["stretch_max"], max(c.get("stretch_max", 1.0) for c in cloths))
        # Reported in --json only (not a bound): faces are stretched past their edges where they shear.
        m["face_stretch_p99"] = max(m["face_stretch_p99"], max(c.get("face_stretch_p99", 1.0) for c in cloths))
        m["face_stretch_max"] = max(m["face_stretch_max"], max(c.get("face_stretch_max", 1.0) for c in cloths))
        collision = row.get("collision", {})
        m["unresolved"] += collision.get("unresolved", 0)
        m["unresolved_steps"] += collision.get("unresolved_steps", 0)
        m["held_contacts"] += collision.get("held_contacts", 0)
        energy = sum(c["kinetic_energy"] + c["potential_energy"] + c["elastic_energy"] for c in cloths)
        if energy0 is None:
            energy0 = energy
        elif abs(energy0) > 0:
            m["energy_rise"] = max(m["energy_rise"], (energy - energy0) / abs(energy0))
    later = rows[1:] or rows
    m["ms_per_frame"] = round(sum(r["wall_ms"]["total"] for r in later) / len(later), 1)
    return m


def main():
    # A stopped run still removes its temporary shot (the `finally` in run_case): SIGTERM exits like Ctrl-C.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", choices=["ci", "quick", "full"], default="quick")
    parser.add_argument("--only", help="comma-separated case names (from any list)")
    parser.add_argument("--frames", type=int, help="frames per case instead of each case's own")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--adacloth", default=os.path.join(ROOT, "build", "adacloth"))
    parser.add_argument("--keep", help="keep each case's output folder under DIR")
    parser.add_argument("--names", action="store_true", help="print the names of the list's cases and exit")
    args = parser.parse_args()
    if args.names:
        print(";".join(c[0] for c in CASES if args.list in c[4]))
        return
    if not os.access(args.adacloth, os.X_OK):
        fail(args.adacloth + ": not an executable (build first: tools/build.sh adacloth)")
    if args.frames is not None and args.frames < 1:
        fail("--frames: expected a whole number >= 1, got %d" % args.frames)
    names = [c[0] for c in CASES]
    if args.only:
        wanted = args.only.split(",")
        for w in wanted:
            if w not in names:
                fail("--only: unknown case \"%s\"; cases: %s" % (w, ", ".join(names)))
        cases = [c for c in CASES if c[0] in wanted]
    else:
        cases = [c for c in CASES if args.list in c[4]]
    results = []
    print("%-22s %7s %6s %9s %12s %6s %13s %10s %10s %10s  %s" % (
        "case", "frames", "inter", "pen/th", "unresolved", "held", "stretch", "E rise", "ms/frame", "result", "note"))
    for name, shot_name, changes, frames, _, bounds in cases:
        frames = args.frames or frames
        with tempfile.TemporaryDirectory(prefix="adacloth-stress-") as tmp:
            out = os.path.join(args.keep, name) if args.keep else os.path.join(tmp, "out")
            r = run_case(args.adacloth, name, shot_name, changes, frames, args.threads, out, bounds)
        results.append(r)
        print("%-22s %3d/%-3d %6d %9.2f %5d (%3d) %6d %6.3f/%6.3f %9.1f%% %10.1f %10s  %s" % (
            name, r["frames_done"] - 1, frames, r["max_intersections"], r["max_penetration"] / r["thickness"],
            r["unresolved"], r["unresolved_steps"], r["held_contacts"], r["stretch_p99"], r["stretch_max"],
            100 * r["energy_rise"], r["ms_per_frame"], "pass" if r["passed"] else "FAIL", r["message"][:60]),
            flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    failed = [r["case"] for r in results if not r["passed"]]
    print("%d of %d cases pass%s" % (len(results) - len(failed), len(results),
                                      "" if not failed else "; failing: " + ", ".join(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
