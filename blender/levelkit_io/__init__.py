"""levelkit for Blender: File > Import of Wings 3D, 3D GameStudio and V-Chat files, File > Export
to `.wings` and `.wdb`.

Each import converts the file with levelkit (the Python package, `crates/levelkit-py`) to a
GLB, the same bytes `levelkit convert FILE out.glb` writes, and hands it to Blender's own glTF
importer: meshes, materials and textures, node trees, lights, MDL frames as shape-key actions and
bones as armatures with their actions. Each export writes the scene with Blender's glTF exporter
and converts that GLB with levelkit. Errors are shown in Blender's report area.

Blender 3.4 to 4.1: install the `levelkit` package where Blender's Python finds it (`pip
install ./crates/levelkit-py` for the Python Blender runs, or into a folder named `_vendor`
beside this file), then install this folder (zipped) as an add-on. Blender 4.2 and newer: the
extension `blender/build_extension.sh` makes carries the wheel.
"""

import os
import sys
import tempfile

import bpy
from bpy.props import BoolProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

bl_info = {
    "name": "levelkit formats (Wings 3D, 3D GameStudio, V-Chat)",
    "author": "levelkit",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import, File > Export",
    "description": "Import .wings, .mdl, .hmp, .wmb, .wmp, $$M and .wdb; export .wings and .wdb",
    "category": "Import-Export",
}

_VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_vendor")


def _levelkit():
    """The levelkit package, from `_vendor` beside the add-on if it is there."""
    if os.path.isdir(_VENDOR) and _VENDOR not in sys.path:
        sys.path.insert(0, _VENDOR)
    import levelkit  # noqa: PLC0415 (imported when first used: a missing package is reported)

    return levelkit


def _numpy_shim():
    """Blender 3.4's glTF add-on uses `numpy.bool`, which numpy 1.24 removed."""
    import numpy  # noqa: PLC0415

    if not hasattr(numpy, "bool"):
        numpy.bool = bool


# (operator suffix, menu label, extensions)
IMPORTS = [
    ("wings", "Wings 3D (.wings)", ["wings"]),
    ("mdl", "3D GameStudio model (.mdl)", ["mdl"]),
    ("hmp", "3D GameStudio terrain (.hmp)", ["hmp"]),
    ("wmb", "3D GameStudio compiled level (.wmb)", ["wmb"]),
    ("wmp", "3D GameStudio level (.wmp, $$M)", ["wmp", "$$M", "$$m"]),
    ("wdb", "V-Chat world (.wdb)", ["wdb"]),
]

EXPORTS = [
    ("wings", "Wings 3D (.wings)", "wings"),
    ("wdb", "V-Chat world (.wdb)", "wdb"),
]


def _fail(operator, error):
    """Report `error` in Blender's report area and cancel."""
    operator.report({"ERROR"}, f"levelkit: {error}")
    return {"CANCELLED"}


class _Levelkit:
    """What both directions share: the package found, and every failure a report."""

    def execute(self, context):
        try:
            levelkit = _levelkit()
        except ImportError as e:
            return _fail(self, f"the levelkit Python package is not installed ({e})")
        try:
            return self._run(context, levelkit)
        except Exception as e:  # noqa: BLE001 (a report, never a traceback, for the user)
            return _fail(self, f"unexpected error: {type(e).__name__}: {e}")


class _LevelkitImport(_Levelkit, ImportHelper):
    """Convert with levelkit to GLB, then Blender's glTF importer."""

    asset_folder: StringProperty(
        name="Asset folder",
        description="Where the textures, WADs and models the file names are, if not beside it",
        default="",
        subtype="DIR_PATH",
    )
    frames_as_actions: BoolProperty(
        name="Frames as actions",
        description="Import the model's animations (MDL frames, bones) as actions",
        default=True,
    )

    def _run(self, context, levelkit):
        try:
            doc = levelkit.open(self.filepath, self.asset_folder or None)
            done = doc.convert("glb")
        except (levelkit.Error, OSError, ValueError) as e:
            return _fail(self, e)
        for note in done.notes[:20]:
            self.report({"WARNING"}, note)
        _numpy_shim()
        with tempfile.TemporaryDirectory(prefix="levelkit-") as folder:
            glb = os.path.join(folder, "scene.glb")
            with open(glb, "wb") as f:
                f.write(done.main)
            try:
                result = bpy.ops.import_scene.gltf(filepath=glb)
            except RuntimeError as e:
                return _fail(self, f"Blender's glTF importer: {e}")
        if "FINISHED" not in result:
            return _fail(self, "Blender's glTF importer did not finish")
        if not self.frames_as_actions:
            for obj in context.selected_objects:
                if obj.animation_data:
                    obj.animation_data_clear()
        return {"FINISHED"}


class _LevelkitExport(_Levelkit, ExportHelper):
    """Blender's glTF exporter, then levelkit from GLB."""

    use_selection: BoolProperty(
        name="Selected only", description="Export the selected objects only", default=False
    )

    def _run(self, context, levelkit):
        _numpy_shim()
        with tempfile.TemporaryDirectory(prefix="levelkit-") as folder:
            glb = os.path.join(folder, "scene.glb")
            try:
                result = bpy.ops.export_scene.gltf(
                    filepath=glb, export_format="GLB", use_selection=self.use_selection
                )
            except RuntimeError as e:
                return _fail(self, f"Blender's glTF exporter: {e}")
            if "FINISHED" not in result:
                return _fail(self, "Blender's glTF exporter did not finish")
            try:
                done = levelkit.open(glb).convert(self.target, self.filepath, force=True)
            except (levelkit.Error, OSError, ValueError) as e:
                return _fail(self, e)
        for note in done.notes[:20]:
            self.report({"WARNING"}, note)
        return {"FINISHED"}


def _operator_class(direction, base, suffix, label, extensions, extra=None):
    """The operator `{direction}_scene.levelkit_{suffix}` on `base`, for files with
    `extensions`."""
    verb = direction.capitalize()
    undo = {"UNDO"} if direction == "import" else set()
    return type(
        f"{direction.upper()}_SCENE_OT_levelkit_{suffix}",
        (base, bpy.types.Operator),
        {
            "bl_idname": f"{direction}_scene.levelkit_{suffix}",
            "bl_label": f"{verb} {label}",
            "bl_description": f"{verb} a {label} file through levelkit",
            "bl_options": {"REGISTER", "PRESET"} | undo,
            "filename_ext": "." + extensions[0],
            **(extra or {}),
            "__annotations__": {
                **base.__annotations__,
                "filter_glob": StringProperty(
                    default=";".join(f"*.{e}" for e in extensions), options={"HIDDEN"}
                ),
            },
        },
    )


CLASSES = [_operator_class("import", _LevelkitImport, *i) for i in IMPORTS] + [
    _operator_class("export", _LevelkitExport, s, label, [t], {"target": t})
    for s, label, t in EXPORTS
]


def _menu_import(self, context):
    for suffix, label, _ in IMPORTS:
        self.layout.operator(f"import_scene.levelkit_{suffix}", text=f"{label} (levelkit)")


def _menu_export(self, context):
    for suffix, label, _ in EXPORTS:
        self.layout.operator(f"export_scene.levelkit_{suffix}", text=f"{label} (levelkit)")


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
