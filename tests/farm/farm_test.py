#!/usr/bin/env python3
"""The farm test (ctest label farm, docs/farm.md): conf/crowd.json split by cloth group and submitted to the local
Slurm cluster (tools/slurm-local.sh, started by the test fixture) gives frames byte-identical to a single-machine run,
and its chunked renders match one render of the single run's frames.

usage: farm_test.py --adacloth BUILD/adacloth --work DIR [--frames N] [--timeout S]
"""
import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]


def run(*args, check=True):
    print("+", " ".join(str(a) for a in args), flush=True)
    result = subprocess.run([str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(result.stdout, end="", flush=True)
    if check and result.returncode != 0:
        sys.exit(f"farm test: exit code {result.returncode}")
    return result


def wait_for_farm(adacloth, farm, timeout):
    """Polls `farm status` until no task is pending or running (exit code other than 4)."""
    deadline = time.monotonic() + timeout
    while True:
        status = subprocess.run([str(adacloth), "farm", "status", str(farm)], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        if status.returncode != 4:
            print(status.stdout, end="")
            return status.returncode
        if time.monotonic() > deadline:
            print(status.stdout, end="")
            sys.exit(f"farm test: the jobs did not finish within {timeout} s")
        time.sleep(2)


def same_files(a, b, pattern):
    """Every file matching `pattern` in folder a has a byte-identical twin in b, and b has no others."""
    names_a = sorted(p.name for p in a.glob(pattern))
    names_b = sorted(p.name for p in b.glob(pattern))
    if not names_a or names_a != names_b:
        sys.exit(f"farm test: {a} has {len(names_a)} files {pattern}, {b} has {len(names_b)}; expected the same")
    differing = [n for n in names_a if (a / n).read_bytes() != (b / n).read_bytes()]
    if differing:
        sys.exit(f"farm test: {len(differing)} of {len(names_a)} files differ, first {b / differing[0]}")
    print(f"farm test: {len(names_a)} files {pattern} byte-identical: {a} and {b}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adacloth", required=True, type=pathlib.Path)
    parser.add_argument("--work", required=True, type=pathlib.Path)
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--timeout", type=float, default=200)
    args = parser.parse_args()
    shot = REPO / "conf" / "crowd.json"
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    single, farm = args.work / "single", args.work / "farm"
    render = ["--render-chunk", "4", "--render-width", "240"]

    run(args.adacloth, "farm", "submit", shot, "-o", farm, "--frames", args.frames, *render)
    plan = json.loads((farm / "plan.json").read_text())
    groups = len(plan["shots"][0]["groups"])
    if groups != 5:
        sys.exit(f"farm test: crowd was split into {groups} groups, expected its 5 characters")
    # The single-machine run while the cluster works (the cluster's node is this machine), on one thread like the
    # farm's tasks: OpenMP's spinning threads crawl on cores that others use (frames are the same at any count).
    run(args.adacloth, "simulate", shot, "-o", single, "--frames", args.frames, "--quiet", "--threads", 1)
    if wait_for_farm(args.adacloth, farm, args.timeout) != 0:
        for log in sorted((farm / "logs").glob("*.log")):
            print(f"--- {log}\n{log.read_text()}")
        sys.exit("farm test: some farm task failed")

    merged = farm / "crowd"
    same_files(single / "frames", merged / "frames", "*.obj")
    same_files(single / "obstacles", merged / "obstacles", "*.obj")
    run(args.adacloth, "render", single, "--width", "240", "--quiet", "--threads", 1)
    same_files(single / "render", merged / "render", "*.png")
    print("farm test: passed")


if __name__ == "__main__":
    main()
