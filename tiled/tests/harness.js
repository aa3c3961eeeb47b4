/*
 * Test harness for the levelkit extension, installed beside it in a throw-away Tiled home by
 * tiled/tests/test_tiled.py. Headless Tiled runs no script of its own choosing, so the harness is
 * a map format: `tiled --export-map lktest ANY.tmx JOB.lktest` calls its `write`, which reads
 * the job (`JOB.lktest.json`), does it with Tiled's scripting API through the levelkit formats,
 * and writes what happened to JOB.lktest as JSON.
 *
 * A job: {"format": "wwd", "level": "in.wwd", "save": "out.wwd" (optional),
 *         "steps": [...]}, each step one of
 *   {"op": "tile", "layer": "Action", "x": 3, "y": 4, "from": [5, 6]}   cell (x, y) := cell (5, 6)
 *   {"op": "move", "layer": "objects", "index": 0, "dx": 64, "dy": 0}
 *   {"op": "type", "layer": "objects", "index": 0, "type": "chestx"}
 *   {"op": "resize", "layer": "layer 0", "width": 70, "height": 64}
 *   {"op": "add", "layer": "objects", "type": "link", "x": 16, "y": 32, "width": 32,
 *    "height": 16, "properties": {"dest": "a.nw"}}
 *   {"op": "resolved", "layer": "objects", "index": -1}   (-1: the last object) records
 *    the object's type, own properties and resolved properties (its type's fields included)
 * The result: {"steps": [...what each recorded...], "error": the save's error or null,
 *              "source": the map's levelkit.source property,
 *              "actions": the extension's registered actions}.
 */
(function () {
    "use strict";

    function layerNamed(map, name) {
        for (var i = 0; i < map.layerCount; i++) {
            if (map.layerAt(i).name === name) return map.layerAt(i);
        }
        throw new Error("no layer " + JSON.stringify(name));
    }

    function objectAt(layer, index) {
        var objects = layer.objects;
        var o = objects[index < 0 ? objects.length + index : index];
        if (!o) throw new Error("no object " + index + " in " + layer.name);
        return o;
    }

    function step(map, s) {
        switch (s.op) {
        case "tile": {
            var layer = layerNamed(map, s.layer);
            var edit = layer.edit();
            edit.setTile(s.x, s.y, layer.tileAt(s.from[0], s.from[1]));
            edit.apply();
            return null;
        }
        case "move": {
            var o = objectAt(layerNamed(map, s.layer), s.index);
            o.x += s.dx;
            o.y += s.dy;
            return null;
        }
        case "type":
            objectAt(layerNamed(map, s.layer), s.index).type = s.type;
            return null;
        case "resize": {
            // TileMap.resize needs a map open in the editor; a layer resizes on its own.
            var tiles = layerNamed(map, s.layer);
            tiles.resize(Qt.size(s.width, s.height));
            return { width: tiles.width, height: tiles.height };
        }
        case "add": {
            var n = new MapObject(s.name || "");
            n.type = s.type;
            n.x = s.x;
            n.y = s.y;
            if (s.width) {
                n.shape = MapObject.Rectangle;
                n.width = s.width;
                n.height = s.height;
            } else {
                n.shape = MapObject.Point;
            }
            var props = s.properties || {};
            Object.keys(props).forEach(function (k) { n.setProperty(k, props[k]); });
            layerNamed(map, s.layer).addObject(n);
            return null;
        }
        case "resolved": {
            var r = objectAt(layerNamed(map, s.layer), s.index);
            var resolved = r.resolvedProperties();
            var kinds = {};
            Object.keys(resolved).forEach(function (k) { kinds[k] = typeof resolved[k]; });
            return { type: r.type, own: r.properties(), resolved: resolved, kinds: kinds };
        }
        default:
            throw new Error("unknown step " + s.op);
        }
    }

    tiled.registerMapFormat("lktest", {
        name: "levelkit test harness",
        extension: "lktest",
        write: function (unused, fileName) {
            var out = { steps: [], error: null, source: null };
            out.actions = tiled.actions.filter(function (a) { return a.indexOf("Levelkit") === 0; });
            try {
                var jobFile = new TextFile(fileName + ".json", TextFile.ReadOnly);
                var job = JSON.parse(jobFile.readAll());
                jobFile.close();
                var format = tiled.mapFormat(job.format);
                var map = format.read(job.level);
                out.source = map.property("levelkit.source");
                (job.steps || []).forEach(function (s) { out.steps.push(step(map, s)); });
                if (job.save) {
                    var error = format.write(map, job.save);
                    out.error = error ? String(error) : null;
                }
            } catch (e) {
                out.error = "harness: " + (e.message || String(e));
            }
            var file = new TextFile(fileName, TextFile.WriteOnly);
            file.write(JSON.stringify(out, null, 1));
            file.commit();
            return undefined;
        },
    });
})();
