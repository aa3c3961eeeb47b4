// The Web Worker that runs levelkit (compiled to WebAssembly) off the page's thread, so a large
// or hostile file never freezes the tab. Messages in: {id, op, ...}; out: {id, ok, ...} or
// {id, ok: false, error}. Everything format-specific is in the library; this file only moves
// bytes and JSON between the page and crates/levelkit-wasm.
import init, { Viewer, AssetDoc } from './pkg/levelkit_wasm.js';

let wasm = null;
let viewer = null;
const docs = new Map();

function errorOf(e) {
  // Library errors are JSON strings ({kind, format, message, location}); anything else (a trap)
  // becomes a message.
  if (typeof e === 'string') {
    try { return JSON.parse(e); } catch (_) { return { kind: 'error', message: e }; }
  }
  return { kind: 'crash', message: String((e && e.message) || e) };
}

const ops = {
  async add({ files }) {
    const sniffed = [];
    for (const f of files) {
      viewer.add_file(f.name, new Uint8Array(f.bytes));
      sniffed.push({ name: f.name, format: viewer.sniff(f.name) || null, asset: viewer.is_asset(f.name) });
    }
    return { sniffed };
  },
  open({ name }) {
    const old = docs.get(name);
    if (old) { old.free(); docs.delete(name); }
    // Images and texture WADs are not documents; the library's image and WAD readers show them.
    const doc = viewer.asset_kind(name) ? viewer.open_asset(name) : viewer.open(name);
    docs.set(name, doc);
    return { kind: doc.kind() };
  },
  // The info (whose targets try the conversions) and the findings: asked for after the first
  // picture.
  details({ name }) {
    const doc = docs.get(name);
    return { info: JSON.parse(doc.info()), findings: JSON.parse(doc.validate()) };
  },
  map({ name }) {
    const doc = docs.get(name);
    const t0 = performance.now();
    const map = JSON.parse(doc.map_json());
    const count = doc.prepare_art(viewer);
    const atlases = [], transfer = [];
    for (let i = 0; i < count; i++) {
      const [width, height, columns] = doc.atlas_size(i);
      const rgba = doc.atlas_rgba(i);
      atlases.push({ width, height, columns, rgba });
      transfer.push(rgba.buffer);
    }
    const sprites = [];
    for (let i = 0, n = doc.sprite_count(); i < n; i++) {
      const [id, left, top, width, height] = doc.sprite_info(i);
      const rgba = doc.sprite_rgba(i);
      sprites.push({ id, left, top, width, height, rgba });
      transfer.push(rgba.buffer);
    }
    return { result: { map, atlases, sprites, notes: JSON.parse(doc.notes()), ms: performance.now() - t0 }, transfer };
  },
  texture({ name, index }) {
    const asset = docs.get(name);
    const [width, height] = asset.texture_size(index);
    const rgba = asset.texture_rgba(index);
    return { result: { width, height, rgba }, transfer: [rgba.buffer] };
  },
  gani({ name }) {
    // Every direction, every frame, drawn by the library's gani renderer (the CLI's GIF/APNG).
    const doc = docs.get(name);
    const count = doc.play_gani(viewer);
    const directions = [], transfer = [];
    for (let i = 0; i < count; i++) {
      const info = JSON.parse(doc.anim_info(i));
      info.frames = info.durations_ms.map((_, f) => {
        const rgba = doc.anim_frame(i, f);
        transfer.push(rgba.buffer);
        return rgba;
      });
      directions.push(info);
    }
    return { result: { directions, notes: JSON.parse(doc.notes()) }, transfer };
  },
  dump({ name }) {
    return { text: docs.get(name).dump_text() };
  },
  convert({ name, target, index }) {
    const doc = docs.get(name);
    const asset = doc instanceof AssetDoc;
    const conv = asset ? doc.convert(target, index || 0) : doc.convert(viewer, target);
    const file = asset ? doc.download_name(target, index || 0) : null;
    try {
      const main = conv.main();
      const side = [];
      const transfer = [main.buffer];
      for (let i = 0, n = conv.side_count(); i < n; i++) {
        const bytes = conv.side_bytes(i);
        side.push({ name: conv.side_name(i), bytes });
        transfer.push(bytes.buffer);
      }
      return { result: { main, side, file, notes: JSON.parse(conv.notes()) }, transfer };
    } finally {
      conv.free();
    }
  },
  memory() {
    return { bytes: wasm.memory.buffer.byteLength };
  },
};

self.onmessage = async (event) => {
  const { id, op } = event.data;
  try {
    if (!wasm) { wasm = await init(); viewer = new Viewer(); }
    const out = await ops[op](event.data);
    const transfer = (out && out.transfer) || [];
    if (out && out.transfer) delete out.transfer;
    self.postMessage({ id, ok: true, ...out }, transfer);
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorOf(e) });
  }
};
