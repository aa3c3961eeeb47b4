// The levelkit viewer page: files in (drop, file picker, folder picker), levelkit in a Web Worker
// (worker.js, the library compiled to WebAssembly), and three views of what it answers: a 2D
// canvas for tile maps (the library's common tile map and atlases), a three.js orbit view for 3D
// models (the library's .glb), and text for everything else. Nothing here knows a file format:
// kinds, targets, fields and pictures all come from the library.
//
// #status is "pending" while a file is opened, then "ok first-picture <ms> ms" or "error <text>"
// (the browser tests wait on it).

const $ = (id) => document.getElementById(id);
const TIMEOUT_MS = 30000;

// ---- the worker -----------------------------------------------------------------------------

let worker = null;
let nextId = 1;
const pending = new Map();
const allFiles = []; // {name, bytes} of everything dropped, to refill a restarted worker

function startWorker() {
  worker = new Worker('worker.js', { type: 'module' });
  worker.onmessage = (event) => {
    const p = pending.get(event.data.id);
    if (!p) return;
    pending.delete(event.data.id);
    clearTimeout(p.timer);
    if (event.data.ok) p.resolve(event.data);
    else p.reject(event.data.error);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    restartWorker({ kind: 'crash', message: event.message || 'the worker stopped' });
  };
}

// A worker that traps or runs too long is replaced; every waiting call fails with `error`.
function restartWorker(error) {
  worker.terminate();
  for (const p of pending.values()) { clearTimeout(p.timer); p.reject(error); }
  pending.clear();
  startWorker();
  const copies = allFiles.map((f) => ({ name: f.name, bytes: f.bytes.slice(0) }));
  if (copies.length) call('add', { files: copies }, copies.map((f) => f.bytes)).catch(() => {});
}

function call(op, args = {}, transfer = []) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      restartWorker({ kind: 'timeout', message: `levelkit took longer than ${TIMEOUT_MS / 1000} s (${op}); stopped` });
    }, TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    worker.postMessage({ id, op, ...args }, transfer);
  });
}

// ---- files in -------------------------------------------------------------------------------

const docs = []; // names of dropped files that levelkit reads

let dropStarted = null; // when the files that opened the current document were dropped

async function addFiles(fileList) {
  dropStarted = performance.now();
  const files = [];
  for (const f of fileList) files.push({ name: f.name, bytes: await f.arrayBuffer() });
  if (!files.length) return;
  for (const f of files) {
    const i = allFiles.findIndex((g) => g.name.toLowerCase() === f.name.toLowerCase());
    if (i >= 0) allFiles.splice(i, 1);
    allFiles.push({ name: f.name, bytes: f.bytes.slice(0) });
  }
  const { sniffed } = await call('add', { files }, files.map((f) => f.bytes));
  let first = null;
  for (const s of sniffed) {
    // Images are assets (tile atlases, textures) unless they are the only thing dropped.
    const asset = s.asset;
    if (!docs.includes(s.name) && !(asset && sniffed.length > 1)) docs.push(s.name);
    if (!first && !asset) first = s.name;
  }
  first = first || (sniffed[0] && sniffed[0].name);
  renderList(sniffed);
  if (first) await openDoc(first);
}

function renderList(sniffed) {
  const list = $('list');
  list.textContent = '';
  for (const f of allFiles) {
    const li = document.createElement('li');
    li.textContent = f.name;
    const isDoc = docs.includes(f.name);
    li.className = isDoc ? 'doc' : 'asset';
    li.dataset.name = f.name;
    // Assets open too (a WAD's textures, an image), as when dropped alone.
    li.onclick = () => openDoc(f.name);
    const s = sniffed.find((x) => x.name === f.name);
    if (s) li.title = s.format || 'not a levelkit format';
    list.appendChild(li);
  }
}

async function filesOfEntry(entry, out) {
  if (entry.isFile) {
    out.push(await new Promise((res, rej) => entry.file(res, rej)));
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const e of batch) await filesOfEntry(e, out);
    }
  }
}

document.addEventListener('dragover', (e) => { e.preventDefault(); });
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  const out = [];
  const items = [...(e.dataTransfer.items || [])];
  const entries = items.map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
  if (entries.length) for (const entry of entries) await filesOfEntry(entry, out);
  else out.push(...e.dataTransfer.files);
  addFiles(out).catch(showError);
});
$('files').addEventListener('change', (e) => addFiles(e.target.files).catch(showError));
$('folder').addEventListener('change', (e) => addFiles(e.target.files).catch(showError));

// ---- one document ---------------------------------------------------------------------------

let current = null; // {name, info, started}
let view3d = null;

function setStatus(text) { $('status').textContent = text; }

function errorText(e) {
  if (!e) return 'unknown error';
  if (typeof e === 'string') return e;
  const where = [];
  const loc = e.location || {};
  if (loc.offset !== undefined && loc.offset !== null) where.push(`offset ${loc.offset} (0x${Number(loc.offset).toString(16)})`);
  if (loc.line_col) where.push(`line ${loc.line_col[0]}, column ${loc.line_col[1]}`);
  if (loc.path) where.push(`at ${loc.path}`);
  return `${e.kind ? e.kind + ': ' : ''}${e.message || String(e)}${where.length ? '\n' + where.join(', ') : ''}`;
}

function showError(e) {
  const text = errorText(e);
  $('error').textContent = text;
  $('error').hidden = false;
  setStatus('error ' + text.split('\n')[0]);
}

function resetViews() {
  for (const id of ['view2d', 'view3d', 'textview', 'error', 'fields']) $(id).hidden = true;
  $('drop').hidden = true;
  $('layers').textContent = '';
  $('notes').textContent = '';
  $('downloads').textContent = '';
  $('findings').textContent = '';
  $('info').textContent = '';
  if (view3d) { view3d.dispose(); view3d = null; }
  stopAnim();
  $('anim').hidden = true;
  map2d = null;
}

// The picture is drawn: its time is taken now; the status says so once the info, findings and
// downloads are there too (openDoc).
function firstPicture() {
  const ms = performance.now() - (current.dropStarted ?? current.started);
  current.firstPictureMs = ms;
  window.levelkitTiming = { name: current.name, firstPictureMs: ms };
}

async function openDoc(name) {
  current = { name, started: performance.now(), dropStarted };
  dropStarted = null;
  for (const li of $('list').children) li.classList.toggle('active', li.dataset.name === name);
  resetViews();
  setStatus('pending');
  try {
    // The picture first; the info (whose download targets try each conversion) and the
    // validation findings after it.
    const { kind } = await call('open', { name });
    if (current.name !== name) return;
    let details = null;
    const showDetails = async () => {
      details = details || await call('details', { name });
      if (current.name !== name) return;
      current.info = details.info;
      $('info').textContent = details.info.text;
      renderFindings(details.findings);
      renderDownloads(name, details.info.targets);
    };
    if (kind === 'map') await showMap(name);
    else if (kind === 'scene') await showScene(name);
    else if (kind === 'picture') await showPicture(name);
    else if (kind === 'animation') await showGani(name);
    else if (kind === 'image' || kind === 'wad') {
      details = await call('details', { name });
      await showAsset(name, details.info);
    } else await showText(name);
    if (current.name !== name) return;
    await showDetails();
    if (current.name === name && current.firstPictureMs !== undefined) {
      setStatus(`ok first-picture ${current.firstPictureMs.toFixed(0)} ms`);
    }
  } catch (e) {
    if (current.name === name) showError(e);
  }
}

function renderFindings(findings) {
  const ul = $('findings');
  if (!findings.length) {
    const li = document.createElement('li');
    li.textContent = 'no findings';
    ul.appendChild(li);
  }
  for (const f of findings) {
    const li = document.createElement('li');
    li.className = f.severity;
    li.textContent = `${f.severity}: ${f.message}${f.location && f.location.path ? ' (' + f.location.path + ')' : ''}`;
    ul.appendChild(li);
  }
}

function notes(list) {
  for (const n of list || []) {
    const li = document.createElement('li');
    li.textContent = n;
    $('notes').appendChild(li);
  }
}

function save(name, bytes) {
  const url = URL.createObjectURL(new Blob([bytes]));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function stemOf(name) { const i = name.lastIndexOf('.'); return i > 0 ? name.slice(0, i) : name; }

function renderDownloads(name, targets) {
  for (const t of targets) {
    const b = document.createElement('button');
    b.textContent = '.' + t;
    b.dataset.target = t;
    b.onclick = async () => {
      try {
        const { result } = await call('convert', { name, target: t, index: current.texture || 0 });
        notes(result.notes);
        // Some conversions are all side files (a gani's four directions).
        if (result.main.length || !result.side.length) save(result.file || `${stemOf(name)}.${t}`, result.main);
        for (const s of result.side) save(s.name, s.bytes);
      } catch (e) { showError(e); }
    };
    $('downloads').appendChild(b);
  }
}

async function showText(name) {
  const { text } = await call('dump', { name });
  $('textview').textContent = text;
  $('textview').hidden = false;
  firstPicture();
}

async function showPicture(name) {
  const { result } = await call('convert', { name, target: 'png' });
  const bitmap = await createImageBitmap(new Blob([result.main], { type: 'image/png' }));
  const canvas = $('view2d');
  canvas.hidden = false;
  map2d = { picture: bitmap, camera: { x: 0, y: 0, zoom: 1 }, layers: [] };
  fitCanvas();
  drawMap();
  firstPicture();
}

// ---- images and texture WADs ----------------------------------------------------------------

async function showAsset(name, info) {
  const textures = info.textures || [];
  if (info.kind === 'wad') {
    const box = $('layers');
    textures.forEach((t, i) => {
      const b = document.createElement('button');
      b.className = 'texture';
      b.textContent = t;
      b.dataset.texture = i;
      b.onclick = () => showTexture(name, i).catch(showError);
      box.appendChild(b);
    });
  }
  await showTexture(name, 0);
  firstPicture();
}

async function showTexture(name, index) {
  const { result } = await call('texture', { name, index });
  if (current.name !== name) return;
  current.texture = index;
  for (const b of $('layers').querySelectorAll('button.texture')) b.classList.toggle('active', Number(b.dataset.texture) === index);
  const { width, height, rgba } = result;
  if (!width || !height) throw { kind: 'error', message: `${name}: texture ${index} has no pixels` };
  const bitmap = await createImageBitmap(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength), width, height));
  const canvas = $('view2d');
  canvas.hidden = false;
  fitCanvas();
  const fit = Math.min(canvas.width / width, canvas.height / height);
  const zoom = fit >= 1 ? Math.min(8, Math.floor(fit)) : fit;
  map2d = { picture: bitmap, camera: { x: -(canvas.width / zoom - width) / 2, y: -(canvas.height / zoom - height) / 2, zoom }, layers: [] };
  drawMap();
}

// ---- ganis ----------------------------------------------------------------------------------

let anim = null; // {dirs: [{direction, width, height, durations_ms, loop, bitmaps}], dir, frame, playing, timer}

function stopAnim() {
  if (anim && anim.timer) clearTimeout(anim.timer);
  anim = null;
}

async function showGani(name) {
  const { result } = await call('gani', { name });
  if (current.name !== name) return;
  notes(result.notes);
  const dirs = await Promise.all(result.directions.map(async (d) => ({
    ...d,
    bitmaps: await Promise.all(d.frames.map((px) =>
      createImageBitmap(new ImageData(new Uint8ClampedArray(px.buffer, px.byteOffset, px.byteLength), d.width, d.height)))),
  })));
  if (!dirs.length || dirs.some((d) => !d.bitmaps.length)) {
    // A gani with no frames (a cut file that still reads) has nothing to play: its dump shows.
    notes(['the animation has no frames to play']);
    await showText(name);
    return;
  }
  const down = dirs.findIndex((d) => d.direction === 'down');
  anim = { dirs, dir: down >= 0 ? down : 0, frame: 0, playing: true, timer: null };
  const bar = $('anim');
  bar.textContent = '';
  const buttons = document.createElement('div');
  buttons.className = 'dirs';
  dirs.forEach((d, i) => {
    const b = document.createElement('button');
    b.textContent = d.direction || 'play';
    b.dataset.dir = d.direction || '';
    b.onclick = () => { anim.dir = i; anim.frame = Math.min(anim.frame, anim.dirs[i].bitmaps.length - 1); renderFrameList(); drawAnim(); };
    buttons.appendChild(b);
  });
  const play = document.createElement('button');
  play.id = 'play';
  play.onclick = () => { anim.playing = !anim.playing; if (anim.playing) schedule(); else clearTimeout(anim.timer); renderFrameList(); };
  buttons.appendChild(play);
  bar.appendChild(buttons);
  const list = document.createElement('ol');
  list.id = 'frames';
  bar.appendChild(list);
  bar.hidden = false;
  const canvas = $('view2d');
  canvas.hidden = false;
  fitCanvas();
  renderFrameList();
  drawAnim();
  schedule();
  firstPicture();
}

function renderFrameList() {
  const d = anim.dirs[anim.dir];
  const list = $('frames');
  list.textContent = '';
  d.durations_ms.forEach((ms, i) => {
    const li = document.createElement('li');
    li.textContent = `${ms} ms`;
    li.dataset.frame = i;
    li.onclick = () => { anim.playing = false; clearTimeout(anim.timer); anim.frame = i; renderFrameList(); drawAnim(); };
    list.appendChild(li);
  });
  $('play').textContent = anim.playing ? 'pause' : 'play';
  for (const b of $('anim').querySelectorAll('.dirs button[data-dir]')) b.classList.toggle('active', b.dataset.dir === (d.direction || ''));
  markFrame();
}

function markFrame() {
  for (const li of $('frames').children) li.classList.toggle('active', Number(li.dataset.frame) === anim.frame);
}

function schedule() {
  if (!anim || !anim.playing) return;
  clearTimeout(anim.timer);
  const d = anim.dirs[anim.dir];
  const ms = Math.max(20, d.durations_ms[anim.frame] || 50);
  anim.timer = setTimeout(() => {
    if (!anim) return;
    const n = anim.dirs[anim.dir].bitmaps.length;
    // A gani without LOOP plays once and stays on its last frame (as the game does).
    if (anim.frame + 1 >= n && !anim.dirs[anim.dir].loop) { anim.playing = false; renderFrameList(); return; }
    anim.frame = (anim.frame + 1) % n;
    markFrame();
    drawAnim();
    schedule();
  }, ms);
}

function drawAnim() {
  const canvas = $('view2d');
  const ctx = canvas.getContext('2d');
  const d = anim.dirs[anim.dir];
  const bitmap = d.bitmaps[Math.min(anim.frame, d.bitmaps.length - 1)];
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#2a3a2a';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const fit = Math.min(canvas.width / d.width, canvas.height / d.height);
  const zoom = fit >= 1 ? Math.min(8, Math.floor(fit)) : fit;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, Math.floor((canvas.width - d.width * zoom) / 2), Math.floor((canvas.height - d.height * zoom) / 2), d.width * zoom, d.height * zoom);
}

// For the browser tests: what the gani player shows.
window.levelkitAnim = () => anim && {
  direction: anim.dirs[anim.dir].direction, frame: anim.frame, frames: anim.dirs[anim.dir].bitmaps.length,
  directions: anim.dirs.map((d) => d.direction), playing: anim.playing,
};

// ---- 2D maps --------------------------------------------------------------------------------

let map2d = null;

function fitCanvas() {
  const canvas = $('view2d');
  const r = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.floor(r.width));
  canvas.height = Math.max(1, Math.floor(r.height));
}

async function showMap(name) {
  const { result } = await call('map', { name });
  if (current.name !== name) return;
  notes(result.notes);
  notes(result.map.warnings);
  const map = result.map.map;
  const atlases = await Promise.all(result.atlases.map((a) =>
    createImageBitmap(new ImageData(new Uint8ClampedArray(a.rgba.buffer, a.rgba.byteOffset, a.rgba.byteLength), a.width, a.height))
      .then((bitmap) => ({ bitmap, columns: Math.max(1, a.columns), width: a.width, rgba: a.rgba }))));
  const sprites = new Map();
  for (const s of result.sprites) {
    if (!s.width || !s.height) continue;
    const bitmap = await createImageBitmap(new ImageData(new Uint8ClampedArray(s.rgba.buffer, s.rgba.byteOffset, s.rgba.byteLength), s.width, s.height));
    sprites.set(s.id, { bitmap, left: s.left, top: s.top });
  }
  const layers = map.layers.map((l) => {
    const kind = Object.keys(l)[0];
    const body = l[kind];
    return { kind, body, visible: body.visible !== false };
  });
  map2d = { map, atlases, sprites, layers, camera: { x: 0, y: 0, zoom: 1 }, selected: null };
  renderLayerToggles();
  const canvas = $('view2d');
  canvas.hidden = false;
  fitCanvas();
  const w = map.width * map.tile_width, h = map.height * map.tile_height;
  const fit = Math.min(canvas.width / Math.max(1, w), canvas.height / Math.max(1, h));
  map2d.camera.zoom = Math.min(4, Math.max(0.25, fit));
  drawMap();
  firstPicture();
}

function renderLayerToggles() {
  const box = $('layers');
  box.textContent = '';
  map2d.layers.forEach((layer, i) => {
    const label = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = layer.visible;
    cb.dataset.layer = i;
    cb.onchange = () => { layer.visible = cb.checked; drawMap(); };
    label.append(cb, ` ${layer.body.name || '(unnamed)'} ${layer.kind === 'objects' ? '(' + layer.body.objects.length + ' objects)' : ''}`);
    box.appendChild(label);
  });
}

function tilesetOf(map, gid) {
  let found = -1;
  for (let i = 0; i < map.tilesets.length; i++) if (map.tilesets[i].first_gid <= gid) found = i;
  return found;
}

function objectBox(o) {
  const shape = o.shape;
  if (shape && shape.rect) return { x: o.x, y: o.y, w: shape.rect.width, h: shape.rect.height };
  if (shape && shape.polygon) {
    const xs = shape.polygon.map((p) => p[0]), ys = shape.polygon.map((p) => p[1]);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    return { x: o.x + x0, y: o.y + y0, w: Math.max(...xs) - x0, h: Math.max(...ys) - y0 };
  }
  return { x: o.x - 4, y: o.y - 4, w: 8, h: 8 };
}

function drawMap() {
  if (!map2d) return;
  const canvas = $('view2d');
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#111';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const { camera } = map2d;
  if (map2d.picture) {
    ctx.setTransform(camera.zoom, 0, 0, camera.zoom, -camera.x * camera.zoom, -camera.y * camera.zoom);
    ctx.drawImage(map2d.picture, 0, 0);
    return;
  }
  const { map, atlases, sprites } = map2d;
  if (map.background && /^#[0-9a-f]{8}$/i.test(map.background)) {
    ctx.fillStyle = '#' + map.background.slice(3);
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  const tw = map.tile_width, th = map.tile_height;
  for (const layer of map2d.layers) {
    if (!layer.visible) continue;
    const body = layer.body;
    const [px, py] = body.parallax || [1, 1];
    const ox = camera.x * px, oy = camera.y * py;
    ctx.setTransform(camera.zoom, 0, 0, camera.zoom, -ox * camera.zoom, -oy * camera.zoom);
    if (layer.kind === 'tiles') {
      const [offx, offy] = body.offset || [0, 0];
      const x0 = Math.max(0, Math.floor((ox - offx) / tw)), y0 = Math.max(0, Math.floor((oy - offy) / th));
      const x1 = Math.min(body.width, Math.ceil((ox - offx + canvas.width / camera.zoom) / tw));
      const y1 = Math.min(body.height, Math.ceil((oy - offy + canvas.height / camera.zoom) / th));
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const gid = body.data[y * body.width + x] & 0x1fffffff;
          if (!gid) continue;
          const t = tilesetOf(map, gid);
          const atlas = atlases[t];
          if (!atlas) continue;
          const ts = map.tilesets[t];
          const local = gid - ts.first_gid;
          const sw = ts.tile_width, sh = ts.tile_height;
          ctx.drawImage(atlas.bitmap, (local % atlas.columns) * sw, Math.floor(local / atlas.columns) * sh, sw, sh,
            offx + x * tw, offy + y * th + th - sh, sw, sh);
        }
      }
    } else {
      ctx.lineWidth = 2 / camera.zoom;
      for (const o of body.objects) {
        const sprite = sprites.get(o.id);
        if (sprite) ctx.drawImage(sprite.bitmap, sprite.left, sprite.top);
        const b = objectBox(o);
        const selected = map2d.selected === o;
        ctx.strokeStyle = selected ? '#ffff00' : '#ff00ff';
        ctx.fillStyle = selected ? 'rgba(255,255,0,0.35)' : 'rgba(255,0,255,0.25)';
        ctx.fillRect(b.x, b.y, Math.max(b.w, 1), Math.max(b.h, 1));
        ctx.strokeRect(b.x, b.y, Math.max(b.w, 1), Math.max(b.h, 1));
      }
    }
  }
}

// Pan (drag), zoom (wheel, about the cursor), click for an object's fields.
(() => {
  const canvas = $('view2d');
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, y: e.clientY, moved: false }; });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved && map2d) pick(e);
    drag = null;
  });
  window.addEventListener('mousemove', (e) => {
    if (!drag || !map2d) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    map2d.camera.x -= dx / map2d.camera.zoom;
    map2d.camera.y -= dy / map2d.camera.zoom;
    drag.x = e.clientX; drag.y = e.clientY;
    drawMap();
  });
  canvas.addEventListener('wheel', (e) => {
    if (!map2d) return;
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const c = map2d.camera;
    const mx = e.clientX - r.left, my = e.clientY - r.top;
    const wx = c.x + mx / c.zoom, wy = c.y + my / c.zoom;
    c.zoom = Math.min(16, Math.max(1 / 64, c.zoom * (e.deltaY < 0 ? 1.25 : 0.8)));
    c.x = wx - mx / c.zoom; c.y = wy - my / c.zoom;
    drawMap();
  }, { passive: false });
  window.addEventListener('resize', () => { if (map2d) { fitCanvas(); drawMap(); } else if (anim) { fitCanvas(); drawAnim(); } });

  function pick(e) {
    if (!map2d.layers) return;
    const r = canvas.getBoundingClientRect();
    const c = map2d.camera;
    let hit = null;
    for (const layer of map2d.layers) {
      if (!layer.visible || layer.kind !== 'objects') continue;
      const [px, py] = layer.body.parallax || [1, 1];
      const wx = c.x * px + (e.clientX - r.left) / c.zoom, wy = c.y * py + (e.clientY - r.top) / c.zoom;
      for (const o of layer.body.objects) {
        const b = objectBox(o);
        if (wx >= b.x && wx <= b.x + Math.max(b.w, 8) && wy >= b.y && wy <= b.y + Math.max(b.h, 8)) hit = o;
      }
    }
    map2d.selected = hit;
    $('fields').hidden = !hit;
    if (hit) $('fields').textContent = JSON.stringify(hit, null, 1);
    drawMap();
  }
})();

// ---- 3D models ------------------------------------------------------------------------------

async function showScene(name) {
  const { result } = await call('convert', { name, target: 'glb' });
  if (current.name !== name) return;
  notes(result.notes);
  const { showGlb } = await import('./view3d.js');
  const host = $('view3d');
  host.hidden = false;
  view3d = await showGlb(host, result.main.buffer.slice(result.main.byteOffset, result.main.byteOffset + result.main.byteLength));
  firstPicture();
}

// ---- start ----------------------------------------------------------------------------------

startWorker();
// `levelkit view FILE...` opens the page as ?open=NAME&open=NAME: the server hands those files
// out at files/NAME.
(async () => {
  const names = new URLSearchParams(location.search).getAll('open');
  if (!names.length) return;
  setStatus('pending');
  const got = await Promise.all(names.map(async (n) => {
    const r = await fetch('files/' + encodeURIComponent(n));
    if (!r.ok) throw { kind: 'io', message: `${n}: the server did not send it (${r.status})` };
    return new File([await r.arrayBuffer()], n);
  }));
  await addFiles(got);
})().catch(showError);
// For the browser tests: a tile of the map that should be visible, with where it is on the
// canvas and the colour its atlas has there; or null.
window.levelkitProbe = () => {
  if (!map2d || !map2d.map) return null;
  const { map, atlases, camera } = map2d;
  const canvas = $('view2d');
  const tiles = map2d.layers.filter((l) => l.visible && l.kind === 'tiles');
  const objects = map2d.layers.filter((l) => l.visible && l.kind === 'objects').flatMap((l) => l.body.objects.map(objectBox));
  for (let li = tiles.length - 1; li >= 0; li--) {
    const body = tiles[li].body;
    const [px, py] = body.parallax || [1, 1];
    const [offx, offy] = body.offset || [0, 0];
    const above = tiles.slice(li + 1);
    for (let y = 0; y < body.height; y++) {
      for (let x = 0; x < body.width; x++) {
        const gid = body.data[y * body.width + x] & 0x1fffffff;
        if (!gid) continue;
        const t = tilesetOf(map, gid);
        const atlas = atlases[t], ts = map.tilesets[t];
        if (!atlas || ts.tile_width !== map.tile_width || ts.tile_height !== map.tile_height) continue;
        const local = gid - ts.first_gid;
        const ax = (local % atlas.columns) * ts.tile_width + (ts.tile_width >> 1);
        const ay = Math.floor(local / atlas.columns) * ts.tile_height + (ts.tile_height >> 1);
        const i = (ay * atlas.width + ax) * 4;
        if (atlas.rgba[i + 3] !== 255) continue;
        const wx = offx + x * map.tile_width + (map.tile_width >> 1), wy = offy + y * map.tile_height + (map.tile_height >> 1);
        const sx = Math.floor((wx - camera.x * px) * camera.zoom), sy = Math.floor((wy - camera.y * py) * camera.zoom);
        if (sx < 2 || sy < 2 || sx >= canvas.width - 2 || sy >= canvas.height - 2) continue;
        const covered = objects.some((b) => wx >= b.x - 8 && wx <= b.x + b.w + 8 && wy >= b.y - 8 && wy <= b.y + b.h + 8) ||
          above.some((l) => l.body.data[y * l.body.width + x]);
        if (covered) continue;
        return { x: sx, y: sy, rgba: [...atlas.rgba.slice(i, i + 4)], layer: body.name, tile: [x, y] };
      }
    }
  }
  return null;
};
// The pixels of the view now (2D canvas or the WebGL canvas), for the browser tests.
window.levelkitPixels = () => {
  const src = !$('view2d').hidden ? $('view2d') : $('view3d').querySelector('canvas');
  if (!src) return null;
  const c = document.createElement('canvas');
  c.width = src.width; c.height = src.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(src, 0, 0);
  return ctx.getImageData(0, 0, c.width, c.height);
};
window.levelkitMemory = () => call('memory').then((m) => m.bytes);
window.levelkitOpen = openDoc;
setStatus('idle');
