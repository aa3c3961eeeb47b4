# Build a small textured, rigged, animated humanoid from nothing and export it as binary glTF.
# usage: blender -b --factory-startup --python-exit-code 3 --python make_figure.py -- OUT.glb
# prints: FIGURE bones=N triangles=T frames=F actions=NAMES ...
#
# Everything is computed in this script (mesh, UVs, weights, texture pixels, keyframes), so the
# output is the same bytes on every run with the same Blender.
import bpy, bmesh, math, os, sys

argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(argv) != 1:
    raise RuntimeError("usage: blender -b --python make_figure.py -- OUT.glb")
out = os.path.abspath(argv[0])

# ---- empty scene (factory startup has a cube, a camera and a light) ------------------------------
for ob in list(bpy.data.objects):
    bpy.data.objects.remove(ob, do_unlink=True)
for coll in (bpy.data.meshes, bpy.data.materials, bpy.data.cameras, bpy.data.lights,
             bpy.data.images, bpy.data.actions, bpy.data.armatures):
    for block in list(coll):
        coll.remove(block)
scene = bpy.context.scene

# ---- mesh: six boxes, each cut into rings along its long axis ---------------------------------------
# Blender is Z up; the figure stands on z=0, about 1.85 high, arms out (T pose) along X.
verts, faces, vgroups = [], [], []   # vgroups[i] = [(bone, weight), ...] for vertex i


def limb(start, end, hw, hd, rings, weight_of):
    """Box from start to end (points), cross-section 2*hw x 2*hd, `rings` rings of 4 vertices.
    weight_of(t) gives the bone weights of a ring at t in [0, 1] along the box."""
    sx, sy, sz = start
    ex, ey, ez = end
    axis = (ex - sx, ey - sy, ez - sz)
    # two directions across the box: for a vertical box X and Y, for a horizontal (X) box Y and Z
    if abs(axis[2]) > abs(axis[0]):
        u, v = (hw, 0, 0), (0, hd, 0)
    else:
        u, v = (0, hw, 0), (0, 0, hd)
    base = len(verts)
    for i in range(rings):
        t = i / (rings - 1)
        c = (sx + axis[0] * t, sy + axis[1] * t, sz + axis[2] * t)
        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            verts.append(tuple(c[k] + a * u[k] + b * v[k] for k in range(3)))
            vgroups.append(weight_of(t))
    for i in range(rings - 1):
        r0, r1 = base + 4 * i, base + 4 * (i + 1)
        for j in range(4):
            faces.append((r0 + j, r0 + (j + 1) % 4, r1 + (j + 1) % 4, r1 + j))
    last = base + 4 * (rings - 1)
    faces.append((base + 3, base + 2, base + 1, base))
    faces.append((last, last + 1, last + 2, last + 3))


def split(a, b, t0, t1):
    """bone a below t0, bone b above t1, a 50/50 split in between (the joint rings)."""
    return lambda t: [(a, 1.0)] if t < t0 else [(b, 1.0)] if t > t1 else [(a, 0.5), (b, 0.5)]


limb((0, 0, 0.90), (0, 0, 1.50), 0.22, 0.12, 4, split("hips", "spine", 0.3, 0.4))   # torso
limb((0, 0, 1.52), (0, 0, 1.85), 0.13, 0.13, 3, lambda t: [("head", 1.0)])         # head
for side, sgn in (("L", 1), ("R", -1)):
    limb((sgn * 0.22, 0, 1.42), (sgn * 0.85, 0, 1.42), 0.06, 0.06, 5,               # arm
         split("spine", "arm." + side, 0.0, 0.0))
    limb((sgn * 0.11, 0, 0.92), (sgn * 0.11, 0, 0.0), 0.08, 0.08, 5,                # leg
         lambda t, s=side: [("hips", 0.5), ("thigh." + s, 0.5)] if t == 0 else
         [("thigh." + s, 1.0)] if t < 0.5 else
         [("thigh." + s, 0.5), ("shin." + s, 0.5)] if t == 0.5 else [("shin." + s, 1.0)])

me = bpy.data.meshes.new("figure")
me.from_pydata(verts, [], faces)
me.validate()
bm = bmesh.new()
bm.from_mesh(me)
bmesh.ops.recalc_face_normals(bm, faces=bm.faces)   # all faces outward, whatever the ring order
# UVs: box projection by hand (dominant axis of the face normal), figure fits in [0, 1]
uv_layer = bm.loops.layers.uv.new("UVMap")
for f in bm.faces:
    n = f.normal
    ax = max(range(3), key=lambda k: abs(n[k]))
    a, b = [(1, 2), (0, 2), (0, 1)][ax]
    for loop in f.loops:
        co = loop.vert.co
        loop[uv_layer].uv = ((co[a] + 1.0) / 2.0, co[b] / 2.0)
bm.to_mesh(me)
bm.free()
body = bpy.data.objects.new("figure", me)
scene.collection.objects.link(body)

# ---- material with a generated, packed 64x64 PNG texture ----------------------------------------
W = H = 64
img = bpy.data.images.new("figure_texture", W, H, alpha=False)
px = []
for y in range(H):
    for x in range(W):
        check = ((x // 8) + (y // 8)) % 2
        r, g, b = x / (W - 1), y / (H - 1), 0.5
        k = 1.0 if check else 0.55
        px += [r * k, g * k, b * k, 1.0]
img.pixels.foreach_set(px)
img.file_format = "PNG"
img.pack()

mat = bpy.data.materials.new("figure_material")
mat.use_nodes = True
nodes = mat.node_tree.nodes
bsdf = nodes["Principled BSDF"]
tex = nodes.new("ShaderNodeTexImage")
tex.image = img
tex.interpolation = "Closest"
mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
me.materials.append(mat)

# ---- armature: 9 bones ----------------------------------------------------------------------------
arm_data = bpy.data.armatures.new("rig")
rig = bpy.data.objects.new("rig", arm_data)
scene.collection.objects.link(rig)
bpy.context.view_layer.objects.active = rig
bpy.ops.object.mode_set(mode="EDIT")
BONES = [  # name, parent, head, tail
    ("hips", None, (0, 0, 0.92), (0, 0, 1.10)),
    ("spine", "hips", (0, 0, 1.10), (0, 0, 1.50)),
    ("head", "spine", (0, 0, 1.50), (0, 0, 1.85)),
    ("arm.L", "spine", (0.22, 0, 1.42), (0.85, 0, 1.42)),
    ("arm.R", "spine", (-0.22, 0, 1.42), (-0.85, 0, 1.42)),
    ("thigh.L", "hips", (0.11, 0, 0.92), (0.11, 0, 0.46)),
    ("shin.L", "thigh.L", (0.11, 0, 0.46), (0.11, 0, 0.0)),
    ("thigh.R", "hips", (-0.11, 0, 0.92), (-0.11, 0, 0.46)),
    ("shin.R", "thigh.R", (-0.11, 0, 0.46), (-0.11, 0, 0.0)),
]
for name, parent, head, tail in BONES:
    eb = arm_data.edit_bones.new(name)
    eb.head, eb.tail = head, tail
    if parent:
        eb.parent = arm_data.edit_bones[parent]
        eb.use_connect = tuple(arm_data.edit_bones[parent].tail) == tuple(eb.head)
bpy.ops.object.mode_set(mode="OBJECT")

# skin: explicit vertex groups (1 or 2 bones per vertex), Armature modifier, parent to the rig
for name, *_ in BONES:
    body.vertex_groups.new(name=name)
for i, ws in enumerate(vgroups):
    for bone, w in ws:
        body.vertex_groups[bone].add([i], w, "REPLACE")
body.parent = rig
mod = body.modifiers.new("Armature", "ARMATURE")
mod.object = rig

# ---- actions --------------------------------------------------------------------------------------
FRAMES = 13   # frames 1..13, one cycle of 12 frames (frame 13 = frame 1, so it loops)


def make_action(name, pose):
    """pose(phase) -> {bone: (axis, angle)}; one keyframe per frame on every posed bone."""
    act = bpy.data.actions.new(name)
    act.use_fake_user = True
    rig.animation_data_create()
    rig.animation_data.action = act
    for f in range(1, FRAMES + 1):
        phase = 2 * math.pi * (f - 1) / (FRAMES - 1)
        for bone, (axis, angle) in pose(phase).items():
            pb = rig.pose.bones[bone]
            pb.rotation_mode = "QUATERNION"
            half = round(angle, 6) / 2
            q = [math.cos(half), 0.0, 0.0, 0.0]
            q[1 + "XYZ".index(axis)] = math.sin(half)
            pb.rotation_quaternion = q
            pb.keyframe_insert("rotation_quaternion", frame=f, group=bone)
    for fc in act.fcurves:
        for kp in fc.keyframe_points:
            kp.interpolation = "LINEAR"
    return act


def walk(p):
    s = math.sin(p)
    return {"thigh.L": ("X", 0.5 * s), "thigh.R": ("X", -0.5 * s),
            "shin.L": ("X", 0.3 * max(0.0, -s)), "shin.R": ("X", 0.3 * max(0.0, s)),
            "arm.L": ("Z", 0.4 * s), "arm.R": ("Z", 0.4 * s),
            "spine": ("Y", 0.05 * s)}


def wave(p):
    return {"arm.R": ("Y", -1.0 + 0.4 * math.sin(2 * p)), "head": ("Y", 0.15 * math.sin(p))}


wave_act = make_action("wave", wave)
for pb in rig.pose.bones:   # rest pose again before the second action
    pb.rotation_quaternion = (1, 0, 0, 0)
walk_act = make_action("walk", walk)
rig.animation_data.action = walk_act          # active action; "wave" is exported as well
scene.frame_start, scene.frame_end = 1, FRAMES
scene.frame_set(1)

# ---- export ---------------------------------------------------------------------------------------
os.makedirs(os.path.dirname(out), exist_ok=True)
r = bpy.ops.export_scene.gltf(filepath=out, export_format="GLB", export_animations=True,
                              export_skins=True, export_apply=False)
if "FINISHED" not in r:
    raise RuntimeError("export failed: %r" % (r,))

dg = bpy.context.evaluated_depsgraph_get()
ev = body.evaluated_get(dg).to_mesh()
ev.calc_loop_triangles()
tris = len(ev.loop_triangles)
body.evaluated_get(dg).to_mesh_clear()
acts = sorted(bpy.data.actions, key=lambda a: a.name)
keys = {a.name: len({kp.co[0] for fc in a.fcurves for kp in fc.keyframe_points}) for a in acts}
print("FIGURE bones=%d triangles=%d frames=%d actions=%s frame_range=%d-%d keys_per_action=%s bytes=%d"
      % (len(arm_data.bones), tris, keys["walk"], ",".join(a.name for a in acts),
         walk_act.frame_range[0], walk_act.frame_range[1],
         ",".join("%s:%d" % kv for kv in sorted(keys.items())), os.path.getsize(out)))
