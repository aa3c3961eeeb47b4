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
//     `levelkit convert SAMPLE STEM.EXT` (the .glb of cube.wings, room.wmp and world.wdb with
//     their PNG textures included);
//   * the gani player: samples/walk.gani's frames advance, each direction button draws its
//     own picture, the frame list selects a frame;
//   * a PNG dropped alone shows as a picture; the corpus WAD lists its textures and draws one;
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
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const oracles = path.join(process.env.LEVELKIT_ORACLES_BUILD || path.join(os.tmpdir(), 'levelkit-oracles'), 'node');
const { chromium } = require(require.resolve('playwright-core', { paths: [oracles, root] }));

const target = process.env.CARGO_TARGET_DIR || path.join(root, 'target');
const bin = process.env.LEVELKIT_BIN || path.join(target, 'release/levelkit');
const site = process.env.LEVELKIT_SITE || path.join(target, 'site');
const out = process.env.OUT || path.join(target, 'site-tests');
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
    // A map has many tiles; a picture may be one colour (a plain texture) and a gani without
    // its images is magenta and black placeholders: drawn, but few colours.
    if (isMap) check(seen.colours > 3, `${label}: the canvas is nearly blank (${seen.colours} colours)`);
    else check(seen.colours >= 2 && seen.lit > 0.0005, `${label}: the canvas is blank (${seen.colours} colours, ${(seen.lit * 100).toFixed(2)}% drawn)`);
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

// ---- samples: views and downloads -----------------------------------------------------------
const picture = (f) => f.endsWith('.gif') || f.endsWith('.bmp') || f.endsWith('.png');
const samples = fs.readdirSync(path.join(root, 'samples')).filter((f) => !picture(f)).sort();
// The files the samples name (world.wdb's textures, the gani's and the NPCs' pictures, the crate
// room.wmp and quad.wmb place), dropped with each sample as the CLI finds them beside it.
const textures = fs.readdirSync(path.join(root, 'samples')).filter(picture)
  .map((f) => path.join(root, 'samples', f));
// A document dropped as an asset only where a sample names it (a REZ is an asset, so the page
// would open the crate instead of claw.rez).
const named = { 'room.wmp': ['crate.mdl'], 'quad.wmb': ['crate.mdl'] };
const identical = [];
for (const s of samples) {
  const file = path.join(root, 'samples', s);
  const assets = [...textures, ...(named[s] || []).map((f) => path.join(root, 'samples', f))];
  const opened = await viewFile(file, 'samples/' + s, { assets });
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
    // Byte for byte, PNG textures inside .glb included (levelkit deflates what it writes into
    // modern formats with pure Rust it chooses itself, the same in the CLI and WebAssembly).
    if (a.equals(b)) {
      identical.push(`${want} (${a.length} B${t === 'glb' && a.includes(Buffer.from('image/png')) ? ', PNG textures' : ''})`);
      console.log(`samples/${s}: page .${t} == CLI .${t} (${a.length} bytes)`);
    } else {
      fail(`samples/${s}: the page's .${t} (${a.length} bytes) differs from levelkit convert's (${b.length} bytes)`);
    }
  }
  check(problems.length === 0, `samples/${s} downloads: ${problems.join('; ')}`);
  if (s.endsWith('.gani')) await checkGani(s);
}
// The samples whose .glb embeds PNG textures: each must have been compared (and equal) above.
for (const s of ['cube.wings', 'room.wmp', 'world.wdb']) {
  check(identical.some((l) => l.startsWith(s.replace(/\.[^.]*$/, '.glb')) && l.includes('PNG textures')),
    `samples/${s}: no byte-identical .glb with PNG textures`);
}

// A gani plays: frames advance, the canvas is not blank, the direction buttons switch.
async function checkGani(s) {
  const label = `samples/${s} player`;
  const a0 = await page.evaluate(() => window.levelkitAnim && window.levelkitAnim());
  if (!check(a0 && a0.frames > 1 && a0.playing, `${label}: not playing (${JSON.stringify(a0)})`)) return;
  check(a0.directions.join(',') === 'up,left,down,right', `${label}: directions ${a0.directions}`);
  const advanced = await page.waitForFunction((f) => window.levelkitAnim().frame !== f, a0.frame, { timeout: 5000 })
    .then(() => true, () => false);
  check(advanced, `${label}: the frame stays at ${a0.frame}`);
  const digest = () => page.evaluate(() => {
    const { data } = window.levelkitPixels();
    let h = 0;
    for (let i = 0; i < data.length; i += 4) h = (h * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) >>> 0;
    return h;
  });
  // Stop on frame 0 (the frame list), then show each direction.
  await page.click('#frames li[data-frame="0"]');
  const seen = new Map();
  for (const d of ['up', 'left', 'down', 'right']) {
    await page.click(`#anim button[data-dir="${d}"]`);
    const now = await page.evaluate(() => window.levelkitAnim());
    check(now.direction === d && now.frame === 0 && !now.playing, `${label}: after ${d}: ${JSON.stringify(now)}`);
    const seenNow = await look(null);
    check(seenNow.colours > 3 && seenNow.lit > 0.001, `${label} ${d}: the canvas is blank`);
    seen.set(d, await digest());
    await page.locator('#stage').screenshot({ path: path.join(out, `samples_${s}.${d}.png`) });
  }
  check(new Set(seen.values()).size === 4, `${label}: the four directions draw ${new Set(seen.values()).size} different pictures`);
  await page.click('#frames li[data-frame="1"]');
  check((await page.evaluate(() => window.levelkitAnim().frame)) === 1, `${label}: the frame list does not select frame 1`);
  check(await digest() !== seen.get('right'), `${label}: frame 1 draws as frame 0`);
  check(problems.length === 0, `${label}: ${problems.join('; ')}`);
  console.log(`${label}: plays ${a0.frames} frames, 4 directions, each drawn differently`);
}

// ---- a picture dropped alone opens as an image (the CLI's PNG of a sample) -----------------
{
  const png = path.join(tmp, 'island-picture.png');
  execFileSync(bin, ['convert', path.join(root, 'samples', 'island.graal'), png], { stdio: 'ignore' });
  const opened = await viewFile(png, 'island-picture.png (a PNG alone)');
  const info = await page.textContent('#info');
  check(opened && opened.kind === '2d' && /PNG image, \d+ x \d+/.test(info), `a PNG alone: ${info}`);
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

// ---- hostile inputs: the fuzzer's finding and files that claim huge sizes ------------------
{
  const u32 = (n) => { const b = Buffer.alloc(4); b.writeUInt32LE(n >>> 0); return b; };
  const png = (w, h) => {
    // A PNG header claiming a w x h RGBA image, with one tiny IDAT (CRCs left wrong on purpose).
    const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 6;
    const chunk = (t, d) => { const len = Buffer.alloc(4); len.writeUInt32BE(d.length); return Buffer.concat([len, Buffer.from(t), d, Buffer.alloc(4)]); };
    return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', ihdr), chunk('IDAT', Buffer.from([0x78, 0x9c, 3, 0, 0, 0, 0, 1])), chunk('IEND', Buffer.alloc(0))]);
  };
  const gmapFinding = Buffer.concat([Buffer.from('\x0b\nWIDTH  *\\@\r\x0b *\\@\r\x0b\nWIDTH /VELNAMES \0\0 *', 'latin1'),
    Buffer.alloc(30, 'V'), Buffer.from('cannot write'), Buffer.alloc(30, 'V'), Buffer.from('\\@\0', 'latin1')]);
  const cases = [
    ['fuzz-gmap-finding.gmap', gmapFinding],
    ['huge-sprite.gani', Buffer.from('GANI0001\nSPRITE 1 BODY 0 0 2000000000 2000000000 big\n\nANI\n1 0 0\nANIEND\n')],
    ['huge-dims.png', png(100000, 100000)],
    ['huge-directory.wad', Buffer.concat([Buffer.from('WAD7'), u32(0x7fffffff), u32(12)])],
    ['huge-term.wings', Buffer.concat([Buffer.from('#!WINGS-1.0\r\n\x1a\x04', 'latin1'), Buffer.from([0x83, 0x50, 0x7f, 0xff, 0xff, 0xff, 0x78, 0x9c])])],
    ['huge-planes.wwd', Buffer.concat([u32(1524), Buffer.alloc(1520, 0xff)])],
  ];
  for (const [name, bytes] of cases) {
    const f = path.join(tmp, name);
    fs.writeFileSync(f, bytes);
    await fresh();
    const t0 = Date.now();
    const status = await open([f]);
    const alive = await page.evaluate(() => 1 + 1).catch(() => 0) === 2;
    check(alive && (status.startsWith('ok') || status.startsWith('error')), `${name}: ${status}`);
    check(!problems.some((p) => p.startsWith('pageerror')), `${name}: ${problems.join('; ')}`);
    figures.push({ label: 'hostile/' + name, status: `${status.slice(0, 80)} (${Date.now() - t0} ms)` });
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
  const readable = new Set(['.wwd', '.graal', '.nw', '.gani', '.wings', '.wmp', '.$$m', '.pid', '.pcx',
    '.png', '.wad', '.mdl', '.hmp', '.wmb', '.wdb']);
  for (const [ext, f] of [...byType].sort()) {
    const opened = await viewFile(f, 'corpus/' + path.relative(corpus, f), { expect: readable.has(ext) ? 'ok' : 'any' });
    if (opened && ext === '.wad') await checkWad(f);
  }
  // The 640 KB uncompressed Claw level, if the largest .wwd was another.
  const claw = all.find((f) => /RETAIL01_nocompress/i.test(f));
  if (claw && !figures.some((f) => f.label.endsWith(path.basename(claw)))) {
    await viewFile(claw, 'corpus/' + path.relative(corpus, claw));
  }
  // Every V-Chat world folder, dropped whole (its .wdb, palette, hotlinks, manifest and GIF
  // textures): the world opens in 3D with its textures.
  const vchat = path.join(corpus, 'vchat');
  for (const w of fs.existsSync(vchat) ? fs.readdirSync(vchat).sort() : []) {
    const files = all.filter((f) => path.relative(vchat, f).split(path.sep)[0] === w);
    const wdb = files.find((f) => /world\.wdb$/i.test(f));
    if (!wdb) continue;
    await viewFile(wdb, `corpus/vchat/${w} (folder)`, { assets: files.filter((f) => f !== wdb) });
  }
  for (const f of all.filter((f) => /(^|\/)bad\/|badsig/i.test(path.relative(corpus, f)))) {
    await fresh();
    const status = await open([f]);
    check(status.startsWith('ok') || status.startsWith('error'), `corpus bad ${f}: ${status}`);
    check(!problems.some((p) => p.startsWith('pageerror')), `corpus bad ${f}: ${problems.join('; ')}`);
    figures.push({ label: 'corpus/' + path.relative(corpus, f), status: status.slice(0, 90) });
  }
}

// A texture WAD: its texture list, and each texture drawn when clicked.
async function checkWad(f) {
  const label = 'corpus/' + path.relative(corpus, f);
  const names = await page.$$eval('#layers button.texture', (bs) => bs.map((b) => b.textContent));
  if (!check(names.length > 1, `${label}: ${names.length} textures listed`)) return;
  const info = await page.textContent('#info');
  check(/texture WAD, \d+ entries, \d+ textures decoded/.test(info), `${label}: info ${info.slice(0, 80)}`);
  await page.click('#layers button.texture[data-texture="1"]');
  await page.waitForFunction(() => document.querySelector('#layers button.texture.active')?.dataset.texture === '1');
  const seen = await look(null);
  check(seen.colours > 3, `${label}: texture 1 (${names[1]}) is blank`);
  check(await page.$$eval('#downloads button', (bs) => bs.map((b) => b.dataset.target).join(',')) === 'json,png', `${label}: downloads`);
  console.log(`${label}: ${names.length} textures listed, texture 1 (${names[1]}) drawn`);
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
console.log(`\npage downloads byte-identical to the CLI: ${identical.join(', ')}`);
console.log(failures ? `\nweb tests: ${failures} failure(s)` : '\nweb tests: all passed');
process.exit(failures ? 1 : 0);
