"""Checks what tools/blender/adacloth_import.py makes of an adacloth output folder against the OBJ files themselves.

    blender -b --factory-startup --python-exit-code 1 --python tools/blender/check_import.py -- OUT [--save X.blend]
    blender -b --factory-startup --addons adacloth_import X.blend --python-exit-code 1 \\
        --python tools/blender/check_import.py -- OUT --reopened

The first imports OUT (and saves the scene to X.blend); the second opens that file in a new Blender, where only the
add-on (enabled at startup) and the objects' custom properties can bring the sequences back. Both then set every
written frame (and one past the last, which must hold it) and compare, for each cloth, fixed-topology output and
obstacle: vertex and face counts, the vertex of every face corner, the UV of every corner against `vt`, every
evaluated world position and the world bounds against the OBJ after the axis conversion (x, y, z) -> (x, -z, y), to
1e-6; fixed-topology outputs must keep one mesh and play through their Mesh Cache modifier. The OBJ files are parsed
here, independently of the importer. Exit code 0 when all agree, 1 with one line per difference otherwise.
"""

import json
import math
import os
import re
import sys

import bpy

TOLERANCE = 1e-6
MAX_REPORTED = 20
HERE = os.path.dirname(os.path.abspath(__file__))


def arguments():
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not args or args[0].startswith("-"):
        fail_now("usage: blender -b --python check_import.py -- OUT [--save FILE.blend | --reopened]")
    out_dir, save, reopened = os.path.abspath(args[0]), None, False
    rest = args[1:]
    while rest:
        option = rest.pop(0)
        if option == "--save" and rest:
            save = os.path.abspath(rest.pop(0))
        elif option == "--reopened":
            reopened = True
        else:
            fail_now("check_import: unknown or incomplete option %r" % option)
    return out_dir, save, reopened


def fail_now(message):
    print(message, file=sys.stderr)
    sys.exit(1)


class Report:
    def __init__(self):
        self.failures = 0

    def fail(self, label, frame, what):
        self.failures += 1
        if self.failures <= MAX_REPORTED:
            where = label if frame is None else "%s, frame %d" % (label, frame)
            print("check_import: %s: %s" % (where, what), file=sys.stderr)


def parse_obj(path):
    """(positions in Blender axes, texture coordinates, faces as lists of (v, vt or None), 0-based)."""
    positions, uvs, faces = [], [], []
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "v":
                x, y, z = (float(w) for w in words[1:4])
                positions.append((x, -z, y))
            elif words[0] == "vt":
                uvs.append((float(words[1]), float(words[2])))
            elif words[0] == "f":
                face = []
                for corner in words[1:]:
                    ids = corner.split("/")
                    face.append((int(ids[0]) - 1, int(ids[1]) - 1 if len(ids) > 1 and ids[1] else None))
                faces.append(face)
    return positions, uvs, faces


def written_frames(folder, prefix):
    found = []
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        m = re.fullmatch(re.escape(prefix) + r"(\d{5,})\.obj", name)
        if m:
            found.append(int(m.group(1)))
    return sorted(found)


def bounds(points):
    return [min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)]


def compare_topology(report, label, frame, mesh, faces):
    if len(mesh.polygons) != len(faces):
        report.fail(label, frame, "%d faces, expected %d" % (len(mesh.polygons), len(faces)))
        return False
    for i, (polygon, face) in enumerate(zip(mesh.polygons, faces)):
        corners = [mesh.loops[l].vertex_index for l in polygon.loop_indices]
        if corners != [v for v, _ in face]:
            report.fail(label, frame, "face %d has vertices %s, expected %s" % (i, corners, [v for v, _ in face]))
            return False
    return True


def compare_uvs(report, label, frame, mesh, uvs, faces):
    if not uvs:
        return
    if not mesh.uv_layers.active:
        report.fail(label, frame, "no UV layer, expected one from the file's vt lines")
        return
    data = mesh.uv_layers.active.data
    for i, (polygon, face) in enumerate(zip(mesh.polygons, faces)):
        for loop, (_, vt) in zip(polygon.loop_indices, face):
            got, want = data[loop].uv, uvs[vt]
            if abs(got[0] - want[0]) > TOLERANCE or abs(got[1] - want[1]) > TOLERANCE:
                report.fail(label, frame, "face %d corner UV (%.7g, %.7g), expected vt %d = (%.7g, %.7g)"
                            % (i, got[0], got[1], vt + 1, want[0], want[1]))
                return


def compare_positions(report, label, frame, world, positions):
    for i, (got, want) in enumerate(zip(world, positions)):
        if max(abs(g - w) for g, w in zip(got, want)) > TOLERANCE:
            report.fail(label, frame, "vertex %d at (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)"
                        % ((i,) + tuple(got) + tuple(want)))
            return
    (lo, hi), (want_lo, want_hi) = bounds(world), bounds(positions)
    for axis in range(3):
        if abs(lo[axis] - want_lo[axis]) > TOLERANCE or abs(hi[axis] - want_hi[axis]) > TOLERANCE:
            report.fail(label, frame, "world bounds %s..%s, expected %s..%s" % (lo, hi, want_lo, want_hi))
            return


def compare(report, label, frame, obj, path, depsgraph, parsed):
    """The evaluated object (modifiers and all) against the OBJ file at path."""
    if path not in parsed:
        parsed[path] = parse_obj(path)
    positions, uvs, faces = parsed[path]
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        if len(mesh.vertices) != len(positions):
            report.fail(label, frame, "%d vertices, expected %d (%s)" % (len(mesh.vertices), len(positions), path))
            return
        if not compare_topology(report, label, frame, mesh, faces):
            return
        compare_uvs(report, label, frame, mesh, uvs, faces)
        matrix = evaluated.matrix_world
        compare_positions(report, label, frame, [matrix @ v.co for v in mesh.vertices], positions)
    finally:
        evaluated.to_mesh_clear()


def find_object(report, role, name):
    for obj in bpy.data.objects:
        if obj.get("adacloth_role") == role and obj.get("adacloth_name") == name:
            return obj
    report.fail("%s %s" % (role, name), None, "no object imported")
    return None


def expectations(report, out_dir, shot):
    """(label, object, files prefix, written frames, is a point cache) for everything the folder holds."""
    frames_dir, obstacles_dir = os.path.join(out_dir, "frames"), os.path.join(out_dir, "obstacles")
    found = []
    for cloth in shot["cloths"]:
        name = cloth["name"]
        found.append(("cloth " + name, find_object(report, "cloth", name), os.path.join(frames_dir, name + "_"),
                      written_frames(frames_dir, name + "_"), False))
        out_frames = written_frames(frames_dir, name + "_out_")
        if out_frames:
            found.append(("fixed-topology output %s_out" % name, find_object(report, "cloth_out", name),
                          os.path.join(frames_dir, name + "_out_"), out_frames, True))
    for obstacle in shot.get("obstacles", []):
        name = obstacle["name"]
        frames = written_frames(obstacles_dir, name + "_")
        if frames:
            found.append(("obstacle " + name, find_object(report, "obstacle", name),
                          os.path.join(obstacles_dir, name + "_"), frames, False))
    return [e for e in found if e[1] is not None]


def check_point_cache(report, label, obj):
    caches = [m for m in obj.modifiers if m.type == "MESH_CACHE"]
    if not caches or not os.path.isfile(bpy.path.abspath(caches[0].filepath)):
        report.fail(label, None, "expected a Mesh Cache modifier reading an existing .pc2 file")


def check_scene(report, shot, first, last):
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    if abs(fps - float(shot["fps"])) > 1e-6:
        report.fail("scene", first, "%g fps, expected the shot's %g" % (fps, shot["fps"]))
    if (scene.frame_start, scene.frame_end) != (first, last):
        report.fail("scene", first, "frame range %d..%d, expected the written frames %d..%d"
                    % (scene.frame_start, scene.frame_end, first, last))


def check_camera(report, shot, first):
    """At a frame before or at the first keyframe the camera holds it: eye, view direction and fov exactly."""
    if not shot.get("camera"):
        return
    with open(shot["camera"]) as f:
        key = json.load(f)["keyframes"][0]
    if first / float(shot["fps"]) > key["time"] or not bpy.context.scene.camera:
        return
    bpy.context.scene.frame_set(first)
    camera = bpy.context.scene.camera
    eye, target = key["eye"], key["target"]
    want_eye = (eye[0], -eye[2], eye[1])
    view = [t - e for t, e in zip(target, eye)]
    norm = math.sqrt(sum(c * c for c in view))
    want_view = (view[0] / norm, -view[2] / norm, view[1] / norm)
    got_view = -camera.matrix_world.col[2].xyz
    got_eye = camera.matrix_world.translation
    if max(abs(a - b) for a, b in zip(got_eye, want_eye)) > TOLERANCE or \
            max(abs(a - b) for a, b in zip(got_view, want_view)) > TOLERANCE:
        report.fail("camera", first, "eye %s looking %s, expected eye %s looking %s"
                    % (tuple(got_eye), tuple(got_view), want_eye, want_view))
    want_fov = math.radians(key.get("fov_y_deg", 40.0))
    if camera.data.sensor_fit != "VERTICAL" or abs(camera.data.angle_y - want_fov) > TOLERANCE:
        report.fail("camera", first, "vertical fov %g rad, expected %g" % (camera.data.angle_y, want_fov))


def check_frames(report, items, first, last):
    """Every frame of the range, and one past its end (which must hold the last frame)."""
    parsed, mesh_names = {}, {}
    scene = bpy.context.scene
    for frame in list(range(first, last + 1)) + [last + 2]:
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for label, obj, prefix, frames, point_cache in items:
            shown = min(max(frame, frames[0]), frames[-1])
            compare(report, label, frame, obj, "%s%05d.obj" % (prefix, shown), depsgraph, parsed)
            if point_cache and mesh_names.setdefault(label, obj.data.name) != obj.data.name:
                report.fail(label, frame, "mesh swapped to %s; a point-cached output keeps one mesh" % obj.data.name)


def check_handler(report, reopened):
    names = [getattr(h, "__name__", "") for h in bpy.app.handlers.frame_change_pre]
    if "adacloth_frame_change" not in names:
        report.fail("handler", None, "adacloth_frame_change is not in frame_change_pre%s"
                    % (" after reopening (is the add-on enabled?)" if reopened else ""))


def main():
    out_dir, save, reopened = arguments()
    with open(os.path.join(out_dir, "shot.resolved.json")) as f:
        shot = json.load(f)
    if not reopened:
        sys.dont_write_bytecode = True  # no __pycache__ in the source tree
        sys.path.insert(0, HERE)
        import adacloth_import
        adacloth_import.import_output(out_dir)
    report = Report()
    check_handler(report, reopened)
    items = expectations(report, out_dir, shot)
    if not items:
        fail_now("check_import: %s: nothing to check (no cloth frames found)" % out_dir)
    first, last = min(i[3][0] for i in items), max(i[3][-1] for i in items)
    for label, obj, _, _, point_cache in items:
        if point_cache:
            check_point_cache(report, label, obj)
    check_scene(report, shot, first, last)
    check_camera(report, shot, first)
    check_frames(report, items, first, last)
    if report.failures:
        fail_now("check_import: %s: %d difference(s)%s" % (out_dir, report.failures,
                 " (first %d shown)" % MAX_REPORTED if report.failures > MAX_REPORTED else ""))
    print("check_import: %s: %d objects agree with their OBJ files at frames %d..%d%s"
          % (out_dir, len(items), first, last, " after reopening" if reopened else ""))
    if save:
        bpy.ops.wm.save_as_mainfile(filepath=save)


main()
