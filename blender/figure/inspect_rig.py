# Import a .glb/.gltf with Blender's own glTF importer and print one line of JSON about its rig.
# usage: blender -b --factory-startup --python-exit-code 3 --python inspect_rig.py -- FILE.glb
# prints: RIG {"armatures": N, "bones": N, "actions": {name: [start, end, fcurves]}, "meshes": N,
#              "triangles": N, "skinned": N}
# Exit code 0 on success; the script raises (exit 3 with --python-exit-code 3) if the import fails.
import bpy, json, sys
import numpy, warnings
with warnings.catch_warnings():  # numpy 1.24 warns on the lookup of the removed alias
    warnings.simplefilter("ignore")
    if not hasattr(numpy, "bool"):   # numpy >= 1.24 removed np.bool; Blender 3.4's glTF importer still uses it
        numpy.bool = bool

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(argv) != 1 or not argv[0].lower().endswith((".glb", ".gltf")):
    raise RuntimeError("usage: blender -b --python inspect_rig.py -- FILE.glb|FILE.gltf")
bpy.ops.wm.read_factory_settings(use_empty=True)
r = bpy.ops.import_scene.gltf(filepath=argv[0])
if "FINISHED" not in r:
    raise RuntimeError("import did not finish: %r" % (r,))

objs = list(bpy.context.scene.objects)
arms = [o for o in objs if o.type == "ARMATURE"]
meshes = [o for o in objs if o.type == "MESH"]
tris = 0
for o in meshes:
    o.data.calc_loop_triangles()
    tris += len(o.data.loop_triangles)
print("RIG " + json.dumps({
    "armatures": len(arms),
    "bones": sum(len(o.data.bones) for o in arms),
    "actions": {a.name: [round(a.frame_range[0], 3), round(a.frame_range[1], 3), len(a.fcurves)]
                for a in sorted(bpy.data.actions, key=lambda a: a.name)},
    "meshes": len(meshes),
    "triangles": tris,
    "skinned": sum(1 for o in meshes
                   if any(m.type == "ARMATURE" for m in o.modifiers) or len(o.vertex_groups) > 0),
}, sort_keys=False))
