"""Renders one frame of an adacloth output folder with Cycles on the CPU (tools/blender/README.md).

    blender -b --python tools/blender/render_still.py -- OUT --frame F -o still.png [--samples N]
                                                         [--width W --height H] [--adaptive]

The folder is imported with adacloth_import.py (same directory); the camera follows the shot's camera path, the
cloths have the colours of `adacloth render` (front and back), obstacles are grey, a ground plane lies under
everything, lit by a sun from over the camera's shoulder and a sky-coloured world. A cloth with a fixed-topology
output is rendered with that mesh unless --adaptive. Exit codes: 0 written, 2 bad input (one line on stderr), 1 the
render failed.
"""

import argparse
import os
import sys

import bpy
from mathutils import Vector

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adacloth_import as ai  # noqa: E402  (the path above first)

GROUND_SIZE = 200.0  # m: reaches the horizon of any conf/ camera
SUN_STRENGTH = 3.0
SKY_COLOR = (0.56, 0.66, 0.82)
SKY_STRENGTH = 0.9


def fail(message):
    print("render_still: " + message, file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail(message)


def arguments():
    parser = Parser(prog="render_still.py", description="Render one frame of an adacloth output with Cycles.")
    parser.add_argument("out", metavar="OUT")
    parser.add_argument("--frame", type=int, default=0)
    parser.add_argument("-o", "--output", required=True, help="PNG file")
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--width", type=int)
    parser.add_argument("--height", type=int)
    parser.add_argument("--adaptive", action="store_true",
                        help="render the adaptive meshes even where a fixed-topology output exists")
    args = parser.parse_args(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else [])
    for name in ("samples", "width", "height"):
        value = getattr(args, name)
        if value is not None and value < 1:
            fail("--%s %d: expected 1 or more" % (name, value))
    return args


def image_size(scene, width, height):
    """One of --width/--height alone keeps the camera file's aspect ratio (as `adacloth render` does)."""
    w, h = scene.render.resolution_x, scene.render.resolution_y
    if width and not height:
        height = max(1, round(width * h / w))
    elif height and not width:
        width = max(1, round(height * w / h))
    scene.render.resolution_x, scene.render.resolution_y = width or w, height or h
    scene.render.resolution_percentage = 100


def show_adaptive(collection):
    for obj in collection.objects:
        role = obj.get(ai.PROP + "role")
        if role == "cloth":
            obj.hide_render, obj.display_type = False, "TEXTURED"
        elif role == "cloth_out":
            obj.hide_render = True


def lowest_point(collection):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    lowest = float("inf")
    for obj in collection.objects:
        if obj.type == "MESH" and not obj.hide_render:
            evaluated = obj.evaluated_get(depsgraph)
            lowest = min([lowest] + [(evaluated.matrix_world @ Vector(c)).z for c in evaluated.bound_box])
    return lowest


def add_ground(collection):
    """1 mm under z = 0, or under the lowest thing in the frame (a floor obstacle at 0 is then drawn over it)."""
    z = min(-0.001, lowest_point(collection) - 0.001)
    mesh = bpy.data.meshes.new("ground")
    half = GROUND_SIZE / 2
    mesh.from_pydata([(-half, -half, z), (half, -half, z), (half, half, z), (-half, half, z)], [], [(0, 1, 2, 3)])
    ground = bpy.data.objects.new("ground", mesh)
    collection.objects.link(ground)
    ground.data.materials.append(checker_material())


def checker_material():
    """Light grey with faint 0.5 m cells, so distance and scale read at a glance."""
    material = ai.grey_material("ground", (200, 200, 196), 0.9)
    nodes, links = material.node_tree.nodes, material.node_tree.links
    checker = nodes.new("ShaderNodeTexChecker")
    coordinates = nodes.new("ShaderNodeTexCoord")
    links.new(coordinates.outputs["Object"], checker.inputs["Vector"])
    checker.inputs["Scale"].default_value = 2.0  # cells of 1 / scale metres, in object space
    checker.inputs["Color1"].default_value = ai.srgb_to_linear((206, 206, 202))
    checker.inputs["Color2"].default_value = ai.srgb_to_linear((184, 184, 180))
    links.new(checker.outputs["Color"], nodes.get("Principled BSDF").inputs["Base Color"])
    return material


def add_sun(collection, camera):
    """A sun over the camera's left shoulder, so what the camera sees is lit (the shot's cameras go all round)."""
    m = camera.matrix_world
    right, forward = m.col[0].xyz.normalized(), -m.col[2].xyz.normalized()
    toward_sun = (-0.5 * right - 0.6 * forward + Vector((0.0, 0.0, 1.2))).normalized()
    data = bpy.data.lights.new("sun", "SUN")
    data.energy = SUN_STRENGTH
    data.angle = 0.08  # soft-edged shadows
    sun = bpy.data.objects.new("sun", data)
    sun.rotation_euler = (-toward_sun).to_track_quat("-Z", "Y").to_euler()
    collection.objects.link(sun)


def set_world(scene):
    world = scene.world or bpy.data.worlds.new("sky")
    scene.world = world
    world.use_nodes = True
    background = world.node_tree.nodes.get("Background")
    background.inputs["Color"].default_value = SKY_COLOR + (1.0,)
    background.inputs["Strength"].default_value = SKY_STRENGTH


def set_cycles(scene, samples):
    import _cycles  # Cycles' own module: tells whether this build has OpenImageDenoise (Debian's has not)
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = samples
    scene.cycles.use_denoising = bool(getattr(_cycles, "with_openimagedenoise", False))
    scene.cycles.max_bounces = 4
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGB"
    scene.render.image_settings.color_depth = "8"
    scene.render.image_settings.compression = 100  # noise compresses badly; the smallest file costs a few ms


def main():
    args = arguments()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    try:
        collection = ai.import_output(args.out, scene=scene)
    except ai.OutputError as e:
        fail(str(e))
    if scene.camera is None:
        fail("%s: the shot has no camera (key 'camera'); render_still needs one"
             % os.path.join(os.path.abspath(args.out), "shot.resolved.json"))
    if not scene.frame_start <= args.frame <= scene.frame_end:
        fail("--frame %d: expected a written frame of %s (%d..%d)"
             % (args.frame, args.out, scene.frame_start, scene.frame_end))
    if args.adaptive:
        show_adaptive(collection)
    scene.frame_set(args.frame)
    add_ground(collection)
    add_sun(collection, scene.camera)
    set_world(scene)
    set_cycles(scene, args.samples)
    image_size(scene, args.width, args.height)
    scene.render.filepath = os.path.abspath(args.output)
    scene.render.use_file_extension = False
    bpy.ops.render.render(write_still=True)
    print("render_still: %s (frame %d, %dx%d, %d samples)" % (scene.render.filepath, args.frame,
          scene.render.resolution_x, scene.render.resolution_y, args.samples))


try:
    main()
except Exception as e:  # without --python-exit-code Blender would exit 0 after a traceback: a render that failed
    import traceback
    traceback.print_exc()
    print("render_still: failed: %s" % e, file=sys.stderr)
    sys.exit(1)
