"""File formats of the patch-wise MLP upsampler, shared by tools/train_patch_mlp.py and tools/patch_mlp_crosscheck.py.

The layouts are documented (and read/written on the C++ side) in src/upsample/patch_dataset.h (the training samples
of `adacloth upsample mlp-data`) and src/upsample/patch_mlp.h (the model file adacloth loads). Everything is
little-endian without padding. Only the standard library and numpy are needed here (no torch), so the formats can be
inspected on any machine.
"""
import os
import struct
import tempfile

import numpy as np

DATASET_MAGIC = b"ADCPMLPD"
DATASET_VERSION = 2
MODEL_MAGIC = b"ADCPMLP1"
MODEL_VERSION = 2
PATCH_INPUTS = 119  # 12 stencil points x 3 frames x 3 coordinates + 11 rest-shape values (patch_stencil.h)


class FormatError(Exception):
    """A file that is not what it claims to be; the message names the file."""


def patch_node_count(levels):
    """Fine nodes in one coarse face after `levels` midpoint subdivisions: (2^L + 1)(2^L + 2) / 2."""
    n = 1 << levels
    return (n + 1) * (n + 2) // 2


def fnv1a64(data):
    """64-bit FNV-1a of `data` (bytes), as adacloth's fnv1a64 (src/io/binary_stream.h)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def mesh_pair_levels(mesh_bytes):
    """The subdivision level count: the first u32 of a writeMeshPair block."""
    return struct.unpack_from("<I", mesh_bytes, 0)[0]


def mesh_pair_bytes(levels, uv, vert_node, x, faces):
    """A writeMeshPair block: u32 levels, u64 V, per vert f64 u[2] + i32 node, u64 N, per node f64 x[3], u64 F,
    per face i32[3] verts. uv: V x 2 material coordinates (m), x: N x 3 rest positions (m), faces: verts,
    counter-clockwise in material space."""
    out = bytearray(struct.pack("<IQ", levels, len(uv)))
    for (u0, u1), node in zip(uv, vert_node):
        out += struct.pack("<ddi", u0, u1, node)
    out += struct.pack("<Q", len(x))
    for p in x:
        out += struct.pack("<ddd", *p)
    out += struct.pack("<Q", len(faces))
    for f in faces:
        out += struct.pack("<iii", *f)
    return bytes(out)


class Dataset:
    """The samples of one dataset file: inputs (n x 119) and targets (n x 3P) as float32 arrays (m)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        self.path = path
        if data[:8] != DATASET_MAGIC:
            raise FormatError(f"{path}: bad magic (expected a patch-MLP dataset of 'adacloth upsample mlp-data')")
        pos = 8

        def take(fmt):
            nonlocal pos
            size = struct.calcsize(fmt)
            if pos + size > len(data):
                raise FormatError(f"{path}: truncated at byte {pos}")
            values = struct.unpack_from(fmt, data, pos)
            pos += size
            return values

        (version,) = take("<I")
        if version != DATASET_VERSION:
            raise FormatError(f"{path}: unsupported dataset version {version} (this tool reads {DATASET_VERSION})")
        (mesh_size,) = take("<Q")
        if pos + mesh_size > len(data):
            raise FormatError(f"{path}: truncated in the mesh pair")
        self.mesh_bytes = data[pos:pos + mesh_size]
        pos += mesh_size
        self.levels = mesh_pair_levels(self.mesh_bytes)
        self.inputs_per_sample, self.outputs_per_sample, self.faces, sequences = take("<IIII")
        self.frames = list(take(f"<{sequences}Q")) if sequences else []
        if self.inputs_per_sample != PATCH_INPUTS or self.outputs_per_sample != 3 * patch_node_count(self.levels):
            raise FormatError(f"{path}: {self.inputs_per_sample} inputs and {self.outputs_per_sample} outputs per "
                              f"sample do not fit patches of levels {self.levels}")
        n = self.faces * sum(self.frames)
        expected = pos + 4 * n * (self.inputs_per_sample + self.outputs_per_sample)
        if len(data) != expected:
            raise FormatError(f"{path}: {len(data)} bytes, expected {expected} for {n} samples (truncated?)")
        self.inputs = np.frombuffer(data, dtype="<f4", count=n * self.inputs_per_sample, offset=pos).reshape(
            n, self.inputs_per_sample)
        pos += 4 * n * self.inputs_per_sample
        self.targets = np.frombuffer(data, dtype="<f4", count=n * self.outputs_per_sample, offset=pos).reshape(
            n, self.outputs_per_sample)
        if not (np.isfinite(self.inputs).all() and np.isfinite(self.targets).all()):
            raise FormatError(f"{path}: non-finite samples")

    def __len__(self):
        return self.inputs.shape[0]


def model_bytes(mesh_bytes, layers, input_mean, input_std, output_mean, output_std):
    """The model file's bytes. layers: [(W, b)] with W (outputs x inputs) and b as float32 arrays, ReLU after every
    layer but the last (as torch.nn.Linear's weight and bias)."""
    widths = [layers[0][0].shape[1]] + [w.shape[0] for w, _ in layers]
    out = bytearray(MODEL_MAGIC)
    out += struct.pack("<IQ", MODEL_VERSION, len(mesh_bytes))
    out += mesh_bytes
    out += struct.pack(f"<I{len(widths)}I", len(layers), *widths)
    for w, b in layers:
        out += np.ascontiguousarray(w, dtype="<f4").tobytes()
        out += np.ascontiguousarray(b, dtype="<f4").tobytes()
    for v in (input_mean, input_std, output_mean, output_std):
        out += np.ascontiguousarray(v, dtype="<f4").tobytes()
    out += struct.pack("<Q", fnv1a64(bytes(out)))
    return bytes(out)


def write_atomically(path, data):
    """Writes under a temporary name in the same folder and renames into place (as adacloth's atomic files)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=os.path.basename(path))
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temp, 0o666 & ~umask)  # mkstemp's 0600 would make a committed or shared file private
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
