#!/usr/bin/env python3
"""Runs a shot several times with trajectories that differ, and summarizes how robust it is.

A single run of a garment shot is chaotic: a change that helps one run may hurt the next. This tool runs the shot at
several `solver_tolerance` values (each moves the whole trajectory by rounding, not by physics), in parallel, and
prints one line per run and the mean over runs of what docs/benchmarks.md compares: faces (median over frames, summed
over cloths), frames in which some cloth's longest edge is past 1.3x its rest length (past_1_3), the worst frame-end
p99 stretch and the largest edge, the worst frame-end p99 of the faces' larger principal stretch (face_worst_p99) and
the frames in which it is past 1.12 for some cloth (face_frames_1_12: faces can stretch where their edges do not,
docs/benchmarks.md "Folds finer than the thickness"), frames ending with intersecting pairs, the steps' collisions
left unresolved, and with --slivers the cloth-frames holding a face thinner than 1 mm (thin) or an edge shorter
than 2 mm (short) in material space (docs/remeshing.md, "Slivers").

  python3 tools/ensemble.py conf/crowd.json -o /tmp/ens --tolerances 0.0025:0.0036:12 \\
      --cloth-set view.backface=true --cloth-prefix skirt --slivers
  python3 tools/ensemble.py conf/skirt_walk.json -o /tmp/ens --adacloth /tmp/other/adacloth --label other
  python3 tools/ensemble.py conf/skirt_walk.json -o /tmp/ens --label plain --no-view   # then bench_view --cuts

Each run is `adacloth simulate` of a copy of the shot (written under -o, its file paths made absolute) on one thread;
--jobs runs (default 2) go side by side, so wall times are indicative only. A copy the simulator rejects (a bad key
given to --set, say) shows as a run with exit code 2 and the simulator's message.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def tolerances(spec):
    """'a:b:n' (n values from a to b) or 'a,b,c'."""
    if ':' in spec:
        lo, hi, n = spec.split(':')
        lo, hi, n = float(lo), float(hi), int(n)
        # Rounded so that 0.0025:0.0036:12 gives 0.0026, not 0.0026000000000000003 (the same shot file as typed).
        return [round(lo + (hi - lo) * i / (n - 1), 12) for i in range(n)] if n > 1 else [lo]
    return [float(t) for t in spec.split(',')]


def set_path(obj, path, value):
    keys = path.split('.')
    for k in keys[:-1]:
        if k == 'material' and isinstance(obj.get(k), str):
            # A material given by preset name: keep the preset and override one key (material.membrane=...).
            obj[k] = {'preset': obj[k]}
        obj = obj.setdefault(k, {})
    obj[keys[-1]] = value


def parse_setting(text, flag):
    if '=' not in text:
        sys.exit(f"ensemble.py: {flag} {text}: expected KEY.PATH=JSON (e.g. view.backface=true)")
    key, value = text.split('=', 1)
    try:
        return key, json.loads(value)
    except json.JSONDecodeError as e:
        sys.exit(f"ensemble.py: {flag} {text}: the value is not JSON ({e})")


def with_absolute_paths(shot_path):
    """The shot's JSON with every file it names made absolute (paths are relative to the shot file), so that a copy
    can be written anywhere."""
    with open(shot_path) as f:
        d = json.load(f)
    base = os.path.dirname(os.path.abspath(shot_path))

    def fix(p):
        return p if os.path.isabs(p) else os.path.normpath(os.path.join(base, p))

    if isinstance(d.get('camera'), str):
        d['camera'] = fix(d['camera'])
    for c in d.get('cloths', []):
        if isinstance(c.get('mesh'), str):
            c['mesh'] = fix(c['mesh'])
        if isinstance(c.get('upsample'), dict) and isinstance(c['upsample'].get('operator'), str):
            c['upsample']['operator'] = fix(c['upsample']['operator'])
    for o in d.get('obstacles', []):
        m = o.get('mesh')
        if isinstance(m, str):
            o['mesh'] = fix(m)
        elif isinstance(m, dict) and isinstance(m.get('sequence'), dict):
            for key in ('pattern', 'rest'):
                if isinstance(m['sequence'].get(key), str):
                    m['sequence'][key] = fix(m['sequence'][key])
    return d


def material_slivers(obj_path):
    """(face thinner than 1 mm, edge shorter than 2 mm) in the material coordinates (vt) of a frame OBJ."""
    vt, faces = [], []
    with open(obj_path) as f:
        for line in f:
            if line.startswith('vt '):
                vt.append(tuple(map(float, line.split()[1:3])))
            elif line.startswith('f '):
                faces.append([int(c.split('/')[1]) - 1 for c in line.split()[1:4]])
    thin = short = False
    for a, b, c in faces:
        (ax, ay), (bx, by), (cx, cy) = vt[a], vt[b], vt[c]
        lengths = (math.hypot(bx - ax, by - ay), math.hypot(cx - bx, cy - by), math.hypot(ax - cx, ay - cy))
        area2 = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
        thin = thin or area2 / max(lengths) < 0.001
        short = short or min(lengths) < 0.002
    return thin, short


def summarize(run_dir, slivers):
    with open(os.path.join(run_dir, 'stats.jsonl')) as f:
        frames = [json.loads(line) for line in f]
    frames = [fr for fr in frames if fr['frame'] > 0]
    s = {
        'frames': len(frames),
        'faces': statistics.median(sum(c['faces'] for c in fr['cloths']) for fr in frames) if frames else 0,
        'past_1_3': sum(1 for fr in frames if any(c['stretch_max'] > 1.3 for c in fr['cloths'])),
        'worst_p99': max((c['stretch_p99'] for fr in frames for c in fr['cloths']), default=0),
        'largest': max((c['stretch_max'] for fr in frames for c in fr['cloths']), default=0),
        'face_worst_p99': max((c.get('face_stretch_p99', 0) for fr in frames for c in fr['cloths']), default=0),
        'face_frames_1_12': sum(1 for fr in frames if any(c.get('face_stretch_p99', 0) > 1.12 for c in fr['cloths'])),
        'pair_frames': sum(1 for fr in frames if any(c['intersections'] for c in fr['cloths'])),
        'unresolved': sum(fr['collision']['unresolved'] for fr in frames),
        'ms': statistics.mean(fr['wall_ms']['total'] for fr in frames) if frames else 0,
    }
    if slivers:
        thin = short = 0
        for fr in frames:
            for c in fr['cloths']:
                t, sh = material_slivers(os.path.join(run_dir, 'frames', f"{c['name']}_{fr['frame']:05d}.obj"))
                thin += t
                short += sh
        s['thin'], s['short'] = thin, short
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('shots', nargs='+')
    ap.add_argument('-o', '--out', required=True, help='folder for the shot copies and the runs')
    ap.add_argument('--adacloth', default='build/adacloth')
    ap.add_argument('--label', default='run', help='prefix of the run folders (to compare binaries in one folder)')
    ap.add_argument('--tolerances', default='0.0025:0.0035:6', help="'lo:hi:n' or 'a,b,c' (default 0.0025:0.0035:6)")
    ap.add_argument('--set', action='append', default=[], help='KEY.PATH=JSON set at the shot level')
    ap.add_argument('--cloth-set', action='append', default=[], help='KEY.PATH=JSON set on each cloth')
    ap.add_argument('--cloth-prefix', default='', help='--cloth-set only on cloths whose name starts with this')
    ap.add_argument('--frames', type=int, help='frames to simulate (default: the shot\'s)')
    ap.add_argument('--no-view', action='store_true', help='simulate with --no-view (the reference of a view-dependent '
                    'ensemble: bench_view --cuts)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--slivers', action='store_true', help='count thin faces and short edges in the frame OBJs')
    args = ap.parse_args()
    if not os.access(args.adacloth, os.X_OK):
        sys.exit(f"ensemble.py: --adacloth {args.adacloth}: not an executable file")
    os.makedirs(args.out, exist_ok=True)
    shot_sets = [parse_setting(t, '--set') for t in args.set]
    cloth_sets = [parse_setting(t, '--cloth-set') for t in args.cloth_set]

    runs = []
    for shot in args.shots:
        try:
            base = with_absolute_paths(shot)
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"ensemble.py: {shot}: {e}")
        name = os.path.splitext(os.path.basename(shot))[0]
        for t in tolerances(args.tolerances):
            d = json.loads(json.dumps(base))
            d['solver_tolerance'] = t
            for key, value in shot_sets:
                set_path(d, key, value)
            for c in d['cloths']:
                if c['name'].startswith(args.cloth_prefix):
                    for key, value in cloth_sets:
                        set_path(c, key, value)
            tag = f"{args.label}_{name}_{t:.6g}"
            path = os.path.join(args.out, tag + '.json')
            with open(path, 'w') as f:
                json.dump(d, f, indent=1)
            runs.append((tag, path, os.path.join(args.out, tag)))

    def simulate(run):
        tag, path, out = run
        cmd = [args.adacloth, 'simulate', path, '-o', out, '-q', '--threads', '1']
        if args.frames is not None:
            cmd += ['--frames', str(args.frames)]
        if args.no_view:
            cmd.append('--no-view')
        env = dict(os.environ, OMP_NUM_THREADS='1')
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        return tag, done.returncode, done.stderr.strip().splitlines()[-1:] if done.stderr else []

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(simulate, runs))

    cols = ['frames', 'faces', 'past_1_3', 'worst_p99', 'largest', 'face_worst_p99', 'face_frames_1_12', 'pair_frames',
            'unresolved', 'ms']
    if args.slivers:
        cols += ['thin', 'short']
    print('| run | exit | ' + ' | '.join(cols) + ' |')
    print('|---|---:|' + '---:|' * len(cols))
    summaries = []
    for (tag, _, out), (_, code, err) in zip(runs, results):
        if not os.path.exists(os.path.join(out, 'stats.jsonl')):
            print(f"| {tag} | {code} | no stats.jsonl: {' '.join(err)} |")
            continue
        s = summarize(out, args.slivers)
        summaries.append(s)
        print(f"| {tag} | {code} | " + ' | '.join(f"{s[c]:.3f}" if isinstance(s[c], float) else str(s[c])
                                                 for c in cols) + ' |')
    if summaries:
        mean = {c: statistics.mean(s[c] for s in summaries) for c in cols}
        print(f"| mean of {len(summaries)} | | " + ' | '.join(f"{mean[c]:.3f}" for c in cols) + ' |')


if __name__ == '__main__':
    main()
