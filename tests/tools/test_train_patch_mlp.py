#!/usr/bin/python3
"""Tests of tools/train_patch_mlp.py (ctest `tools: train_patch_mlp ...`, labels unit and mlp).

1. The distance loss is the mean distance between predicted and simulated fine nodes, in units of the mean output
   standard deviation, from standardized residuals (checked against a hand computation).
2. Trained end to end on a small synthetic dataset (two triangles, one subdivision level), every --loss writes a
   model file (its magic checked), and the distance loss lowers the validation mean node distance.
3. On targets with a few gross outliers (frames with glitches, as in tracked runs), the distance loss predicts the
   clean samples better than the squared error, which the outliers pull (the reason it is the default).

Exit status 77 (ctest: skipped) when PyTorch or numpy cannot be imported.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
sys.path.insert(0, TOOLS)
try:
    import numpy as np
    import torch
except ImportError:
    sys.exit(77)
import patch_mlp_io  # noqa: E402
import train_patch_mlp  # noqa: E402


def check_distance_loss():
    out_std = torch.tensor([2.0, 2.0, 2.0, 4.0, 4.0, 4.0])
    residual = torch.tensor([[1.5, 0.0, 2.0, 0.0, 0.0, 0.0],     # node distances 5 and 0 (m, after * std)
                             [0.0, 0.0, 0.0, 0.75, 0.0, 1.0]])  # 0 and 5
    expected = (5.0 + 0.0 + 0.0 + 5.0) / 4 / 3.0  # mean distance / mean std
    got = float(train_patch_mlp.node_distance_loss(residual, out_std))
    assert abs(got - expected) < 1e-6, f"distance loss {got}, expected {expected}"


def write_dataset(path, inputs, targets):
    uv = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    mesh = patch_mlp_io.mesh_pair_bytes(1, uv, [0, 1, 2, 3], [(u, v, 0.0) for u, v in uv], [(0, 1, 2), (0, 2, 3)])
    faces, n = 2, inputs.shape[0]
    out = bytearray(patch_mlp_io.DATASET_MAGIC)
    out += struct.pack("<IQ", patch_mlp_io.DATASET_VERSION, len(mesh)) + mesh
    out += struct.pack("<IIIIQ", inputs.shape[1], targets.shape[1], faces, 1, n // faces)
    out += inputs.astype("<f4").tobytes() + targets.astype("<f4").tobytes()
    with open(path, "wb") as f:
        f.write(out)


def synthetic(rng, n, outliers):
    """Inputs and targets (a smooth function of the inputs, mm-sized), a share `outliers` of the samples 20x off."""
    x = rng.standard_normal((n, patch_mlp_io.PATCH_INPUTS)).astype(np.float32)
    w = rng.standard_normal((patch_mlp_io.PATCH_INPUTS, 18)).astype(np.float32) * 0.2
    y = 1e-3 * np.tanh(x @ w)
    bad = rng.random(n) < outliers
    y[bad] += 2e-2 * rng.standard_normal((int(bad.sum()), 18)).astype(np.float32)
    return x, y.astype(np.float32)


def train(folder, data, loss, validate=None, epochs=30):
    model = os.path.join(folder, f"{loss}.bin")
    cmd = [sys.executable, os.path.join(TOOLS, "train_patch_mlp.py"), data, "-o", model, "--hidden", "32",
           "--epochs", str(epochs), "--batch-size", "64", "--loss", loss, "--threads", "1"]
    if validate:
        cmd += ["--validate", validate]
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open(model, "rb") as f:
        assert f.read(8) == patch_mlp_io.MODEL_MAGIC, f"{model}: not a model file"
    return run.stdout


def validation_means(stdout):
    """The validation 'mean ... mm' figure of every epoch line, in order."""
    return [float(m) for m in re.findall(r"mean ([0-9.]+) mm", stdout)]


def main():
    check_distance_loss()
    rng = np.random.default_rng(3)
    with tempfile.TemporaryDirectory() as folder:
        x, y = synthetic(rng, 2048, 0.0)
        clean = os.path.join(folder, "clean.mlpdata")
        write_dataset(clean, x, y)
        for loss in ("distance", "physical", "standardized"):
            out = train(folder, clean, loss, validate=clean, epochs=3)
            means = validation_means(out)
            assert len(means) >= 2, out
            if loss == "distance":
                assert means[-1] < means[0], f"distance loss did not lower the node distance: {means}"
        # 5 % of the training samples gross outliers; validation on clean samples of the same function.
        rng = np.random.default_rng(4)
        xs, ys = synthetic(rng, 4096, 0.05)
        rng = np.random.default_rng(4)
        xv, yv = synthetic(rng, 4096, 0.0)
        noisy, valid = os.path.join(folder, "noisy.mlpdata"), os.path.join(folder, "valid.mlpdata")
        write_dataset(noisy, xs, ys)
        write_dataset(valid, xv, yv)
        distance = validation_means(train(folder, noisy, "distance", validate=valid))[-1]
        squared = validation_means(train(folder, noisy, "physical", validate=valid))[-1]
        print(f"clean validation samples: distance loss {distance} mm, squared error {squared} mm")
        assert distance < 0.8 * squared, f"on clean samples: distance loss {distance} mm, squared error {squared} mm"
    print("train_patch_mlp: distance loss checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
