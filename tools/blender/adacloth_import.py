"""Imports an adacloth output folder into Blender (tools/blender/README.md).

Each cloth becomes one object whose mesh is swapped on frame change (the adaptive mesh changes topology every frame),
a cloth's fixed-topology output (`<cloth>_out_<frame>.obj`) one object with a point cache (.pc2 + Mesh Cache
modifier), each obstacle one object (swapped like a cloth when it moves), and the shot's camera path an animated
camera. adacloth is y-up, Blender z-up: every point (x, y, z) becomes (x, -z, y), baked into the mesh data.

Use it as an add-on (File > Import > adacloth output folder) or from a script:

    import adacloth_import
    adacloth_import.import_output("/path/to/OUT")
"""

import json
import math
import os
import re
import struct
import sys
from array import array
from collections import OrderedDict

import bpy
from bpy.app.handlers import persistent
from mathutils import Matrix, Vector

bl_info = {
    "name": "adacloth output",
    "author": "adacloth",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > adacloth output folder",
    "description": "Imports an adacloth output folder: cloth and obstacle mesh sequences, fixed-topology outputs "
                   "as point caches, the shot's camera",
    "category": "Import-Export",
}

# Unused mesh-sequence datablocks kept for scrubbing back (all objects together). Each frame of a fine cloth is a
# few MB, so the sequences are loaded lazily and only this many stay around, whatever the shot's length.
CACHED_MESHES = 16
UV_LAYER = "UVMap"  # Blender's default name, so image textures pick it up without a UV Map node
PROP = "adacloth_"  # custom properties of the objects the handler drives (they survive save and reload)


class OutputError(Exception):
    """A one-line message naming the file and what was expected."""


# ---------------------------------------------------------------------------------------------------------------
# Reading files

def to_blender(x, y, z):
    """adacloth's y-up world to Blender's z-up one: a rotation (det +1), so faces keep their front side."""
    return x, -z, y


class ObjMesh:
    """An OBJ's vertices (Blender axes, flat xyz), texture coordinates (flat uv) and faces as 0-based corners."""

    def __init__(self):
        self.positions = array("f")
        self.uvs = array("f")
        self.corner_v = array("i")
        self.corner_vt = array("i")
        self.face_sizes = array("i")

    @property
    def vertex_count(self):
        return len(self.positions) // 3


def _obj_error(path, number, expected, line):
    return OutputError("%s:%d: expected %s, got %r" % (path, number, expected, line.strip()[:80]))


def _read_numbers(path, number, line, rest, count, what):
    parts = rest.split()
    if len(parts) < count:
        raise _obj_error(path, number, what, line)
    try:
        return [float(p) for p in parts[:count]]
    except ValueError:
        raise _obj_error(path, number, what, line) from None


def _read_face(path, number, line, rest, mesh):
    corners = rest.split()
    if len(corners) < 3:
        raise _obj_error(path, number, "a face of at least 3 corners 'f v/vt ...'", line)
    for corner in corners:
        fields = corner.split("/")
        try:
            v = int(fields[0])
            vt = int(fields[1]) if len(fields) > 1 and fields[1] else 0
        except ValueError:
            raise _obj_error(path, number, "face corners 'v' or 'v/vt' with positive indices", line) from None
        if v < 1 or vt < 0:
            raise _obj_error(path, number, "face corners with positive (1-based) indices", line)
        mesh.corner_v.append(v - 1)
        mesh.corner_vt.append(vt - 1)
    mesh.face_sizes.append(len(corners))


def _check_indices(path, mesh):
    if mesh.corner_v and max(mesh.corner_v) >= mesh.vertex_count:
        raise OutputError("%s: a face uses vertex %d, expected at most %d (the file's 'v' lines)"
                          % (path, max(mesh.corner_v) + 1, mesh.vertex_count))
    with_uv = sum(1 for t in mesh.corner_vt if t >= 0)
    if with_uv not in (0, len(mesh.corner_vt)):
        raise OutputError("%s: expected every face corner as 'v/vt' or none, got both" % path)
    if with_uv == 0:
        mesh.corner_vt = array("i")  # no texture coordinates: no UV layer
    elif max(mesh.corner_vt) >= len(mesh.uvs) // 2:
        raise OutputError("%s: a face uses texture coordinate %d, expected at most %d (the file's 'vt' lines)"
                          % (path, max(mesh.corner_vt) + 1, len(mesh.uvs) // 2))


def read_obj(path, positions_only=False):
    """The v, vt and f lines of an adacloth OBJ, in file order (Blender's OBJ importer would reorder and split
    vertices, and vertex counts must match the files for point caches and checks)."""
    mesh = ObjMesh()
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                tag, _, rest = line.partition(" ")
                if tag == "v":
                    mesh.positions.extend(to_blender(*_read_numbers(path, number, line, rest, 3, "'v x y z'")))
                elif positions_only:
                    continue
                elif tag == "vt":
                    mesh.uvs.extend(_read_numbers(path, number, line, rest, 2, "'vt u v'"))
                elif tag == "f":
                    _read_face(path, number, line, rest, mesh)
    except OSError as e:
        raise OutputError("%s: cannot read (%s)" % (path, e.strerror)) from None
    if mesh.vertex_count == 0:
        raise OutputError("%s: expected 'v' lines, found none" % path)
    if not positions_only:
        if not mesh.face_sizes:
            raise OutputError("%s: expected 'f' lines, found none" % path)
        _check_indices(path, mesh)
    return mesh


def read_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise OutputError("%s: cannot read %s (%s)" % (path, what, e.strerror)) from None
    except ValueError as e:
        raise OutputError("%s: expected %s as JSON (%s)" % (path, what, e)) from None


def read_shot(out_dir):
    path = os.path.join(out_dir, "shot.resolved.json")
    if not os.path.isdir(out_dir):
        raise OutputError("%s: expected an adacloth output folder, found no folder" % out_dir)
    shot = read_json(path, "the resolved shot (written by 'adacloth simulate')")
    if not isinstance(shot, dict) or not isinstance(shot.get("cloths"), list) or "fps" not in shot:
        raise OutputError("%s: expected an object with 'fps' and 'cloths'" % path)
    return shot


def frames_of(folder, prefix):
    """Frame numbers of folder/<prefix><frame:05d>.obj, sorted. The exact pattern keeps a cloth's `_out_` files
    apart from its own ("skirt_" does not match "skirt_out_00001.obj")."""
    pattern = re.compile(re.escape(prefix) + r"(\d{5,})\.obj$")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(int(m.group(1)) for m in map(pattern.match, names) if m)


def frame_file(out_dir, files, frame):
    return os.path.join(out_dir, "%s%05d.obj" % (files, frame))


def file_stamp(path):
    """Modification time and size: a mesh built from an older version of the file is rebuilt (a re-run)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return "%d:%d" % (st.st_mtime_ns, st.st_size)


# ---------------------------------------------------------------------------------------------------------------
# Meshes

def build_mesh(name, obj_mesh):
    """A mesh datablock with the OBJ's vertices in file order, its faces and a UV layer of the `vt` values (metres,
    not normalised: the same texture scale on every panel and cloth)."""
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(obj_mesh.vertex_count)
    mesh.vertices.foreach_set("co", obj_mesh.positions)
    mesh.loops.add(len(obj_mesh.corner_v))
    mesh.loops.foreach_set("vertex_index", obj_mesh.corner_v)
    starts, start = array("i"), 0
    for size in obj_mesh.face_sizes:
        starts.append(start)
        start += size
    mesh.polygons.add(len(obj_mesh.face_sizes))
    mesh.polygons.foreach_set("loop_start", starts)
    mesh.polygons.foreach_set("loop_total", obj_mesh.face_sizes)
    if obj_mesh.corner_vt:
        uv = array("f")
        for t in obj_mesh.corner_vt:
            uv.extend(obj_mesh.uvs[2 * t:2 * t + 2])
        mesh.uv_layers.new(name=UV_LAYER).data.foreach_set("uv", uv)
    mesh.polygons.foreach_set("use_smooth", [True] * len(obj_mesh.face_sizes))
    mesh.update(calc_edges=True)
    return mesh


def _mesh_from_file(path):
    mesh = build_mesh(os.path.splitext(os.path.basename(path))[0], read_obj(path))
    mesh[PROP + "source"] = path
    mesh[PROP + "stamp"] = file_stamp(path)
    return mesh


# ---------------------------------------------------------------------------------------------------------------
# The mesh sequence: a frame-change handler swaps each sequence object's mesh

_cache = OrderedDict()  # OBJ path -> name of the mesh built from it, least recently used first
_warned = set()


def _cached_mesh(path, stamp):
    mesh = bpy.data.meshes.get(_cache.get(path, ""))
    if mesh is None or mesh.get(PROP + "source") != path or mesh.get(PROP + "stamp") != stamp:
        return None
    _cache.move_to_end(path)
    return mesh


def _remember(path, mesh):
    """Caches mesh as the most recent one of path; a stale mesh of that file (built before it changed) that nobody
    uses goes now, as it would never be asked for again."""
    old = bpy.data.meshes.get(_cache.get(path, ""))
    if old is not None and old != mesh and old.users == 0:
        bpy.data.meshes.remove(old)
    _cache[path] = mesh.name
    _cache.move_to_end(path)


def _evict():
    """Removes the least recently used meshes nobody uses beyond CACHED_MESHES (no object needs them; a scrub back
    rebuilds them from the file)."""
    unused = []
    for path, name in list(_cache.items()):
        mesh = bpy.data.meshes.get(name)
        if mesh is None:
            del _cache[path]
        elif mesh.users == 0:
            unused.append((path, mesh))
    for path, mesh in unused[:max(0, len(unused) - CACHED_MESHES)]:
        del _cache[path]
        bpy.data.meshes.remove(mesh)


def _warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        print("adacloth: " + message, file=sys.stderr)


def sequence_frame(obj, scene_frame):
    """The adacloth frame shown at this scene frame: outside the written frames the nearest one holds."""
    frame = scene_frame - obj[PROP + "offset"]
    return min(max(frame, obj[PROP + "first"]), obj[PROP + "last"])


def update_sequence(obj, scene_frame):
    out_dir = bpy.path.abspath(obj[PROP + "out"])
    path = frame_file(out_dir, obj[PROP + "files"], sequence_frame(obj, scene_frame))
    stamp = file_stamp(path)
    if stamp is None:
        _warn_once((obj.name, path), "%s: missing; %s keeps its mesh" % (path, obj.name))
        return
    current = obj.data
    if current.get(PROP + "source") == path and current.get(PROP + "stamp") == stamp:
        return
    mesh = _cached_mesh(path, stamp)
    if mesh is None:
        try:
            mesh = _mesh_from_file(path)
        except OutputError as e:
            _warn_once((obj.name, path), str(e))
            return
    # Materials live on the mesh; carry the current ones over so a material set by hand stays on every frame.
    if list(mesh.materials) != list(current.materials):
        mesh.materials.clear()
        for material in current.materials:
            mesh.materials.append(material)
    obj.data = mesh
    if current.get(PROP + "source"):
        _remember(current[PROP + "source"], current)
    _remember(path, mesh)


def update_scene(scene):
    for obj in scene.objects:
        if obj.get(PROP + "kind") == "sequence" and obj.type == "MESH":
            update_sequence(obj, scene.frame_current)
    _evict()


@persistent
def adacloth_frame_change(scene, *_):
    update_scene(scene)


@persistent
def adacloth_load_post(*_):
    # Mesh names of another file mean nothing here; then show each object's frame (the files may have changed).
    _cache.clear()
    _warned.clear()
    for scene in bpy.data.scenes:
        update_scene(scene)


def _replace_handler(handlers, function):
    # A reloaded module brings new function objects: drop the old ones by name so the handler runs once.
    for h in [h for h in handlers if getattr(h, "__name__", "") == function.__name__]:
        handlers.remove(h)
    handlers.append(function)


def ensure_handlers():
    _replace_handler(bpy.app.handlers.frame_change_pre, adacloth_frame_change)
    _replace_handler(bpy.app.handlers.load_post, adacloth_load_post)


def remove_handlers():
    for handlers in (bpy.app.handlers.frame_change_pre, bpy.app.handlers.load_post):
        for h in [h for h in handlers if getattr(h, "__name__", "") in ("adacloth_frame_change",
                                                                          "adacloth_load_post")]:
            handlers.remove(h)


# ---------------------------------------------------------------------------------------------------------------
# Objects

def _new_object(collection, name, mesh, role, source_name):
    obj = bpy.data.objects.new(name, mesh)
    collection.objects.link(obj)
    obj[PROP + "role"] = role
    obj[PROP + "name"] = source_name
    return obj


def add_sequence_object(collection, name, out_dir, files, frames, offset, role):
    """An object whose mesh the frame handler swaps; what it needs is stored on the object (custom properties), so
    it keeps working after save and reload."""
    path = frame_file(out_dir, files, frames[0])
    obj = _new_object(collection, name, _mesh_from_file(path), role, name)
    obj[PROP + "kind"] = "sequence"
    obj[PROP + "out"] = out_dir
    obj[PROP + "files"] = files
    obj[PROP + "first"] = frames[0]
    obj[PROP + "last"] = frames[-1]
    obj[PROP + "offset"] = offset
    return obj


def write_pc2(path, frames_positions, vertex_count, start_frame):
    """Blender's PC2 point cache: a 32-byte header, then per sample vertex_count xyz float32, little-endian.
    Written to a temporary name and renamed, so an interrupted import never leaves a half-written cache."""
    header = struct.pack("<12siiffi", b"POINTCACHE2\0", 1, vertex_count, float(start_frame), 1.0,
                         len(frames_positions))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        for positions in frames_positions:
            if sys.byteorder != "little":
                positions = array("f", positions)
                positions.byteswap()
            f.write(positions.tobytes())
    os.replace(tmp, path)


def _fixed_topology_positions(out_dir, files, frames, vertex_count):
    positions = []
    for frame in frames:
        path = frame_file(out_dir, files, frame)
        mesh = read_obj(path, positions_only=True)
        if mesh.vertex_count != vertex_count:
            raise OutputError("%s: expected %d vertices like frame %d (a fixed-topology output), got %d"
                              % (path, vertex_count, frames[0], mesh.vertex_count))
        positions.append(mesh.positions)
    return positions


def add_point_cache_object(collection, name, source_name, out_dir, cache_dir, files, frames, offset):
    """A fixed-topology output: one mesh (frame `first`), animated by a Mesh Cache modifier reading a .pc2 of every
    frame, so playback swaps nothing and the mesh can be textured, subdivided or exported like any other."""
    first = frame_file(out_dir, files, frames[0])
    mesh = _mesh_from_file(first)
    positions = _fixed_topology_positions(out_dir, files, frames, len(mesh.vertices))
    os.makedirs(cache_dir, exist_ok=True)
    pc2 = os.path.join(cache_dir, name + ".pc2")
    write_pc2(pc2, positions, len(mesh.vertices), frames[0])
    obj = _new_object(collection, name, mesh, "cloth_out", source_name)
    obj[PROP + "kind"] = "point_cache"
    modifier = obj.modifiers.new("adacloth point cache", "MESH_CACHE")
    modifier.cache_format = "PC2"
    modifier.filepath = pc2
    modifier.play_mode = "SCENE"
    modifier.time_mode = "FRAME"
    # Sample i of the file is shown at scene frame frame_start + i (the modifier clamps beyond the ends, so the
    # first and last frames hold); the points are already in Blender's axes, hence the identity axes.
    modifier.frame_start = frames[0] + offset
    modifier.frame_scale = 1.0
    modifier.interpolation = "LINEAR"
    modifier.forward_axis = "POS_Y"
    modifier.up_axis = "POS_Z"
    return obj


# ---------------------------------------------------------------------------------------------------------------
# Materials: the colours of `adacloth render` (src/render/colors.cpp), front and back of each cloth

CLOTH_PALETTE = [((62, 104, 186), (228, 178, 82)), ((184, 62, 66), (236, 214, 160)), ((58, 146, 98), (226, 162, 196)),
                 ((132, 84, 176), (200, 214, 120)), ((214, 124, 40), (130, 190, 222))]
OBSTACLE_COLOR = (158, 156, 150)


def srgb_to_linear(rgb):
    """Blender's colour properties are scene-linear; the palette is sRGB bytes."""
    def channel(c):
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return tuple(channel(c) for c in rgb) + (1.0,)


def _principled(nodes, color, roughness, location):
    node = nodes.new("ShaderNodeBsdfPrincipled")
    node.inputs["Base Color"].default_value = srgb_to_linear(color)
    node.inputs["Roughness"].default_value = roughness
    node.location = location
    return node


def cloth_material(name, index):
    """Front and back colours as `adacloth render` draws them (so a fold shows which side is up)."""
    front, back = CLOTH_PALETTE[index % len(CLOTH_PALETTE)]
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes, links = material.node_tree.nodes, material.node_tree.links
    nodes.clear()
    output = nodes.new("ShaderNodeOutputMaterial")
    output.location = (400, 0)
    mix = nodes.new("ShaderNodeMixShader")
    mix.location = (200, 0)
    geometry = nodes.new("ShaderNodeNewGeometry")
    geometry.location = (0, 250)
    links.new(geometry.outputs["Backfacing"], mix.inputs["Fac"])
    links.new(_principled(nodes, front, 0.8, (-300, 100)).outputs["BSDF"], mix.inputs[1])
    links.new(_principled(nodes, back, 0.8, (-300, -300)).outputs["BSDF"], mix.inputs[2])
    links.new(mix.outputs["Shader"], output.inputs["Surface"])
    material.diffuse_color = srgb_to_linear(front)  # the viewport's solid mode
    return material


def grey_material(name, color=OBSTACLE_COLOR, roughness=0.6):
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    principled = material.node_tree.nodes.get("Principled BSDF")
    principled.inputs["Base Color"].default_value = srgb_to_linear(color)
    principled.inputs["Roughness"].default_value = roughness
    material.diffuse_color = srgb_to_linear(color)
    return material


def _set_material(obj, material):
    obj.data.materials.clear()
    obj.data.materials.append(material)


# ---------------------------------------------------------------------------------------------------------------
# Camera: the path of docs/camera-format.md, evaluated as src/view/camera_path.cpp does

CAMERA_DEFAULTS = {"up": [0.0, 1.0, 0.0], "fov_y_deg": 40.0, "near": 0.05, "far": 100.0, "cut": False}


def read_camera_path(path):
    data = read_json(path, "a camera path (docs/camera-format.md)")
    keys = data.get("keyframes") if isinstance(data, dict) else None
    if not isinstance(keys, list) or not keys:
        raise OutputError("%s: /keyframes: expected at least one keyframe" % path)
    keyframes = []
    for i, key in enumerate(keys):
        try:
            k = dict(CAMERA_DEFAULTS, **key)
            keyframes.append({"time": float(k["time"]), "eye": Vector(k["eye"]), "target": Vector(k["target"]),
                              "up": Vector(k["up"]), "fov": float(k["fov_y_deg"]), "near": float(k["near"]),
                              "far": float(k["far"]), "cut": bool(k["cut"])})
        except (KeyError, TypeError, ValueError):
            raise OutputError("%s: /keyframes/%d: expected time, eye [x, y, z] and target [x, y, z]"
                              % (path, i)) from None
    return {"width": int(data.get("width", 960)), "height": int(data.get("height", 540)),
            "smooth": data.get("interpolation", "smooth") == "smooth", "keyframes": keyframes}


def _segment(keys, k):
    """First and last keyframe of the segment (between cuts) holding keyframe k."""
    s, e = k, k
    while s > 0 and not keys[s]["cut"]:
        s -= 1
    while e + 1 < len(keys) and not keys[e + 1]["cut"]:
        e += 1
    return s, e


def _tangent(keys, i, s, e, field):
    """Catmull-Rom tangent (per second) on uneven times; zero at a segment's ends, so moves ease in and out."""
    if i in (s, e):
        return Vector((0.0, 0.0, 0.0))
    return (keys[i + 1][field] - keys[i - 1][field]) / (keys[i + 1]["time"] - keys[i - 1]["time"])


def _interpolate(path, k, u):
    keys = path["keyframes"]
    a, b = keys[k], keys[k + 1]
    w = u * u * (3 - 2 * u) if path["smooth"] else u  # scalars ease (C1, never overshooting)
    pose = {"up": (1 - w) * a["up"].normalized() + w * b["up"].normalized()}
    for field in ("fov", "near", "far"):
        pose[field] = (1 - w) * a[field] + w * b[field]
    if not path["smooth"]:
        for field in ("eye", "target"):
            pose[field] = (1 - u) * a[field] + u * b[field]
        return pose
    s, e = _segment(keys, k)
    dt = b["time"] - a["time"]
    h00, h10 = 2 * u ** 3 - 3 * u ** 2 + 1, u ** 3 - 2 * u ** 2 + u
    h01, h11 = -2 * u ** 3 + 3 * u ** 2, u ** 3 - u ** 2
    for field in ("eye", "target"):
        pose[field] = (h00 * a[field] + h10 * dt * _tangent(keys, k, s, e, field) + h01 * b[field]
                       + h11 * dt * _tangent(keys, k + 1, s, e, field))
    return pose


def _basis(eye, target, up):
    """Orthonormal (right, up, forward), or None where up is (nearly) parallel to the view."""
    forward = (target - eye).normalized()
    side = forward.cross(up)
    if not side.length > 1e-3 * up.length:
        return None
    right = side.normalized()
    return right, right.cross(forward), forward


def camera_pose(path, t):
    """eye, (right, up, forward), fov_y_deg, near, far at time t (adacloth axes)."""
    keys = path["keyframes"]
    k = 0
    while k + 1 < len(keys) and keys[k + 1]["time"] <= t:
        k += 1
    if not t > keys[0]["time"] or k + 1 == len(keys) or keys[k + 1]["cut"]:
        pose, nearest = keys[k], keys[k]  # before the first key, after the last, or before a cut: hold
    else:
        u = (t - keys[k]["time"]) / (keys[k + 1]["time"] - keys[k]["time"])
        pose, nearest = _interpolate(path, k, u), keys[k if u < 0.5 else k + 1]
    eye, target = pose["eye"], pose["target"]
    # A degenerate interpolated pose takes the nearer keyframe's orientation rather than failing mid-shot.
    if not (target - eye).length > 1e-9:
        target = eye + (nearest["target"] - nearest["eye"])
    basis = _basis(eye, target, pose["up"])
    if basis is None:
        fallback = _basis(nearest["eye"], nearest["target"], nearest["up"])
        if fallback is None:
            raise OutputError("camera keyframe at %g s: expected an up vector not parallel to the view"
                              % nearest["time"])
        basis = _basis(eye, target, fallback[1])
    return eye, basis, pose["fov"], pose["near"], pose["far"]


def camera_matrix(eye, basis):
    """Blender's camera looks down its local -Z with +Y up."""
    right, up, forward = (Vector(to_blender(*v)) for v in basis)
    m = Matrix.Identity(4)
    for row in range(3):
        m[row][0], m[row][1], m[row][2] = right[row], up[row], -forward[row]
    m.translation = Vector(to_blender(*eye))
    return m


def add_camera(collection, path_file, fps, first, last, offset):
    """A camera keyed at every frame from the path (exact poses at frames; Blender interpolates between them)."""
    path = read_camera_path(path_file)
    data = bpy.data.cameras.new(os.path.splitext(os.path.basename(path_file))[0])
    data.sensor_fit = "VERTICAL"
    obj = bpy.data.objects.new(data.name, data)
    collection.objects.link(obj)
    obj[PROP + "role"] = "camera"
    obj.rotation_mode = "QUATERNION"
    previous = None
    for frame in range(first, last + 1):
        eye, basis, fov, near, far = camera_pose(path, frame / fps)
        m = camera_matrix(eye, basis)
        q = m.to_quaternion()
        if previous is not None and q.dot(previous) < 0:
            q.negate()  # the same rotation; keeps the keys from swinging the long way round
        obj.location, obj.rotation_quaternion, previous = m.translation, q, q
        data.angle_y, data.clip_start, data.clip_end = math.radians(fov), near, far
        for target, field in ((obj, "location"), (obj, "rotation_quaternion"), (data, "lens"),
                              (data, "clip_start"), (data, "clip_end")):
            target.keyframe_insert(field, frame=frame + offset)
    for anim in (obj.animation_data, data.animation_data):
        for curve in anim.action.fcurves:
            for point in curve.keyframe_points:
                point.interpolation = "LINEAR"
    return obj, path


# ---------------------------------------------------------------------------------------------------------------
# The whole folder

def _cloth_objects(shot, out_dir, cache_dir, collection, offset):
    objects, frame_lists = [], []
    for index, cloth in enumerate(shot["cloths"]):
        name = cloth.get("name", "cloth%d" % index)
        frames = frames_of(os.path.join(out_dir, "frames"), name + "_")
        if not frames:
            raise OutputError("%s: expected %s_<frame:05d>.obj files, found none"
                              % (os.path.join(out_dir, "frames"), name))
        material = cloth_material("adacloth " + name, index)
        obj = add_sequence_object(collection, name, out_dir, "frames/%s_" % name, frames, offset, "cloth")
        _set_material(obj, material)
        objects.append(obj)
        frame_lists.append(frames)
        out_frames = frames_of(os.path.join(out_dir, "frames"), name + "_out_")
        if out_frames:
            fixed = add_point_cache_object(collection, name + "_out", name, out_dir, cache_dir,
                                           "frames/%s_out_" % name, out_frames, offset)
            _set_material(fixed, material)
            # The fixed-topology mesh is the one to render; the adaptive one stays visible as a wireframe over it.
            obj.hide_render = True
            obj.display_type = "WIRE"
            objects.append(fixed)
            frame_lists.append(out_frames)
    return objects, frame_lists


def _obstacle_objects(shot, out_dir, collection, offset):
    objects, frame_lists = [], []
    material = None
    for index, obstacle in enumerate(shot.get("obstacles", [])):
        name = obstacle.get("name", "obstacle%d" % index)
        frames = frames_of(os.path.join(out_dir, "obstacles"), name + "_")
        if not frames:
            _warn_once(("obstacle", out_dir, name), "%s: no %s_<frame:05d>.obj; obstacle %s not imported"
                       % (os.path.join(out_dir, "obstacles"), name, name))
            continue
        material = material or grey_material("adacloth obstacle")
        files = "obstacles/%s_" % name
        if len(frames) == 1:  # a static obstacle is written at frame 0 only
            path = frame_file(out_dir, files, frames[0])
            obj = _new_object(collection, name, _mesh_from_file(path), "obstacle", name)
        else:
            obj = add_sequence_object(collection, name, out_dir, files, frames, offset, "obstacle")
            frame_lists.append(frames)
        _set_material(obj, material)
        objects.append(obj)
    return objects, frame_lists


def set_scene_timing(scene, fps, first, last):
    """Blender keeps fps as an integer over a float base: 23.976 -> 24 / 1.001."""
    scene.render.fps = max(1, round(fps))
    scene.render.fps_base = scene.render.fps / fps
    scene.frame_start, scene.frame_end = first, last
    scene.frame_set(first)


def import_output(out_dir, scene=None, obstacles=True, camera=True, set_scene=True, frame_offset=0,
                  cache_dir=None):
    """Imports the output folder out_dir into scene (default: the current one); returns the new collection.

    frame_offset: adacloth frame f is shown at scene frame f + frame_offset. cache_dir: where the .pc2 point
    caches of fixed-topology outputs go (default OUT/blender). set_scene: the scene's fps, frame range (the frames
    written) and, with a camera, its resolution and active camera follow the shot. Raises OutputError."""
    out_dir = os.path.abspath(bpy.path.abspath(out_dir))
    scene = scene or bpy.context.scene
    shot = read_shot(out_dir)
    fps = float(shot["fps"])
    if frame_offset < 0:
        raise OutputError("frame offset %d: expected 0 or more (scene frames start at 0)" % frame_offset)
    collection = bpy.data.collections.new("adacloth " + str(shot.get("name", os.path.basename(out_dir))))
    collection["adacloth_out"] = out_dir
    scene.collection.children.link(collection)
    cache_dir = cache_dir or os.path.join(out_dir, "blender")
    cloths, frame_lists = _cloth_objects(shot, out_dir, cache_dir, collection, frame_offset)
    if obstacles:
        frame_lists += _obstacle_objects(shot, out_dir, collection, frame_offset)[1]
    first = min(f[0] for f in frame_lists)
    last = max(f[-1] for f in frame_lists)
    camera_obj = None
    if camera and shot.get("camera"):
        camera_obj, path = add_camera(collection, shot["camera"], fps, first, last, frame_offset)
        if set_scene:
            scene.camera = camera_obj
            scene.render.resolution_x, scene.render.resolution_y = path["width"], path["height"]
    ensure_handlers()
    if set_scene:
        set_scene_timing(scene, fps, first + frame_offset, last + frame_offset)
    else:
        update_scene(scene)
    return collection


# ---------------------------------------------------------------------------------------------------------------
# The add-on: File > Import > adacloth output folder

class ADACLOTH_OT_import_output(bpy.types.Operator):
    """Import an adacloth output folder (cloth and obstacle sequences, point caches, the camera)"""
    bl_idname = "import_scene.adacloth_output"
    bl_label = "Import adacloth output"
    bl_options = {"REGISTER", "UNDO"}

    directory: bpy.props.StringProperty(name="Output folder", subtype="DIR_PATH")
    obstacles: bpy.props.BoolProperty(name="Obstacles", default=True)
    camera: bpy.props.BoolProperty(name="Camera", description="The shot's camera path, keyed every frame",
                                   default=True)
    set_scene: bpy.props.BoolProperty(name="Set scene", default=True,
                                      description="fps, frame range, resolution and camera from the shot")
    frame_offset: bpy.props.IntProperty(name="Frame offset", min=0, default=0,
                                        description="adacloth frame f shows at scene frame f + offset")

    def invoke(self, context, event):
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        try:
            import_output(self.directory, context.scene, self.obstacles, self.camera, self.set_scene,
                          self.frame_offset)
        except OutputError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        return {"FINISHED"}


def _menu(self, context):
    self.layout.operator(ADACLOTH_OT_import_output.bl_idname, text="adacloth output folder")


def register():
    bpy.utils.register_class(ADACLOTH_OT_import_output)
    bpy.types.TOPBAR_MT_file_import.append(_menu)
    ensure_handlers()


def unregister():
    remove_handlers()
    bpy.types.TOPBAR_MT_file_import.remove(_menu)
    bpy.utils.unregister_class(ADACLOTH_OT_import_output)


if __name__ == "__main__":
    register()
