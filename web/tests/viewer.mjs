// Browser tests of the levelkit viewer: the built site (web/build.sh) served by `levelkit view`,
// driven in headless Chromium (Debian's, through playwright-core from ../shared/oracles).
//
// For every sample (samples/) and, with LEVELKIT_CORPUS, one file of every type in the corpus
// (the largest of each; plus every file of its bad/ folders): open it through the page's file
// input, wait for the first picture (or the error), screenshot the view, and check
//   * maps: the canvas shows a tile of the map in its atlas colour at the tile's place, and the
//     objects' magenta markers;  3D: the model's silhouette covers the centre of the view;
//     pictures and text views: not blank;
//   * no console error and no uncaught exception on the page;
//   * for the samples: the page's .json, .tmx and .glb downloads are byte-identical to
//     `levelkit convert SAMPLE STEM.EXT`;
//   * hostile inputs (bad/ folders, truncated and mangled samples) show an error, not a frozen
//     or blank page.
// Prints one figure line per file (time to first picture, page JS heap, wasm memory) and writes
// screenshots to $OUT (default target/site-tests).
//
// usage: node web/tests/viewer.mjs   (env: LEVELKIT_BIN, LEVELKIT_SITE, LEVELKIT_CORPUS, CHROMIUM,
//                                     LEVELKIT_ORACLES_BUILD, OUT)
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const oracles = path.join(process.env.LEVELKIT_ORACLES_BUILD || path.join(os.tmpdir(), 'levelkit-oracles'), 'node');
const { chromium } = require(require.resolve('playwright-core', { paths: [oracles, root] }));

const bin = process.env.LEVELKIT_BIN || path.join(root, 'target/release/levelkit');
const site = process.env.LEVELKIT_SITE || path.join(root, 'target/site');
const out = process.env.OUT || path.join(root, 'target/site-tests');
const corpus = process.env.LEVELKIT_CORPUS || '';
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'levelkit-web-'));

function findChromium() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const n of ['chromium', 'chromium-browser', 'google-chrome']) {
    for (const d of (process.env.PATH || '').split(path.delimiter)) {
      const p = path.join(d, n);
      try { fs.accessSync(p, fs.constants.X_OK); return p; } catch (e) { /* next */ }
    }
  }
  throw new Error('no chromium on PATH (apt-get install chromium)');
}

let failures = 0;
function fail(message) { failures++; console.log('FAIL ' + message); }
function check(ok, message) { if (!ok) fail(message); return ok; }

// ---- the server -----------------------------------------------------------------------------
const server = spawn(bin, ['view', '--no-open', '--site', site], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = text.match(/(http:\/\/127\.0\.0\.1:\d+\/)/);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`levelkit view exited (${code})`)));
  setTimeout(() => reject(new Error('levelkit view printed no URL')), 10000);
});

const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-profile-'));
const ctx = await chromium.launchPersistentContext(udd, {
  executablePath: findChromium(), headless: true, acceptDownloads: true,
  args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--use-angle=swiftshader',
         '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'],
  viewport: { width: 1100, height: 700 } });
const page = ctx.pages()[0] || await ctx.newPage();
const problems = [];
page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
page.on('pageerror', (e) => problems.push('pageerror: ' + e.message));
const cdp = await ctx.newCDPSession(page);
await cdp.send('Performance.enable');

async function fresh() {
  problems.length = 0;
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'idle');
}

async function open(files) {
  await page.setInputFiles('#files', files);
  await page.waitForFunction(() => {
    const s = document.getElementById('status').textContent;
    return s.startsWith('ok') || s.startsWith('error');
  }, null, { timeout: 60000 });
  return page.textContent('#status');
}

// What the view shows: colour spread, magenta marker pixels, the centre's difference from the
// background, the colour at a probe point.
async function look(probe) {
  return page.evaluate((probe) => {
    const img = window.levelkitPixels();
    if (!img) return null;
    const { width, height, data } = img;
    const colours = new Set();
    let magenta = 0, lit = 0;
    const bg = [data[0], data[1], data[2]];
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if ((i >> 2) % 7 === 0) colours.add((r << 16) | (g << 8) | b);
      if (r > 200 && g < 60 && b > 200) magenta++;
      if (Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]) > 24) lit++;
    }
    const at = (x, y) => { const i = (y * width + x) * 4; return [data[i], data[i + 1], data[i + 2], data[i + 3]]; };
    let centre = 0;
    for (let dy = -20; dy <= 20; dy += 5) for (let dx = -20; dx <= 20; dx += 5) {
      const c = at((width >> 1) + dx, (height >> 1) + dy);
      if (Math.abs(c[0] - bg[0]) + Math.abs(c[1] - bg[1]) + Math.abs(c[2] - bg[2]) > 24) centre++;
    }
    return { width, height, colours: colours.size, magenta, lit: lit / (width * height), centre,
             probe: probe ? at(probe.x, probe.y) : null };
  }, probe);
}

async function metrics() {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const wasm = await page.evaluate(() => window.levelkitMemory());
  return { heap, wasm };
}

const figures = [];
const mb = (n) => (n / 1048576).toFixed(1);

async function viewFile(file, label, { expect = 'ok', assets = [] } = {}) {
  await fresh();
  const status = await open([file, ...assets]);
  const name = path.basename(file);
  const shot = path.join(out, `${label.replace(/[^A-Za-z0-9._-]+/g, '_')}.png`);
  await page.locator('#stage').screenshot({ path: shot });
  if (expect === 'error' || (expect === 'any' && status.startsWith('error'))) {
    const shown = await page.evaluate(() => !document.getElementById('error').hidden &&
      document.getElementById('error').textContent.length > 0);
    check(status.startsWith('error') && shown, `${label}: should show an error (status: ${status})`);
    check(await page.evaluate(() => 1 + 1) === 2, `${label}: the page stopped answering`);
    figures.push({ label, status: status.slice(0, 90) });
    return null;
  }
  if (!check(status.startsWith('ok'), `${label}: ${status}`)) {
    figures.push({ label, status: status.slice(0, 90) });
    return null;
  }
  const info = await page.evaluate(() => window.levelkitTiming);
  const kind = await page.evaluate(() => !document.getElementById('view2d').hidden ? '2d'
    : !document.getElementById('view3d').hidden ? '3d' : 'text');
  if (kind === '2d') {
    const probe = await page.evaluate(() => window.levelkitProbe());
    const seen = await look(probe);
    const isMap = await page.evaluate(() => document.querySelectorAll('#layers input').length > 0);
    check(seen.colours > 3, `${label}: the canvas is nearly blank (${seen.colours} colours)`);
    if (isMap) {
      if (check(probe, `${label}: no tile to probe`)) {
        const d = probe.rgba.slice(0, 3).reduce((s, v, i) => s + Math.abs(v - seen.probe[i]), 0);
        check(d <= 12, `${label}: tile ${probe.tile} of ${probe.layer} at (${probe.x},${probe.y}) is ${seen.probe} on the canvas, ${probe.rgba} in its atlas`);
      }
      const objects = await page.evaluate(() => [...document.querySelectorAll('#layers label')]
        .some((l) => /\((\d+) objects\)/.test(l.textContent) && !/\(0 objects\)/.test(l.textContent)));
      if (objects) check(seen.magenta > 0, `${label}: objects are not highlighted`);
    }
  } else if (kind === '3d') {
    await page.waitForTimeout(200);
    const seen = await look(null);
    check(seen.centre > 10, `${label}: no model silhouette at the centre of the view (${seen.centre}/81)`);
    check(seen.lit > 0.01, `${label}: the 3D view is blank`);
  } else {
    const text = await page.textContent('#textview');
    check(text.length > 20, `${label}: empty text view`);
  }
  const mem = await metrics();
  check(problems.length === 0, `${label}: ${problems.join('; ')}`);
  figures.push({ label, status: 'ok', kind, ms: info.firstPictureMs, heap: mem.heap, wasm: mem.wasm, size: fs.statSync(file).size });
  return { name, kind };
}

// Two GLBs equal but for the deflate streams of their PNG images: the same JSON once buffer
// view sizes and offsets are set aside, the same non-image bytes, and the same inflated image data.
const deflateOnly = [];
function glbParts(buf) {
  const jsonLen = buf.readUInt32LE(12);
  const json = JSON.parse(buf.subarray(20, 20 + jsonLen).toString('utf8'));
  const bin = buf.subarray(20 + jsonLen + 8);
  const views = (json.bufferViews || []).map((v) => bin.subarray(v.byteOffset || 0, (v.byteOffset || 0) + v.byteLength));
  const imageViews = new Set((json.images || []).map((i) => i.bufferView));
  return { json, views, imageViews };
}
function sameGlbButDeflate(a, b) {
  try {
    const [x, y] = [glbParts(a), glbParts(b)];
    const strip = (j) => JSON.stringify({ ...j, buffers: (j.buffers || []).map(() => 0),
      bufferViews: (j.bufferViews || []).map(({ byteOffset, byteLength, ...rest }) => rest) });
    if (strip(x.json) !== strip(y.json) || x.views.length !== y.views.length) return false;
    return x.views.every((v, i) => {
      if (!x.imageViews.has(i)) return v.equals(y.views[i]);
      // Chunks other than IDAT must match; the IDAT streams must inflate to the same bytes.
      const chunks = (png) => { const out = { idat: [], other: [] };
        for (let k = 8; k + 8 <= png.length;) { const len = png.readUInt32BE(k), type = png.toString('latin1', k + 4, k + 8);
          (type === 'IDAT' ? out.idat : out.other).push(type === 'IDAT' ? png.subarray(k + 8, k + 8 + len) : png.subarray(k + 4, k + 8 + len));
          k += 12 + len; }
        return out; };
      const [p, q] = [chunks(v), chunks(y.views[i])];
      return p.other.length === q.other.length && p.other.every((c, k) => c.equals(q.other[k])) &&
        zlib.inflateSync(Buffer.concat(p.idat)).equals(zlib.inflateSync(Buffer.concat(q.idat)));
    });
  } catch (e) {
    return false;
  }
}

// ---- samples: views and downloads -----------------------------------------------------------
const samples = fs.readdirSync(path.join(root, 'samples')).filter((f) => !f.endsWith('.bmp')).sort();
// The textures beside the samples (world.wdb's), dropped with each sample as the CLI finds them
// beside it.
const textures = fs.readdirSync(path.join(root, 'samples')).filter((f) => f.endsWith('.bmp'))
  .map((f) => path.join(root, 'samples', f));
for (const s of samples) {
  const file = path.join(root, 'samples', s);
  const opened = await viewFile(file, 'samples/' + s, { assets: textures });
  if (!opened) continue;
  const targets = await page.evaluate(() => [...document.querySelectorAll('#downloads button')].map((b) => b.dataset.target));
  const stem = s.replace(/\.[^.]*$/, '');
  for (const t of ['json', 'tmx', 'glb']) {
    if (!targets.includes(t)) continue;
    const want = `${stem}.${t}`;
    const [download] = await Promise.all([
      page.waitForEvent('download', { predicate: (d) => d.suggestedFilename() === want, timeout: 60000 }),
      page.click(`#downloads button[data-target="${t}"]`),
    ]);
    const got = path.join(tmp, 'page-' + want);
    await download.saveAs(got);
    const dir = fs.mkdtempSync(path.join(tmp, 'cli-'));
    execFileSync(bin, ['convert', file, path.join(dir, want)], { stdio: ['ignore', 'ignore', 'ignore'] });
    const [a, b] = [fs.readFileSync(got), fs.readFileSync(path.join(dir, want))];
    if (a.equals(b)) {
      console.log(`samples/${s}: page .${t} == CLI .${t} (${a.length} bytes)`);
    } else if (t === 'glb' && sameGlbButDeflate(a, b)) {
      // The WebAssembly build deflates with pure Rust (no C zlib there): embedded PNG textures
      // hold the same pixels in other deflate bytes; everything else must be equal.
      deflateOnly.push(`samples/${s}.glb`);
      console.log(`samples/${s}: page .glb == CLI .glb except the PNG textures' deflate bytes (same pixels)`);
    } else {
      fail(`samples/${s}: the page's .${t} differs from levelkit convert's`);
    }
  }
  check(problems.length === 0, `samples/${s} downloads: ${problems.join('; ')}`);
}

// ---- `levelkit view FILE`: the page opens the file the command names ------------------------
{
  const named = path.join(root, 'samples', 'island.graal');
  const second = spawn(bin, ['view', '--no-open', '--site', site, named], { stdio: ['ignore', 'pipe', 'inherit'] });
  const fileUrl = await new Promise((resolve, reject) => {
    let text = '';
    second.stdout.on('data', (d) => { text += d; const m = text.match(/(http:\/\/127\.0\.0\.1:\d+\/\S*)/); if (m) resolve(m[1]); });
    setTimeout(() => reject(new Error('levelkit view FILE printed no URL')), 10000);
  });
  problems.length = 0;
  await page.goto(fileUrl);
  await page.waitForFunction(() => /^(ok|error)/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
  const status = await page.textContent('#status');
  const active = await page.textContent('#list li.active').catch(() => '');
  check(status.startsWith('ok') && active === 'island.graal', `levelkit view samples/island.graal: ${status}, opened ${active}`);
  if (status.startsWith('ok')) console.log(`levelkit view samples/island.graal: the page opened it (${status})`);
  second.kill();
}

// ---- hostile inputs: truncated and mangled samples ------------------------------------------
for (const s of samples.filter((f) => /\.(wwd|graal|wings|wdb|wmp|gani|nw)$/.test(f))) {
  const bytes = fs.readFileSync(path.join(root, 'samples', s));
  const cut = path.join(tmp, 'cut-' + s);
  fs.writeFileSync(cut, bytes.subarray(0, Math.max(8, bytes.length >> 1)).slice(0, Math.min(bytes.length - 1, Math.max(8, bytes.length >> 1))));
  const mangled = path.join(tmp, 'mangled-' + s);
  const m = Buffer.from(bytes);
  for (let i = 8; i < m.length; i += 7) m[i] = 0xff;
  fs.writeFileSync(mangled, m);
  for (const f of [cut, mangled]) {
    await fresh();
    const status = await open([f]);
    // A mangled file may still read (text formats, values in range): then it must show.
    const shown = await page.evaluate(() => !document.getElementById('error').hidden || document.getElementById('status').textContent.startsWith('ok'));
    check(shown && (status.startsWith('ok') || status.startsWith('error')), `${path.basename(f)}: neither a picture nor an error (${status})`);
    check(!problems.some((p) => p.startsWith('pageerror')), `${path.basename(f)}: ${problems.join('; ')}`);
    figures.push({ label: 'hostile/' + path.basename(f), status: status.slice(0, 90) });
  }
}

// ---- the corpus: the largest file of each type, and every bad/ file -------------------------
if (corpus && fs.existsSync(corpus)) {
  const all = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p); else all.push(p);
  } };
  walk(corpus);
  const byType = new Map();
  for (const f of all) {
    const rel = path.relative(corpus, f);
    if (/(^|\/)bad\/|badsig|\.(md|tsv)$/i.test(rel)) continue;
    const ext = path.extname(f).toLowerCase();
    const best = byType.get(ext);
    if (!best || fs.statSync(f).size > fs.statSync(best).size) byType.set(ext, f);
  }
  // levelkit reads these types; the others (images, formats being added) must show a picture
  // or an error, never a blank or frozen page.
  const readable = new Set(['.wwd', '.graal', '.nw', '.gani', '.wings', '.wmp', '.$$m', '.pid', '.pcx']);
  for (const [ext, f] of [...byType].sort()) {
    await viewFile(f, 'corpus/' + path.relative(corpus, f), { expect: readable.has(ext) ? 'ok' : 'any' });
  }
  // The 640 KB uncompressed Claw level, if the largest .wwd was another.
  const claw = all.find((f) => /RETAIL01_nocompress/i.test(f));
  if (claw && !figures.some((f) => f.label.endsWith(path.basename(claw)))) {
    await viewFile(claw, 'corpus/' + path.relative(corpus, claw));
  }
  for (const f of all.filter((f) => /(^|\/)bad\/|badsig/i.test(path.relative(corpus, f)))) {
    await fresh();
    const status = await open([f]);
    check(status.startsWith('ok') || status.startsWith('error'), `corpus bad ${f}: ${status}`);
    check(!problems.some((p) => p.startsWith('pageerror')), `corpus bad ${f}: ${problems.join('; ')}`);
    figures.push({ label: 'corpus/' + path.relative(corpus, f), status: status.slice(0, 90) });
  }
}

// ---- report ---------------------------------------------------------------------------------
console.log('\nfile\tstatus\tview\tbytes\tfirst picture ms\tJS heap MB\twasm memory MB');
for (const f of figures) {
  console.log([f.label, f.status, f.kind || '', f.size ?? '', f.ms !== undefined ? f.ms.toFixed(0) : '',
    f.heap !== undefined ? mb(f.heap) : '', f.wasm !== undefined ? mb(f.wasm) : ''].join('\t'));
}
await ctx.close();
server.kill();
fs.rmSync(udd, { recursive: true, force: true });
fs.rmSync(tmp, { recursive: true, force: true });
if (deflateOnly.length) console.log(`\nequal but for PNG deflate bytes: ${deflateOnly.join(', ')}`);
console.log(failures ? `\nweb tests: ${failures} failure(s)` : '\nweb tests: all passed');
process.exit(failures ? 1 : 0);
