#!/usr/bin/python3
"""Cross-check of adacloth's patch-MLP inference (src/upsample/patch_mlp.h) against PyTorch on the same inputs.

usage: /usr/bin/python3 tools/patch_mlp_crosscheck.py --out DIR [--seed S] [--samples N]
       /usr/bin/python3 tools/patch_mlp_crosscheck.py --check ADACLOTH_TESTS [--seed S] [--samples N]

Builds a model with random weights and normalization over a small mesh pair (two triangles, one subdivision level:
119 -> 64 -> 64 -> 64 -> 18), writes it as DIR/model.bin exactly as tools/train_patch_mlp.py writes models, runs random
inputs through the PyTorch network and writes DIR/cases.bin:
  magic[8] "ADCPMLPX", u32 version (1), u32 n (cases), u32 I (119), u32 O (18),
  f32 inputs[n][I] (unstandardized), f32 network outputs[n][O] (standardized), f32 displacements[n][O] (m),
all float32 on the CPU, little-endian. The Catch2 test "patch MLP inference matches PyTorch" loads both and compares
at 1e-5 relative; it reads tests/data/upsample/patch_mlp/ (written by --out with the default seed and samples, and
committed) unless ADACLOTH_PATCH_MLP_CROSSCHECK names another folder.

--check runs the comparison live (ctest `patch-mlp crosscheck: live`, labels unit and mlp): a model of another
seed than the committed one (default 5), written by the current Python code and PyTorch into a temporary folder,
then ADACLOTH_TESTS (the adacloth_tests program) on that test only. Exit status: the test's (0 when it passed), 77
when PyTorch or numpy cannot be imported (ctest reports the test as skipped, never as passed), 2 on bad arguments.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
patch_mlp_io = None  # imported by main() once numpy and torch are known to be there

SKIP = 77
CASES_MAGIC = b"ADCPMLPX"
CASES_VERSION = 1
TEST_NAME = "patch MLP inference matches PyTorch"


def parse_args(argv):
    paragraphs = __doc__.split("\n\n")
    p = argparse.ArgumentParser(prog="patch_mlp_crosscheck.py",
                                description="\n\n".join(paragraphs[:1] + paragraphs[2:]).strip(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--out", metavar="DIR", help="write model.bin and cases.bin into DIR (created if needed)")
    mode.add_argument("--check", metavar="ADACLOTH_TESTS",
                      help="write them to a temporary folder and run this adacloth_tests program on them")
    p.add_argument("--seed", type=int, help="seed of the weights, normalization and inputs (default: 4 with --out, "
                                            "as the committed cases, 5 with --check)")
    p.add_argument("--samples", type=int, default=48, help="input vectors (patches) to run (default 48)")
    args = p.parse_args(argv)
    if args.samples < 1:
        p.error("--samples must be >= 1")
    if args.seed is None:
        args.seed = 4 if args.out else 5
    return args


def two_triangles():
    """A unit square in the XY plane split along its diagonal, one subdivision level (6 fine nodes per face)."""
    uv = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    return patch_mlp_io.mesh_pair_bytes(1, uv, [0, 1, 2, 3], [(u, v, 0.0) for u, v in uv], [(0, 1, 2), (0, 2, 3)])


def write_cases(torch, folder, seed, samples):
    import numpy as np

    torch.manual_seed(seed)
    levels = 1
    widths = [patch_mlp_io.PATCH_INPUTS, 64, 64, 64, 3 * patch_mlp_io.patch_node_count(levels)]
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*layers)
    with torch.no_grad():  # biases of the size weights get after training, so that every term matters
        for m in net:
            if isinstance(m, torch.nn.Linear):
                m.bias.uniform_(-0.5, 0.5)
    # Positions of the order of the cloth's (m), spreads of cm; displacements of mm.
    in_mean = (torch.randn(widths[0]) * 0.1).float()
    in_std = (torch.rand(widths[0]) * 0.05 + 0.005).float()
    out_mean = (torch.randn(widths[-1]) * 1e-3).float()
    out_std = (torch.rand(widths[-1]) * 4e-3 + 5e-4).float()
    inputs = (in_mean + in_std * torch.randn(samples, widths[0]) * 1.5).float()
    with torch.no_grad():
        network = net((inputs - in_mean) / in_std)
        displacements = network * out_std + out_mean
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    model = patch_mlp_io.model_bytes(two_triangles(), [(m.weight.detach().numpy(), m.bias.detach().numpy())
                                                       for m in linears],
                                     in_mean.numpy(), in_std.numpy(), out_mean.numpy(), out_std.numpy())
    os.makedirs(folder, exist_ok=True)
    patch_mlp_io.write_atomically(os.path.join(folder, "model.bin"), model)
    cases = bytearray(CASES_MAGIC)
    cases += struct.pack("<IIII", CASES_VERSION, samples, widths[0], widths[-1])
    for t in (inputs, network, displacements):
        cases += np.ascontiguousarray(t.numpy(), dtype="<f4").tobytes()
    patch_mlp_io.write_atomically(os.path.join(folder, "cases.bin"), bytes(cases))


def main(argv):
    args = parse_args(argv)
    global patch_mlp_io
    try:
        import numpy  # noqa: F401
        import torch
    except ImportError as e:
        print(f"patch_mlp_crosscheck.py: skipped: PyTorch or numpy cannot be imported by {sys.executable} ({e})")
        return SKIP
    import patch_mlp_io
    torch.set_num_threads(1)
    if args.out:
        write_cases(torch, args.out, args.seed, args.samples)
        print(f"torch {torch.__version__}: {args.samples} cases -> {args.out}/model.bin, {args.out}/cases.bin")
        return 0
    with tempfile.TemporaryDirectory(prefix="adacloth-mlp-crosscheck-") as folder:
        write_cases(torch, folder, args.seed, args.samples)
        env = dict(os.environ, ADACLOTH_PATCH_MLP_CROSSCHECK=folder)
        # --warn NoTests: a renamed test (nothing matched) fails instead of passing (Catch2 v2 takes one --warn).
        command = [args.check, TEST_NAME, "--warn", "NoTests"]
        print(f"torch {torch.__version__}: {args.samples} cases in {folder}; running {' '.join(command)}", flush=True)
        return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
