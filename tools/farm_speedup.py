#!/usr/bin/env python3
"""Speed-up of a shot on a Slurm farm (docs/farm.md, "Speed-up"): measured on 1 and 2 workers of the running cluster
(tools/slurm-local.sh start) against a single-machine run, side by side, and modelled for more workers.

usage: tools/farm_speedup.py [--shot conf/crowd.json] [--frames N] [--repeat R] [--work DIR] [--adacloth PATH]

Each repetition runs, one after the other: the single-machine run (simulate, then render, one thread each), the farm
on 1 worker (every task alone: --max-parallel 1) and on 2 workers (--cpus-per-task 1 on the 2-CPU local node), and
checks that both farms' frames are byte-identical to the single run's. Everything runs with OMP_NUM_THREADS=1.
The model for N workers schedules each stage's tasks longest first (simulate: each group's simulated time alone, from
the 1-worker farm's stats.jsonl; render: the single run's time per frame times the chunk's frames), each task plus
Slurm's cost per task (the 1-worker farm's wall time beyond the work of its tasks, per task), the stages one after
the other. Prints a Markdown table.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
ENV = dict(os.environ, OMP_NUM_THREADS="1")


def run(*args):
    subprocess.run([str(a) for a in args], check=True, env=ENV, stdout=subprocess.DEVNULL)


def timed(*args):
    start = time.monotonic()
    run(*args)
    return time.monotonic() - start


def farm_wall(adacloth, shot, farm, frames, extra):
    """Seconds from submitting to the last task's end (polling `farm status` every 0.2 s)."""
    shutil.rmtree(farm, ignore_errors=True)
    start = time.monotonic()
    run(adacloth, "farm", "submit", shot, "-o", farm, "--frames", frames, "--no-movie", "--cpus-per-task", 1, *extra)
    while True:
        code = subprocess.run([str(adacloth), "farm", "status", str(farm)], stdout=subprocess.DEVNULL).returncode
        if code != 4:
            break
        time.sleep(0.2)
    wall = time.monotonic() - start
    if code != 0:
        sys.exit(f"farm_speedup: the farm in {farm} failed (adacloth farm status {farm})")
    return wall


def check_identical(single, merged):
    names = sorted(p.name for p in (single / "frames").glob("*.obj"))
    bad = [n for n in names if (single / "frames" / n).read_bytes() != (merged / "frames" / n).read_bytes()]
    if bad or not names:
        sys.exit(f"farm_speedup: {merged}/frames differs from {single}/frames ({len(bad)} files)")
    return len(names)


def simulated_seconds(out):
    return sum(json.loads(line)["wall_ms"]["total"] for line in open(out / "stats.jsonl")) / 1000


def makespan(tasks, workers):
    """Longest-processing-time-first schedule of task durations (s) on `workers` machines."""
    loads = [0.0] * workers
    for t in sorted(tasks, reverse=True):
        loads[loads.index(min(loads))] += t
    return max(loads)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shot", type=pathlib.Path, default=REPO / "conf" / "crowd.json")
    p.add_argument("--frames", type=int, default=96)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--work", type=pathlib.Path, default=pathlib.Path("/tmp/adacloth-farm-speedup"))
    p.add_argument("--adacloth", type=pathlib.Path, default=REPO / "build" / "adacloth")
    a = p.parse_args()
    shot, adacloth, work = a.shot.resolve(), a.adacloth.resolve(), a.work
    rows = []
    for rep in range(a.repeat):
        single = work / "single"
        shutil.rmtree(single, ignore_errors=True)
        sim = timed(adacloth, "simulate", shot, "-o", single, "--frames", a.frames, "--quiet")
        render = timed(adacloth, "render", single, "--threads", 1, "--quiet")
        n1 = farm_wall(adacloth, shot, work / "n1", a.frames, ["--max-parallel", 1])
        n2 = farm_wall(adacloth, shot, work / "n2", a.frames, [])
        files = check_identical(single, work / "n1" / pathlib.Path(shot).stem)
        check_identical(single, work / "n2" / pathlib.Path(shot).stem)
        rows.append((sim, render, n1, n2))
        print(f"repetition {rep + 1}: single {sim:.1f} + {render:.1f} s, 1 worker {n1:.1f} s, 2 workers {n2:.1f} s; "
              f"{files} frame files byte-identical", flush=True)

    plan = json.loads((work / "n1" / "plan.json").read_text())["shots"][0]
    name = plan["name"]
    # Each group's simulated time when it ran alone (the 1-worker farm), from its stats.jsonl.
    groups = [simulated_seconds(work / "n1" / "groups" / name / f"g{k}") for k in range(len(plan["groups"]))]
    sim, render, n1, n2 = (sorted(r[i] for r in rows)[len(rows) // 2] for i in range(4))  # medians
    single = sim + render
    per_frame = render / (a.frames + 1)
    chunks = [per_frame * (last - first + 1) for first, last in plan["render_chunks"]]
    merge = timed(adacloth, "merge", work / "merge-timing", *[work / "n1" / "groups" / name / f"g{k}"
                                                                for k in range(len(groups))])
    # What a task costs beyond its own work (scheduling, job launch, the program's start), from the 1-worker farm.
    tasks = len(groups) + 1 + len(chunks)
    per_task = (n1 - sum(groups) - merge - sum(chunks)) / tasks

    def model(workers, chunk):
        frames = [per_frame * min(chunk, a.frames + 1 - f) for f in range(0, a.frames + 1, chunk)]
        return (makespan([g + per_task for g in groups], workers) + merge + per_task +
                makespan([f + per_task for f in frames], workers))

    print(f"\nsingle machine: simulate {sim:.1f} s, render {render:.1f} s ({per_frame:.3f} s/frame); groups' simulated "
          f"time alone (s): {', '.join(f'{g:.1f}' for g in groups)} (sum {sum(groups):.1f}, largest {max(groups):.1f}); "
          f"merge {merge:.1f} s; Slurm's cost per task {per_task:.1f} s\n")
    print("| run | wall time (s) | speed-up vs single machine |\n|---|---|---|")
    print(f"| single machine (simulate + render) | {single:.1f} | 1.00 |")
    print(f"| 1 worker (measured) | {n1:.1f} | {single / n1:.2f} |")
    print(f"| 2 workers (measured) | {n2:.1f} | {single / n2:.2f} |")
    for workers, chunk in ((2, 24), (3, 24), (5, 24), (5, 1), (100, 24), (100, 1)):
        t = model(workers, chunk)
        print(f"| {workers} workers (model, render chunks of {chunk}) | {t:.1f} | {single / t:.2f} |")
    bound = sum(groups) / max(groups)
    print(f"\nsimulation alone, any number of workers: at most {bound:.2f}x (all groups / the largest)")


if __name__ == "__main__":
    main()
