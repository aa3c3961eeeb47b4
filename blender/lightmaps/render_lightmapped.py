"""Blender 3.4, headless: import a levelkit .glb of a lit WMB7 level and render it as the engine
draws it: each surface's texture times twice its lightmap page (levelkit puts the page in the
glTF occlusion slot, sampled with TEXCOORD_1), as emission, so nothing but the baked light
shades it. Prints counts (objects, triangles, objects with a second UV set, lit materials).

    levelkit convert level.wmb level.glb
    blender -b --factory-startup --python blender/lightmaps/render_lightmapped.py -- \
        level.glb level.png [lightmap-only]

With a third argument the textures are left out: the lightmaps alone."""
import sys, math
import bpy
import numpy
if not hasattr(numpy, "bool"):
    numpy.bool = bool
argv = sys.argv[sys.argv.index("--") + 1:]
glb, out = argv[0], argv[1]
only_lightmap = len(argv) > 2
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=glb)
lit = 0
for mat in bpy.data.materials:
    nt = mat.node_tree
    if not nt:
        continue
    images = [n for n in nt.nodes if n.type == "TEX_IMAGE" and n.image]
    lm = next((n for n in images if n.image.name.startswith("lightmap")), None)
    base = next((n for n in images if not n.image.name.startswith("lightmap")), None)
    outn = next(n for n in nt.nodes if n.type == "OUTPUT_MATERIAL")
    emit = nt.nodes.new("ShaderNodeEmission")
    if lm is not None:
        lit += 1
        # The lightmap's UV map: the importer names the second set UVMap.001 (or gives the
        # image node a UV Map node already).
        if not lm.inputs["Vector"].is_linked:
            uv = nt.nodes.new("ShaderNodeUVMap")
            uv.uv_map = "UVMap.001"
            nt.links.new(uv.outputs["UV"], lm.inputs["Vector"])
        mul = nt.nodes.new("ShaderNodeMixRGB")
        mul.blend_type = "MULTIPLY"
        mul.inputs["Fac"].default_value = 1.0
        if base is not None and not only_lightmap:
            nt.links.new(base.outputs["Color"], mul.inputs["Color1"])
        else:
            mul.inputs["Color1"].default_value = (1, 1, 1, 1)
        nt.links.new(lm.outputs["Color"], mul.inputs["Color2"])
        # Gamestudio modulates by twice the lightmap (mid grey is full brightness).
        two = nt.nodes.new("ShaderNodeMixRGB")
        two.blend_type = "MULTIPLY"
        two.inputs["Fac"].default_value = 1.0
        two.inputs["Color2"].default_value = (2, 2, 2, 1)
        nt.links.new(mul.outputs["Color"], two.inputs["Color1"])
        nt.links.new(two.outputs["Color"], emit.inputs["Color"])
    elif base is not None and not only_lightmap:
        nt.links.new(base.outputs["Color"], emit.inputs["Color"])
    else:
        emit.inputs["Color"].default_value = (0.5, 0.5, 0.5, 1)
    nt.links.new(emit.outputs["Emission"], outn.inputs["Surface"])
meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
tris = sum(sum(len(p.vertices) - 2 for p in o.data.polygons) for o in meshes)
uv2 = sum(1 for o in meshes if len(o.data.uv_layers) > 1)
lo = [min((o.matrix_world @ v.co)[i] for o in meshes for v in o.data.vertices) for i in range(3)]
hi = [max((o.matrix_world @ v.co)[i] for o in meshes for v in o.data.vertices) for i in range(3)]
centre = [(a + b) / 2 for a, b in zip(lo, hi)]
size = max(b - a for a, b in zip(lo, hi))
cam = bpy.data.objects.new("cam", bpy.data.cameras.new("cam"))
bpy.context.scene.collection.objects.link(cam)
cam.data.lens = 24
cam.data.clip_end = size * 10
cam.location = (centre[0] + size * 0.55, centre[1] - size * 0.75, centre[2] + size * 0.6)
d = [c - l for c, l in zip(centre, cam.location)]
cam.rotation_euler = (math.atan2(math.hypot(d[0], d[1]), -d[2]), 0, math.atan2(d[1], d[0]) - math.pi / 2)
scene = bpy.context.scene
scene.camera = cam
scene.render.engine = "CYCLES"
scene.cycles.samples = 4
scene.cycles.device = "CPU"
scene.cycles.use_denoising = False
scene.render.resolution_x, scene.render.resolution_y = 640, 400
scene.world = bpy.data.worlds.new("w")
scene.render.filepath = out
scene.render.image_settings.compression = 100
if only_lightmap:
    scene.render.image_settings.color_mode = "BW"
bpy.ops.render.render(write_still=True)
print(f"LIGHTMAPPED objects={len(meshes)} triangles={tris} with_uv2={uv2} lit_materials={lit} images={[i.name for i in bpy.data.images]}")
