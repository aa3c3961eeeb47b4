"""The add-on in Blender itself, headless:

    blender -b --factory-startup --python-exit-code 3 --python blender/tests/test_blender.py -- \\
        SITE REPO [CORPUS]

SITE is a folder the levelkit package is installed in (`pip install --target SITE
./crates/levelkit-py`), REPO the repository, CORPUS the real-file corpus (optional). The add-on is
installed from the repository as a user installs one (a zip of `blender/levelkit_io`), then every
3D sample and one real file of each 3D format is imported through it; the object, mesh, material,
image, armature and action counts must equal those of the `.glb` levelkit writes, imported by
Blender's glTF importer directly. A boned MDL7 must arrive with an armature and actions. The
imported scenes are exported back to `.wings` and `.wdb` through the add-on and read by levelkit.
Prints one RESULT line per file; any failure raises (exit code 3).
"""

import json
import os
import shutil
import struct
import sys
import tempfile

import bpy

argv = sys.argv[sys.argv.index("--") + 1 :]
SITE, REPO = argv[0], argv[1]
CORPUS = argv[2] if len(argv) > 2 and argv[2] else None
sys.path.insert(0, SITE)

import levelkit  # noqa: E402
import numpy  # noqa: E402

if not hasattr(numpy, "bool"):  # Blender 3.4's glTF importer on numpy >= 1.24
    numpy.bool = bool

TMP = tempfile.mkdtemp(prefix="levelkit-blender-")

# Install and enable the add-on from the repository, as a user would.
archive = shutil.make_archive(
    os.path.join(TMP, "levelkit_io"), "zip", os.path.join(REPO, "blender"), "levelkit_io"
)
bpy.ops.preferences.addon_install(filepath=archive, overwrite=True)
bpy.ops.preferences.addon_enable(module="levelkit_io")
assert hasattr(bpy.ops.import_scene, "levelkit_mdl"), "the add-on did not register"

COLLECTIONS = ("objects", "meshes", "materials", "images", "armatures", "actions")


def clear():
    for name in COLLECTIONS + ("cameras", "lights", "textures", "collections"):
        data = getattr(bpy.data, name)
        for item in list(data):
            data.remove(item)


def counts():
    return {name: len(getattr(bpy.data, name)) for name in COLLECTIONS}


def glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack_from("<I", data, 12)
    return json.loads(data[20 : 20 + length])


def operator_for(path):
    ext = os.path.splitext(path)[1][1:].lower()
    return {"$$m": "wmp"}.get(ext, ext)


files = [
    os.path.join(REPO, "samples", n)
    for n in ("cube.wings", "crate.mdl", "pyramid.mdl", "quad.wmb", "room.wmp", "world.wdb")
]
if CORPUS:
    files += [
        os.path.join(CORPUS, p)
        for p in (
            "wings/written-by-wings-2.2.9/cube.wings",
            "gamestudio/mdl/mdl7-player.mdl",
            "gamestudio/hmp/test.HMP",
            "gamestudio/wmb/wmb6-test.wmb",
            "wmp/v710/block.wmp",
            "wmp/wmpb/kbridge.$$M",
            "vchat/fishbowl/data/world.wdb",
        )
    ]

failures = []
for path in files:
    name = os.path.basename(path)
    clear()
    op = getattr(bpy.ops.import_scene, "levelkit_" + operator_for(path))
    result = op(filepath=path)
    through_addon = counts()
    clear()
    glb = os.path.join(TMP, name + ".glb")
    levelkit.open(path).convert(path=glb, force=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    direct = counts()
    gltf = glb_json(glb)
    line = (
        f"RESULT {name} {sorted(result)} "
        + " ".join(f"{k}={v}" for k, v in through_addon.items())
        + f" gltf_meshes={len(gltf.get('meshes', []))} gltf_materials={len(gltf.get('materials', []))}"
        + f" gltf_images={len(gltf.get('images', []))} gltf_animations={len(gltf.get('animations', []))}"
    )
    print(line)
    if "FINISHED" not in result:
        failures.append(f"{name}: the import did not finish ({result})")
    if through_addon != direct:
        failures.append(f"{name}: through the add-on {through_addon}, the .glb directly {direct}")
    if through_addon["meshes"] != len(gltf.get("meshes", [])):
        failures.append(f"{name}: {through_addon['meshes']} meshes, the .glb has {len(gltf['meshes'])}")
    if through_addon["images"] != len(gltf.get("images", [])):
        failures.append(f"{name}: {through_addon['images']} images, the .glb has {len(gltf.get('images', []))}")
    if name == "mdl7-player.mdl" and not (through_addon["armatures"] and through_addon["actions"]):
        failures.append(f"{name}: a boned MDL7 arrived without an armature and actions")

# Back out: the imported scenes through the add-on's exporters, read by levelkit.
for source, target in (("cube.wings", "wings"), ("world.wdb", "wdb"), ("crate.mdl", "wings")):
    clear()
    getattr(bpy.ops.import_scene, "levelkit_" + operator_for(source))(
        filepath=os.path.join(REPO, "samples", source)
    )
    out = os.path.join(TMP, f"exported-{source}.{target}")
    result = getattr(bpy.ops.export_scene, "levelkit_" + target)(filepath=out)
    doc = levelkit.open(out)
    findings = [f for f in doc.validate() if f.severity == "error"]
    print(f"RESULT export {source} -> {os.path.basename(out)} {sorted(result)} {doc.format} "
          f"{doc.info_text().splitlines()[1].strip() if len(doc.info_text().splitlines()) > 1 else ''}")
    if "FINISHED" not in result or doc.format != target or findings:
        failures.append(f"export {source} -> {target}: {result} {doc.format} {findings}")

# A broken file is reported, not raised.
broken = os.path.join(TMP, "broken.mdl")
with open(broken, "wb") as f:
    f.write(b"MDL7" + bytes(40))
try:
    result = bpy.ops.import_scene.levelkit_mdl(filepath=broken)
    failures.append(f"a broken file gave {result}, not an error report")
except RuntimeError as e:
    # Called from a script, Blender raises an operator's error report; in the interface it is
    # shown in the report area.
    print(f"RESULT broken.mdl reported: {str(e).strip()}")
    if "levelkit:" not in str(e):
        failures.append(f"a broken file raised {e!r}, not the add-on's report")

shutil.rmtree(TMP, ignore_errors=True)
if failures:
    raise RuntimeError("\n".join(failures))
print("blender: all imports and exports passed")
