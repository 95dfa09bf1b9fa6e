/**
 * Exports: SVG (the same text as Swift's exporter, see export-svg.js) and PNG (the scene painted once at
 * full size in the stored colours on white), saved as downloads named after the room. Images go in with
 * the bytes and pixels the page has; the caller fetches what it can first (image-loading.js).
 */

import { boardSVG } from './export-svg.js';
import { inkStyle } from './colour.js';
import { elementBounds } from './selecting.js';
import { paintStrokes } from './stroke-painter.js';

/** The largest PNG side in pixels: canvases beyond this fail in some browsers. */
const MAXIMUM_PNG_SIDE = 8192;
const MARGIN = 16;

/**
 * The board as an SVG blob: every stroke, or the strokes of `only` (a selection).
 * @param {import('../model/board.js').Board} board
 * @param {Set<string> | null} [only]
 * @param {import('./export-svg.js').SVGOptions['imageBytes']} [imageBytes] images' bytes at hand
 */
export function svgBlob(board, only = null, imageBytes = undefined) {
  const strokes = board.strokes().filter((stroke) => only === null || only.has(stroke.id));
  return new Blob([boardSVG(strokes, { imageBytes })], { type: 'image/svg+xml' });
}

/**
 * The board as a PNG blob, at device resolution when it fits (so it looks as sharp as on screen): every
 * stroke, or the strokes of `only` (a selection), framed by them.
 * @param {import('./scene.js').Scene} scene
 * @param {{only?: Set<string> | null, pixelRatio?: number, document?: Document,
 *   images?: import('./stroke-painter.js').ImageSource}} [options] `images`: their pixels (placeholders without)
 * @returns {Promise<Blob>}
 */
export async function pngBlob(scene, { only = null, pixelRatio = globalThis.devicePixelRatio || 1, document = globalThis.document, images = undefined } = {}) {
  const bounds = (only === null ? scene.bounds() : boundsOf(scene.board, only)) ?? { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const width = bounds.maxX - bounds.minX + 2 * MARGIN;
  const height = bounds.maxY - bounds.minY + 2 * MARGIN;
  const scale = Math.min(pixelRatio, MAXIMUM_PNG_SIDE / width, MAXIMUM_PNG_SIDE / height);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(width * scale));
  canvas.height = Math.max(1, Math.ceil(height * scale));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(scale, 0, 0, scale, (MARGIN - bounds.minX) * scale, (MARGIN - bounds.minY) * scale);
  const styles = new Map();
  const style = (colour) => {
    if (!styles.has(colour)) styles.set(colour, inkStyle(colour, 'light'));
    return styles.get(colour);
  };
  paintStrokes(ctx, scene.sort([...scene.strokes()].filter((stroke) => only === null || only.has(stroke.id))), style, Infinity, images);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob === null ? reject(new Error('the browser could not encode a PNG')) : resolve(blob)), 'image/png');
  });
}

/**
 * Offers a blob as a download.
 * @param {Blob} blob
 * @param {string} filename
 * @param {Document} [document]
 */
export function download(blob, filename, document = globalThis.document) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; revoke later to be safe in every browser.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * A file name for an export: the room and the date, e.g. `inkwell-AbC123-2026-11-22.svg`.
 * @param {string} room
 * @param {'svg' | 'png'} extension
 * @param {Date} [date]
 */
export function exportFilename(room, extension, date = new Date()) {
  const day = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  return `inkwell-${room.slice(0, 12)}-${day}.${extension}`;
}

/** The union of the strokes' bounds as the board draws them (text boxes measured); null for none. */
function boundsOf(board, ids) {
  let box = null;
  for (const id of ids) {
    const stroke = board.stroke(id);
    const one = stroke === null ? null : elementBounds(stroke);
    if (one === null) continue;
    box =
      box === null
        ? one
        : { minX: Math.min(box.minX, one.minX), minY: Math.min(box.minY, one.minY), maxX: Math.max(box.maxX, one.maxX), maxY: Math.max(box.maxY, one.maxY) };
  }
  return box;
}

/**
 * What an export of a selection held, for the notice: "Exported 3 strokes, a text box and an image".
 * @param {import('../model/board-drawing.js').DrawingStroke[]} elements
 */
export function exportedNotice(elements) {
  const count = (kind) => elements.filter((element) => kindOf(element) === kind).length;
  const named = [
    counted(count('stroke'), 'a stroke', 'strokes'),
    counted(count('text'), 'a text box', 'text boxes'),
    counted(count('image'), 'an image', 'images'),
  ].filter((part) => part !== null);
  if (named.length === 0) return 'Exported nothing: the selection is empty';
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `Exported ${list}`;
}

/** @param {import('../model/board-drawing.js').DrawingStroke} element */
function kindOf(element) {
  if (element.image !== undefined) return 'image';
  return element.text !== undefined ? 'text' : 'stroke';
}

/** "a stroke", "3 strokes", or null for none. */
function counted(count, one, many) {
  if (count === 0) return null;
  return count === 1 ? one : `${count} ${many}`;
}

