#!/usr/bin/python3
"""Trains the patch-wise MLP upsampler (seed 004 §3.3; src/upsample/patch_mlp.h) and writes the model file adacloth
loads.

usage: /usr/bin/python3 tools/train_patch_mlp.py DATASET.bin [DATASET.bin ...] -o MODEL.bin [--validate DATASET.bin]
           [--epochs E] [--batch-size B] [--lr LR] [--lr-final LR] [--hidden W] [--hidden-layers H]
           [--loss distance|physical|standardized] [--seed S] [--threads T] [--quiet]

The datasets come from `adacloth upsample mlp-data DIR... -o DATASET.bin` (one sample per coarse face and frame: 119
inputs, the face's 12-point two-ring stencil over 3 frames in its local frame and its rest shape, and 3 x P targets,
the displacements of its P fine nodes from barycentric subdivision, m). All must share one coarse mesh. The network is
fully connected, 119 -> W (ReLU) -> ... -> W (ReLU) -> 3P with H hidden layers (seed 004: four layers, H = 3, W = 64),
fitted with Adam on standardized inputs and outputs (mean and standard deviation per input and per output over the
training samples; both go into the model file, and adacloth applies them). The default loss is the mean distance
(m) between predicted and simulated fine nodes, the error that `upsample eval` reports; --loss physical fits the
mean squared error instead, which lets the frames with the largest residuals pull the fit (2.3 % worse on the skirt
benchmark's validation walk, docs/upsampling.md).
The learning rate decays exponentially from --lr to --lr-final over the epochs. With --validate, the error on those
samples is printed each epoch; it is never used to pick or stop the model (it is the held-out figure).

Per epoch it prints the training and validation root mean square error of a displacement coordinate (mm) and the
validation mean per-node error |predicted - simulated| (mm; over the face-node pairs of the samples, a node shared
by several faces counted once per face) next to barycentric's (the targets' mean length). `adacloth upsample
mlp-eval` gives the exact per-vertex figure of the written model (shared nodes averaged, as adacloth applies it).

Deterministic for a given seed, data and thread count. Needs PyTorch: Debian's python3-torch for /usr/bin/python3.
"""
import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import patch_mlp_io  # noqa: E402

try:
    import torch
except ImportError:
    sys.exit("train_patch_mlp.py: PyTorch is missing (install python3-torch and run with /usr/bin/python3)")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Option defaults in --help, and the module text as written."""


def parse_args(argv):
    paragraphs = __doc__.split("\n\n")
    p = argparse.ArgumentParser(prog="train_patch_mlp.py",
                                description="\n\n".join(paragraphs[:1] + paragraphs[2:]).strip(),
                                formatter_class=HelpFormatter)
    p.add_argument("datasets", nargs="+", metavar="DATASET.bin",
                   help="training samples from 'adacloth upsample mlp-data' (several: concatenated)")
    p.add_argument("-o", "--out", required=True, metavar="MODEL.bin",
                   help="model file to write (self-contained: mesh pair, weights, normalization)")
    p.add_argument("--validate", action="append", default=[], metavar="DATASET.bin",
                   help="held-out samples (e.g. a walk not trained on) whose error is printed per epoch; repeatable")
    p.add_argument("--epochs", type=int, default=300, help="passes over the training samples")
    p.add_argument("--batch-size", type=int, default=1024, help="samples per Adam step")
    p.add_argument("--lr", type=float, default=1e-3, help="initial Adam learning rate")
    p.add_argument("--lr-final", type=float, default=2e-5,
                   help="learning rate of the last epoch (exponential decay from --lr)")
    p.add_argument("--weight-decay", type=float, default=0.0, help="Adam's L2 penalty on the weights")
    p.add_argument("--hidden", type=int, default=64, metavar="W", help="width of every hidden layer")
    p.add_argument("--hidden-layers", type=int, default=3, metavar="H",
                   help="hidden layers (the network has H + 1 fully connected layers)")
    p.add_argument("--loss", choices=["distance", "physical", "standardized"], default="distance",
                   help="distance: mean distance between predicted and simulated fine nodes in m (the per-vertex "
                        "error that 'upsample eval' reports); physical: squared error of the displacements in m; "
                        "standardized: of the standardized outputs (every output weighted by 1 / its variance)")
    p.add_argument("--seed", type=int, default=0, help="seed of the initial weights and the batch order")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (results depend on it)")
    p.add_argument("--quiet", action="store_true", help="print only the summary, not every epoch")
    args = p.parse_args(argv)
    if args.epochs < 1 or args.batch_size < 1 or args.hidden < 1 or args.hidden_layers < 0 or args.threads < 1:
        p.error("--epochs, --batch-size, --hidden and --threads must be >= 1, --hidden-layers >= 0")
    if not (args.lr > 0 and args.lr_final > 0):
        p.error("--lr and --lr-final must be > 0")
    return args


def load(paths, mesh_bytes=None):
    """Concatenated samples of the dataset files, which must share one mesh pair (that of `mesh_bytes` if given)."""
    sets = [patch_mlp_io.Dataset(p) for p in paths]
    mesh_bytes = mesh_bytes if mesh_bytes is not None else sets[0].mesh_bytes
    for s in sets:
        if s.mesh_bytes != mesh_bytes:
            sys.exit(f"train_patch_mlp.py: {s.path}: its mesh pair differs from that of {paths[0]} "
                     "(train and validate on one coarse mesh)")
    inputs = np.concatenate([s.inputs for s in sets])
    targets = np.concatenate([s.targets for s in sets])
    return mesh_bytes, inputs, targets


def normalization(values):
    """Per-column mean and standard deviation (float64 sums, stored as float32). A column that is constant up to
    round-off (e.g. the normal coordinate of the corners at frame t, 0 by construction) keeps std 1: dividing its
    round-off by a tiny std would only amplify noise."""
    mean = values.mean(axis=0, dtype=np.float64)
    std = values.std(axis=0, dtype=np.float64)
    std[(std <= 1e-6 * std.max()) | (std == 0)] = 1.0
    return mean.astype(np.float32), std.astype(np.float32)


def make_network(widths):
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def standardized(values, mean, std):
    """(values - mean) / std in float32, the same operations as adacloth's PatchMlp::standardize."""
    return (torch.from_numpy(np.ascontiguousarray(values)) - torch.from_numpy(mean)) / torch.from_numpy(std)


def node_distance_loss(residual, out_std):
    """Mean distance (in units of the mean output std, so the loss is of the order of 1) between predicted and
    simulated fine nodes, from standardized residuals (samples x 3P). The 1e-12 keeps the gradient finite where a
    node is predicted exactly."""
    metres = (residual * out_std).reshape(residual.shape[0], -1, 3)
    return torch.sqrt((metres ** 2).sum(dim=2) + 1e-12).mean() / float(out_std.mean())


def evaluate(net, x, y, out_std, out_mean, batch=65536):
    """Root mean square error of a coordinate (m), mean |error| and mean |target| per face-node (m)."""
    squared = absolute = reference = 0.0
    with torch.no_grad():
        for i in range(0, x.shape[0], batch):
            pred = net(x[i:i + batch]) * out_std + out_mean
            target = y[i:i + batch] * out_std + out_mean
            err = (pred - target).double()
            squared += float((err ** 2).sum())
            absolute += float(err.reshape(err.shape[0], -1, 3).norm(dim=2).sum())
            reference += float(target.double().reshape(target.shape[0], -1, 3).norm(dim=2).sum())
    nodes = x.shape[0] * y.shape[1] / 3
    return math.sqrt(squared / (x.shape[0] * y.shape[1])), absolute / nodes, reference / nodes


def main(argv):
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    mesh_bytes, inputs, targets = load(args.datasets)
    if inputs.shape[0] == 0:
        sys.exit("train_patch_mlp.py: the training datasets hold no samples")
    levels = patch_mlp_io.mesh_pair_levels(mesh_bytes)
    in_mean, in_std = normalization(inputs)
    out_mean, out_std = normalization(targets)
    x, y = standardized(inputs, in_mean, in_std), standardized(targets, out_mean, out_std)
    ts, tm = torch.from_numpy(out_std), torch.from_numpy(out_mean)
    ts2 = ts ** 2
    weight = ts2 if args.loss == "physical" else torch.ones_like(ts)
    weight = weight / weight.mean()  # a loss of the order of 1 either way
    validation = None
    if args.validate:
        _, vin, vout = load(args.validate, mesh_bytes)
        validation = (standardized(vin, in_mean, in_std), standardized(vout, out_mean, out_std))
    widths = [inputs.shape[1]] + [args.hidden] * args.hidden_layers + [targets.shape[1]]
    net = make_network(widths)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    gamma = (args.lr_final / args.lr) ** (1.0 / max(1, args.epochs - 1))
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma)
    generator = torch.Generator().manual_seed(args.seed)
    n = x.shape[0]
    print(f"{n} training samples ({len(args.datasets)} file(s)), "
          f"{validation[0].shape[0] if validation else 0} validation samples; levels {levels}, "
          f"network {' -> '.join(map(str, widths))} ({sum(p.numel() for p in net.parameters())} parameters), "
          f"{math.ceil(n / args.batch_size)} steps per epoch, {args.threads} thread(s)", flush=True)
    start = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(n, generator=generator)
        total = 0.0
        for i in range(0, n, args.batch_size):
            batch = order[i:i + args.batch_size]
            optimizer.zero_grad(set_to_none=True)
            residual = net(x[batch]) - y[batch]
            squared = residual ** 2
            loss = node_distance_loss(residual, ts) if args.loss == "distance" else (squared * weight).mean()
            loss.backward()
            optimizer.step()
            total += float((squared.detach() * ts2).sum())  # m^2, over the epoch's changing weights
        lr = schedule.get_last_lr()[0]
        schedule.step()
        last = epoch + 1 == args.epochs
        if args.quiet and not last:
            continue
        train_rms = math.sqrt(total / (n * y.shape[1]))
        line = f"epoch {epoch + 1:4d}  lr {lr:.2e}  train rms {1e3 * train_rms:.4f} mm"
        if validation is not None and (last or not args.quiet):
            rms, mean, bary = evaluate(net, validation[0], validation[1], ts, tm)
            line += f"  validation rms {1e3 * rms:.4f} mm, mean {1e3 * mean:.4f} mm (barycentric {1e3 * bary:.4f})"
        print(f"{line}  [{time.time() - start:.0f} s]", flush=True)
    net.eval()
    rms, mean, bary = evaluate(net, x, y, ts, tm)
    print(f"training: rms {1e3 * rms:.4f} mm, mean per face-node {1e3 * mean:.4f} mm (barycentric {1e3 * bary:.4f})")
    linears = [m for m in net if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy(), m.bias.detach().numpy()) for m in linears]
    patch_mlp_io.write_atomically(args.out, patch_mlp_io.model_bytes(mesh_bytes, layers, in_mean, in_std, out_mean,
                                                                     out_std))
    print(f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
