/*
 * levelkit for Tiled: Captain Claw and Gruntz levels (.wwd) and Graal levels (.graal, .zelda,
 * .nw) open and save in Tiled like its own maps. levelkit does the bytes: opening runs
 * `levelkit tiled open LEVEL` (a Tiled map and its tilesets in levelkit's cache) and loads that
 * map with Tiled's own TMX reader; saving writes the map with Tiled's own TMX writer to a
 * temporary file in the cache and runs `levelkit convert MAP LEVEL`, which checks it, writes
 * the level whole (a temporary file renamed over the old one) or refuses with the reason, the
 * level on disk unchanged. An unedited level saves back byte for byte.
 *
 * Installed by `levelkit tiled install`. Needs Tiled 1.8 or later and levelkit on the PATH, or
 * the program named in the settings.
 *
 * Settings, all optional, as JSON:
 *   levelkit.json beside this file (Tiled's extensions folder), for every level:
 *     {"levelkit": "/path/to/levelkit",
 *      "game": "/games/CLAW/CLAW.REZ",          WWD: the game's REZ or an extracted folder
 *      "tiles": "/graal/pics1.png",              tile graphics (Graal's pics1.png)
 *      "images": "/graal/images"}                Graal: the images NPCs name
 *   levelkit-tiled.json in a level's folder or any folder above it, for the levels under it
 *   (paths relative to that file's folder); its keys win over the global ones. Keys may also be
 *   given per format: {"wwd": {"game": "CLAW.REZ"}, "graal": {"tiles": "pics1.png"}}
 *   ("graal" also covers .zelda and .nw).
 * The menu Edit > "levelkit: Game Graphics..." and "levelkit: Program..." set the global ones.
 *
 * A level's path is kept in the map property `levelkit.source` (Tiled does not tell a
 * format's `write` where the map came from); levelkit ignores it when it writes the level.
 */

(function () {
    "use strict";

    /** The oldest levelkit with what this extension runs (`tiled open`). */
    var NEEDS = [0, 1, 0];
    var SOURCE_PROPERTY = "levelkit.source";

    function settingsPath() {
        return FileInfo.joinPaths(tiled.extensionsPath, "levelkit.json");
    }

    function readJson(path) {
        if (!File.exists(path)) return null;
        var file = new TextFile(path, TextFile.ReadOnly);
        var text = file.readAll();
        file.close();
        try {
            return JSON.parse(text);
        } catch (e) {
            throw new Error("levelkit: " + path + " is not valid JSON: " + e.message);
        }
    }

    function globalSettings() {
        return readJson(settingsPath()) || {};
    }

    function saveGlobalSettings(settings) {
        File.makePath(tiled.extensionsPath);
        var file = new TextFile(settingsPath(), TextFile.WriteOnly);
        file.write(JSON.stringify(settings, null, 2) + "\n");
        file.commit();
    }

    /** The format's key in the settings. */
    function family(fileName) {
        return FileInfo.suffix(fileName).toLowerCase() === "wwd" ? "wwd" : "graal";
    }

    /** A setting's path made absolute against `dir`. */
    function resolve(dir, path) {
        if (!path || FileInfo.isAbsolutePath(path)) return path;
        return FileInfo.cleanPath(FileInfo.joinPaths(dir, path));
    }

    /** The nearest levelkit-tiled.json above `fileName`, with its paths made absolute. */
    function projectSettings(fileName) {
        var dir = FileInfo.path(FileInfo.cleanPath(fileName));
        for (var depth = 0; depth < 64; depth++) {
            var candidate = FileInfo.joinPaths(dir, "levelkit-tiled.json");
            if (File.exists(candidate)) {
                var found = readJson(candidate) || {};
                var resolved = {};
                ["game", "tiles", "images", "levelkit"].forEach(function (key) {
                    if (found[key]) resolved[key] = resolve(dir, found[key]);
                });
                ["wwd", "graal"].forEach(function (fam) {
                    if (!found[fam]) return;
                    resolved[fam] = {};
                    ["game", "tiles", "images"].forEach(function (key) {
                        if (found[fam][key]) resolved[fam][key] = resolve(dir, found[fam][key]);
                    });
                });
                return resolved;
            }
            var up = FileInfo.path(dir);
            if (!up || up === dir) break;
            dir = up;
        }
        return {};
    }

    /** The settings for one level: the global file, then the level's project, per format. */
    function settingsFor(fileName) {
        var fam = family(fileName);
        var merged = {};
        [globalSettings(), projectSettings(fileName)].forEach(function (s) {
            ["levelkit", "game", "tiles", "images"].forEach(function (key) {
                if (s[key]) merged[key] = s[key];
            });
            if (s[fam]) {
                ["game", "tiles", "images"].forEach(function (key) {
                    if (s[fam][key]) merged[key] = s[fam][key];
                });
            }
        });
        return merged;
    }

    function run(program, args) {
        var process = new Process();
        var code = process.exec(program, args, false);
        return { code: code, out: process.readStdOut(), err: process.readStdErr() };
    }

    /** levelkit's own error message (it names the file and the place), else what failed. */
    function failure(result, what) {
        var text = (result.err || "").trim() || (result.out || "").trim();
        text = text.replace(/^levelkit: /gm, "");
        return "levelkit: " + (text || what + " (exit " + result.code + ")");
    }

    var checked = {};

    /** The levelkit program to run, checked once per Tiled session to be there and new enough. */
    function levelkit(settings) {
        var program = settings.levelkit || "levelkit";
        if (checked[program]) return program;
        var result;
        try {
            result = run(program, ["--version"]);
        } catch (e) {
            result = { code: -1, out: "", err: String(e) };
        }
        var match = /levelkit (\d+)\.(\d+)\.(\d+)/.exec(result.out || "");
        if (result.code !== 0 || !match) {
            throw new Error(
                "levelkit: the program \"" + program + "\" was not found or did not run " +
                "(exit " + result.code + "). Install levelkit and put it on the PATH, or name " +
                "it in Edit > levelkit: Program... (" + settingsPath() + ").");
        }
        var have = [Number(match[1]), Number(match[2]), Number(match[3])];
        for (var i = 0; i < 3; i++) {
            if (have[i] > NEEDS[i]) break;
            if (have[i] < NEEDS[i]) {
                throw new Error(
                    "levelkit: \"" + program + "\" is levelkit " + have.join(".") +
                    "; this extension needs " + NEEDS.join(".") + " or later.");
            }
        }
        checked[program] = true;
        return program;
    }

    function warn(lines) {
        (lines || []).forEach(function (line) {
            if (line) tiled.warn("levelkit: " + String(line).replace(/^levelkit: /, ""));
        });
    }

    function stderrLines(text) {
        return (text || "").split("\n").filter(function (l) { return l.trim() !== ""; });
    }

    function readLevel(fileName) {
        var settings = settingsFor(fileName);
        var program = levelkit(settings);
        var args = ["tiled", "open", fileName, "--json"];
        ["game", "tiles", "images"].forEach(function (key) {
            if (settings[key]) args.push("--" + key, settings[key]);
        });
        var result = run(program, args);
        if (result.code !== 0) throw new Error(failure(result, "cannot open " + fileName));
        var report = JSON.parse(result.out);
        warn(stderrLines(result.err));
        warn(report.warnings);
        var map = tiled.mapFormat("tmx").read(report.map);
        if (!map) throw new Error("levelkit: Tiled could not read the map levelkit made, " + report.map);
        map.setProperty(SOURCE_PROPERTY, fileName);
        return map;
    }

    function writeLevel(map, fileName) {
        var temp = null;
        try {
            var source = map.property(SOURCE_PROPERTY);
            var settings = settingsFor(source || fileName);
            var program = levelkit(settings);
            var cache = run(program, ["tiled", "cache"]);
            if (cache.code !== 0) return failure(cache, "no cache folder");
            var dir = FileInfo.joinPaths(cache.out.trim(), "save");
            File.makePath(dir);
            temp = FileInfo.joinPaths(dir, Date.now() + "-" + Math.floor(Math.random() * 1e9) +
                "-" + FileInfo.completeBaseName(fileName) + ".tmx");
            var error = tiled.mapFormat("tmx").write(map, temp);
            if (error) return "levelkit: Tiled could not write the map for levelkit: " + error;
            var result = run(program, ["convert", temp, fileName, "--force", "--json"]);
            if (result.code !== 0) {
                return failure(result, "cannot save " + fileName).split(temp).join("the map");
            }
            try {
                warn(JSON.parse(result.out).warnings);
            } catch (e) {
                warn(stderrLines(result.out));
            }
            warn(stderrLines(result.err));
            return undefined;
        } catch (e) {
            return e.message || String(e);
        } finally {
            if (temp && File.exists(temp)) File.remove(temp);
        }
    }

    function format(name, extension) {
        return {
            name: name,
            extension: extension,
            read: readLevel,
            write: writeLevel,
        };
    }

    tiled.registerMapFormat("wwd", format("Captain Claw / Gruntz level (levelkit)", "wwd"));
    tiled.registerMapFormat("graal", format("Graal level (levelkit)", "graal"));
    tiled.registerMapFormat("zelda", format("Graal level, Zelda (levelkit)", "zelda"));
    tiled.registerMapFormat("nw", format("Graal text level (levelkit)", "nw"));

    function askPath(label, key) {
        var settings = globalSettings();
        var value = tiled.prompt(label, settings[key] || "", "levelkit");
        if (value === undefined || value === null) return;
        if (value === "") delete settings[key];
        else settings[key] = value;
        saveGlobalSettings(settings);
    }

    try {
        var gameAction = tiled.registerAction("LevelkitGame", function () {
            askPath("The game's REZ archive or extracted folder (WWD tiles and sprites):", "game");
        });
        gameAction.text = "levelkit: Game Graphics...";
        var programAction = tiled.registerAction("LevelkitProgram", function () {
            askPath("The levelkit program (empty: levelkit on the PATH):", "levelkit");
        });
        programAction.text = "levelkit: Program...";
        tiled.extendMenu("Edit", [
            { separator: true },
            { action: "LevelkitGame" },
            { action: "LevelkitProgram" },
        ]);
    } catch (e) {
        // Headless Tiled (--export-map) has no menus; the formats above are what it needs.
    }
})();
