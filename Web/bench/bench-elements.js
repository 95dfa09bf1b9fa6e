/**
 * The benchmark's images and text boxes, spread over the board like its strokes: what a real board mixes
 * with handwriting. Images get distinct fake blobs over a few PNGs drawn in the page, whose bytes and
 * pixels the page's image loading holds (as after an upload), so no server blob is needed.
 */

import { ImageLoading } from '../js/app/image-loading.js';
import { addImageOperation } from '../js/model/board-images.js';
import { strokeId } from '../js/model/ids.js';
import { PALETTE } from '../js/app/settings.js';

/** Distinct pictures drawn: enough for variety, few enough to make quickly. */
const PICTURES = 4;
const WORDS = ['ink', 'plan', 'idea', 'draft', 'sketch', 'note', 'todo', 'review', 'launch', 'why', 'later', 'ok'];
const SIZES = [16, 24, 36, 56];

/**
 * Adds `count` text boxes of a few words on a few lines each, at various sizes.
 * @param {(operations: object[]) => {id: object}} add applies one change and returns it
 * @param {number} count
 * @param {number} side the board's square
 * @param {() => number} next the seeded random numbers
 */
export function addTexts(add, count, side, next) {
  for (let i = 0; i < count; i++) {
    const lines = 1 + Math.floor(next() * 3);
    const text = Array.from({ length: lines }, () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' '),
    ).join('\n');
    const { colour } = PALETTE[Math.floor(next() * PALETTE.length)];
    const size = SIZES[Math.floor(next() * next() * SIZES.length)];
    const change = add([{ op: 'addText', colour, size, at: [Math.round(next() * side), Math.round(next() * side)] }]);
    add([{ op: 'insertText', box: strokeId(change.id, 0), after: null, text }]);
  }
}

/**
 * Adds `count` images, each its own blob over one of a few pictures.
 * @param {(operations: object[]) => unknown} add
 * @param {number} count
 * @param {number} side
 * @param {() => number} next
 * @returns {Promise<{image: object, bytes: Uint8Array, bitmap: ImageBitmap}[]>} what the page holds
 */
export async function addImages(add, count, side, next) {
  if (count === 0) return [];
  const pictures = await Promise.all(Array.from({ length: PICTURES }, (_, i) => picture(i)));
  const held = [];
  for (let i = 0; i < count; i++) {
    const { bytes, blob: file } = pictures[i % PICTURES];
    const scale = 0.5 + next() * 1.5;
    const image = { blob: fakeBlob(i), bytes: bytes.length, type: 'image/png', width: Math.round(240 * scale), height: Math.round(180 * scale) };
    add([addImageOperation(image, [Math.round(next() * side), Math.round(next() * side)])]);
    // Each image its own decoded pixels, as the page has for every blob it shows.
    held.push({ image, bytes, bitmap: await createImageBitmap(file) });
  }
  return held;
}

/**
 * The page's image loading with nothing to download from and an offline cache in memory: every image's
 * bytes are held.
 * @param {import('../js/app/scene.js').Scene} scene
 * @param {import('../js/app/viewport.js').Viewport} viewport
 * @param {(rects: object[]) => void} invalidate
 */
export function imageLoading(scene, viewport, invalidate) {
  const stored = new Map();
  const cache = { get: async (blob) => stored.get(blob) ?? null, put: async (blob, entry) => void stored.set(blob, entry) };
  const download = () => Promise.reject(new Error('the benchmark has no server blobs'));
  return new ImageLoading({ download, cache: /** @type {any} */ (cache), scene, view: () => viewport.visibleRect(), invalidate });
}

/** A 64-hex blob name, distinct per image. */
function fakeBlob(index) {
  return index.toString(16).padStart(8, '0').repeat(8);
}

/** A 240 × 180 PNG: bands and a disc in colours of its own. */
async function picture(index) {
  const canvas = new OffscreenCanvas(240, 180);
  const ctx = canvas.getContext('2d');
  const hue = index * 83;
  for (let band = 0; band < 6; band++) {
    ctx.fillStyle = `hsl(${hue + band * 20} 70% ${40 + band * 8}%)`;
    ctx.fillRect(0, band * 30, 240, 30);
  }
  ctx.fillStyle = `hsl(${hue + 180} 80% 50%)`;
  ctx.beginPath();
  ctx.arc(60 + index * 40, 90, 50, 0, 2 * Math.PI);
  ctx.fill();
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return { blob, bytes: new Uint8Array(await blob.arrayBuffer()) };
}
