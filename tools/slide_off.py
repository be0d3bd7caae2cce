#!/usr/bin/env python3
"""How long frictionless cloth takes to slide off a bar, across mesh, contact thickness and steps per frame.

A 60 x 100 cm cotton towel is dropped flat onto a horizontal bar with a fifth of its length on one side
(--short), without friction and without air. A continuous towel slides off within about 0.6 s: the long side
outweighs the short one by 0.6 of the towel's weight. The converged figure of the simulator (64 steps per frame) is
12-16 frames at 24 fps.
This tool measures how far a setting is from it: a run whose towel stays on the bar much longer is held by the
numerics of contact, not by physics (docs/collisions.md, "Known limits"; docs/benchmarks.md, "Frictionless cloth
wrapped round a thin bar").

For each case it prints the first frame at which the whole towel hangs below the bar (`>N`: not within the run).

  python3 tools/slide_off.py                                  # the default sweep (~2 min on two cores)
  python3 tools/slide_off.py --cells 48x80 --steps 4,16,64 --bar round
  python3 tools/slide_off.py --cells 24x40 --thickness 0.0025,0.005 --adacloth /tmp/other/adacloth
  python3 tools/slide_off.py --cells 12x20 --steps 64 --bar both --frames 24 --expect-within 18   # ctest's check

Each case is `adacloth simulate` of a generated shot (written under -o) on one thread; --jobs cases run side by side.
"""
import argparse
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

BAR_TOP = 1.015  # m: the square bar's top (3 cm bar centred at y = 1 m)


def cylinder_obj(path, radius, length=1.0, segments=64, centre_y=1.0):
    """A capped cylinder along x (the bar's axis), radius in m, written as OBJ."""
    v, f = [], []
    for x in (-length / 2, length / 2):
        for k in range(segments):
            a = 2 * math.pi * k / segments
            v.append((x, centre_y + radius * math.sin(a), radius * math.cos(a)))
    n = segments
    for k in range(n):
        a, b = k, (k + 1) % n
        f += [(a, n + a, n + b), (a, n + b, b)]
    v += [(-length / 2, centre_y, 0.0), (length / 2, centre_y, 0.0)]
    for k in range(n):
        a, b = k, (k + 1) % n
        f += [(2 * n, b, a), (2 * n + 1, n + a, n + b)]
    with open(path, 'w') as out:
        out.writelines('v %.6f %.6f %.6f\n' % p for p in v)
        out.writelines('f %d %d %d\n' % (t[0] + 1, t[1] + 1, t[2] + 1) for t in f)


def shot(cells, thickness, steps, bar, frames, remeshing, short=0.2):
    """The towel shot as a dict. bar: 'square' (a 3 cm box) or the path of a round bar's OBJ; short: the share of the
    towel's length on the near side of the bar."""
    obstacle = ({"name": "bar", "mesh": {"box": {"size": [1.0, 0.03, 0.03]}}, "transform": {"translate": [0, 1.0, 0]}}
                if bar == 'square' else {"name": "bar", "mesh": bar})
    return {"name": "slide_off", "fps": 24, "frames": frames, "steps_per_frame": steps, "wind": {"density": 0},
            "cloths": [{"name": "towel", "mesh": {"grid": {"size": [0.6, 1.0], "cells": list(cells)}},
                        "transform": {"translate": [-0.3, 1.03, -short], "rotate_deg": [90, 0, 0]},
                        "material": "cotton", "remeshing": remeshing}],
            "obstacles": [obstacle],
            "collision": {"obstacle_friction": 0, "thickness": thickness}}


def off_frame(folder, frames, below):
    """The first frame whose towel lies wholly below `below` (m), '>frames' if none, None if the run stopped."""
    for frame in range(frames + 1):
        path = os.path.join(folder, 'frames', 'towel_%05d.obj' % frame)
        if not os.path.exists(path):
            return None
        top = max(float(line.split()[2]) for line in open(path) if line.startswith('v '))
        if top < below:
            return frame
    return '>%d' % frames


def run_case(args, case):
    cells, thickness, steps, bar = case
    tag = 'g%dx%d_t%g_s%d_%s%s' % (cells[0], cells[1], thickness, steps, bar, '_adaptive' if args.remeshing else '')
    # Both bars reach up to BAR_TOP; the towel is off when it lies wholly below the bar's underside.
    below = BAR_TOP - 0.03
    bar_spec = os.path.join(os.path.abspath(args.output), 'round_bar.obj') if bar == 'round' else 'square'
    path = os.path.join(args.output, tag + '.json')
    with open(path, 'w') as out:
        json.dump(shot(cells, thickness, steps, bar_spec, args.frames, args.remeshing, args.short), out, indent=1)
    folder = os.path.join(args.output, tag)
    result = subprocess.run([args.adacloth, 'simulate', path, '-o', folder, '--threads', '1', '--quiet'],
                            capture_output=True, text=True)
    frame = off_frame(folder, args.frames, below)
    if frame is None:
        frame = 'exit %d' % result.returncode
    return tag, frame


def parse_cells(text):
    return [tuple(int(n) for n in c.split('x')) for c in text.split(',')]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('-o', '--output', default='/tmp/slide_off', help='folder for the shots and runs')
    p.add_argument('--cells', default='12x20,24x40,48x80', help='grid cells across x along, comma-separated')
    p.add_argument('--thickness', default='0.005', help='collision.thickness values (m), comma-separated')
    p.add_argument('--steps', default='4,64', help='steps_per_frame values, comma-separated')
    p.add_argument('--bar', default='square', choices=['square', 'round', 'both'],
                   help='a 3 cm square bar, a round bar of 1.5 cm radius, or both')
    p.add_argument('--frames', type=int, default=120)
    p.add_argument('--short', type=float, default=0.2,
                   help='share of the towel on the near side of the bar (0.2: 20/80; 0.45: 45/55)')
    p.add_argument('--remeshing', action='store_true', help='adaptive mesh (the grid as the start mesh)')
    p.add_argument('--jobs', type=int, default=2)
    p.add_argument('--expect-within', type=int, metavar='N',
                   help='exit 1 unless every case is off the bar by frame N (a check for tests)')
    p.add_argument('--adacloth', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build',
                                                      'adacloth'))
    args = p.parse_args()
    if not os.path.exists(args.adacloth):
        sys.exit('slide_off.py: %s: no such binary (build first, or give --adacloth)' % args.adacloth)
    os.makedirs(args.output, exist_ok=True)
    bars = ['square', 'round'] if args.bar == 'both' else [args.bar]
    if 'round' in bars:
        cylinder_obj(os.path.join(args.output, 'round_bar.obj'), 0.015)
    cases = [(c, float(t), int(s), b) for b in bars for c in parse_cells(args.cells)
             for t in args.thickness.split(',') for s in args.steps.split(',')]
    print('%-32s %s' % ('case', 'off the bar at frame'))
    late = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for tag, frame in pool.map(lambda case: run_case(args, case), cases):
            print('%-32s %s' % (tag, frame), flush=True)
            if args.expect_within is not None and not (isinstance(frame, int) and frame <= args.expect_within):
                late.append(tag)
    if late:
        sys.exit('slide_off.py: not off the bar by frame %d: %s' % (args.expect_within, ', '.join(late)))


if __name__ == '__main__':
    main()
