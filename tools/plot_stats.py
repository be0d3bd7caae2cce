#!/usr/bin/env python3
"""Plots OUT/stats.jsonl of one run, or of two runs side by side, as a PNG.

usage: tools/plot_stats.py OUT [OUT2] [-o FILE]

Top: faces per frame (all cloths summed) and visible faces when the run reports them.
Bottom: wall time per phase (ms) per frame, stacked (every phase of stats.jsonl's wall_ms but total).
With two runs, one column each, same axes, so an adaptive and a reference run compare at a glance.
Writes OUT/stats.png (or FILE). Needs python3-matplotlib or gnuplot (Debian: apt-get install python3-matplotlib,
or apt-get install gnuplot-nox); installs nothing itself.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

PHASES = ["physics", "strain_limit", "collision", "occlusion", "sizing", "remesh", "checks", "io", "upsample", "measure"]


def fail(message, code=2):
    print("plot_stats.py: " + message, file=sys.stderr)
    sys.exit(code)


def read_run(folder):
    path = os.path.join(folder, "stats.jsonl")
    if not os.path.isfile(path):
        fail(path + ": missing (run 'adacloth simulate' with -o " + folder + " first)")
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                s = json.loads(line)
            except ValueError as e:
                fail("%s:%d: malformed JSON (%s)" % (path, number, e))
            cloths = s.get("cloths", [])
            visible = [c["visible_faces"] for c in cloths if "visible_faces" in c]
            rows.append({
                "frame": s.get("frame", len(rows)),
                "faces": sum(c.get("faces", 0) for c in cloths),
                "visible": sum(visible) if visible else None,
                "ms": [s.get("wall_ms", {}).get(p, 0.0) for p in PHASES],
            })
    if not rows:
        fail(path + ": no frames")
    return rows


def plot_matplotlib(runs, names, output):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(runs), figsize=(6.5 * len(runs), 7), sharex="col", sharey="row", squeeze=False)
    for col, (rows, name) in enumerate(zip(runs, names)):
        frames = [r["frame"] for r in rows]
        top, bottom = axes[0][col], axes[1][col]
        top.plot(frames, [r["faces"] for r in rows], label="faces")
        if any(r["visible"] is not None for r in rows):
            top.plot(frames, [r["visible"] if r["visible"] is not None else float("nan") for r in rows],
                     label="visible faces")
        top.set_title(name)
        top.set_ylabel("faces")
        top.set_ylim(bottom=0)
        top.legend(loc="best")
        top.grid(alpha=0.3)
        bottom.stackplot(frames, *[[r["ms"][i] for r in rows] for i in range(len(PHASES))], labels=PHASES)
        bottom.set_xlabel("frame")
        bottom.set_ylabel("wall time per frame (ms)")
        bottom.legend(loc="upper left", fontsize="small")
        bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(output, dpi=100)


def plot_gnuplot(runs, names, output):
    tmp = tempfile.mkdtemp(prefix="adacloth_plot_")
    try:
        data = []
        for i, rows in enumerate(runs):
            path = os.path.join(tmp, "run%d.dat" % i)
            with open(path, "w") as f:
                for r in rows:
                    visible = r["visible"] if r["visible"] is not None else "NaN"
                    cumulative, total = [], 0.0
                    for ms in r["ms"]:
                        total += ms
                        cumulative.append(total)
                    f.write("%d %d %s %s\n" % (r["frame"], r["faces"], visible, " ".join("%g" % c for c in cumulative)))
            data.append(path)
        script = ['set terminal pngcairo size %d,700' % (650 * len(runs)), "set output '%s'" % output,
                  "set multiplot layout 2,%d" % len(runs), "set grid", "set key top left"]
        for i, path in enumerate(data):  # top row: faces
            script += ["set title '%s'" % names[i], "set ylabel 'faces'", "unset xlabel", "set yrange [0:*]",
                       "plot '%s' using 1:2 with lines title 'faces', '' using 1:3 with lines title 'visible faces'" % path]
        for i, path in enumerate(data):  # bottom row: stacked phases (cumulative columns, drawn top first)
            curves = ["'%s' using 1:%d with filledcurves x1 title '%s'" % (path, 4 + k, PHASES[k])
                      for k in reversed(range(len(PHASES)))]
            script += ["unset title", "set xlabel 'frame'", "set ylabel 'wall time per frame (ms)'",
                       "set key top right opaque",
                       "plot " + ", ".join(curves)]
        script.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(script), text=True, check=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    args, output = [], None
    i = 0
    while i < len(argv):
        if argv[i] in ("-o", "--output"):
            if i + 1 >= len(argv):
                fail("-o needs a file name")
            output, i = argv[i + 1], i + 2
        elif argv[i] in ("-h", "--help"):
            print(__doc__)
            return 0
        elif argv[i].startswith("-"):
            fail("unknown option '%s' (see --help)" % argv[i])
        else:
            args.append(argv[i])
            i += 1
    if not 1 <= len(args) <= 2:
        fail("expected one or two output folders (see --help)")
    runs = [read_run(a) for a in args]
    names = [os.path.basename(os.path.normpath(a)) for a in args]
    output = output or os.path.join(args[0], "stats.png")
    partial = output + ".tmp.png"  # written, then renamed: never a half-written plot under the final name
    try:
        import matplotlib  # noqa: F401
        plot_matplotlib(runs, names, partial)
    except ImportError:
        if shutil.which("gnuplot") is None:
            fail("neither python3-matplotlib nor gnuplot is installed; install one of them with: "
                 "sudo apt-get install python3-matplotlib   (or: sudo apt-get install gnuplot-nox)")
        plot_gnuplot(runs, names, partial)
    os.replace(partial, output)
    print(output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
