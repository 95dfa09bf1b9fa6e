/**
 * Strokes on the clipboard: what a copy writes, what a paste reads back, and where pasted strokes land.
 * Pure; selection-actions.js moves the text in and out of clipboard events.
 *
 * The data is `{"inkwell": 1, "room"?, "strokes": [{colour, width, points, pressures, pieces, transform,
 * text?, image?, brush?, fill?}]}`, bottom to top; a highlighter's ink has `brush: "highlighter"`, filled ink its
 * `fill`; a text box has its `text`, its corner as its one point and its font size
 * as its width; an image has `image` (its blob, size, type and box) and its corner as its one point. `room`
 * says where the strokes were copied: an image's blob belongs to its room, so a paste into another room
 * uploads the image there again. Whatever a paste finds under that type may come from anywhere (another
 * site can put any text there), so it is read as hostile: bounded in size, every number checked, a
 * malformed stroke dropped.
 */

import { intervalUnion } from '../geometry/index.js';
import { readImage } from '../model/board-image.js';
import { LIMITS } from '../model/operation.js';
import { MAXIMUM_RUN_LENGTH } from '../model/text-sequence.js';
import { WireLimits } from '../wire/limits.js';
import { boardSVG } from './export-svg.js';
import { selectionBounds } from './selecting.js';

/** The clipboard type of the strokes' JSON. Chromium keeps custom types of copy events between its tabs. */
export const STROKES_TYPE = 'application/x-inkwell-strokes+json';
/** The format's version, `inkwell` in the JSON. */
export const FORMAT = 1;
/** How far a duplicate, or a paste over its originals, lands from them (board pixels, right and down). */
export const COPY_OFFSET = 16;

/** Longer text is not even parsed. */
const MAXIMUM_TEXT = 32 * 1024 * 1024;
/** Each pasted stroke may take five operations (add, fill, erase, transform, z-order) of one change. */
const MAXIMUM_STROKES = Math.floor(WireLimits.maximumOperationsPerChange / 5);
/** Points over all pasted strokes: more could not fit one change anyway. */
const MAXIMUM_POINTS = 1_000_000;

/**
 * @typedef {{colour: number, width: number, points: [number, number][], pressures: number[] | null,
 *   pieces: [number, number][], transform: [number, number, number, number, number, number],
 *   text?: string, image?: import('../model/board-image.js').BoardImage, brush?: 'highlighter', fill?: number}} CopiedStroke
 */

/**
 * What a copy of `strokes` puts on the clipboard: the JSON of the strokes, and an SVG of them for other
 * applications (as plain text too, which every application reads), with the images' bytes at hand.
 * @param {import('../model/board-drawing.js').DrawingStroke[]} strokes bottom to top
 * @param {{room?: string, imageBytes?: import('./export-svg.js').SVGOptions['imageBytes']}} [options] the
 *   room copied from
 * @returns {{json: string, svg: string}}
 */
export function clipboardPayload(strokes, { room, imageBytes } = {}) {
  const copied = strokes.map((stroke) => ({
    colour: stroke.colour,
    width: stroke.width,
    points: stroke.points,
    pressures: stroke.pressures,
    pieces: stroke.pieces,
    transform: stroke.transform,
    ...(stroke.text === undefined ? {} : { text: stroke.text }),
    ...(stroke.image === undefined ? {} : { image: stroke.image }),
    ...(stroke.brush === undefined ? {} : { brush: stroke.brush }),
    ...(stroke.fill === undefined ? {} : { fill: stroke.fill }),
  }));
  return { json: JSON.stringify({ inkwell: FORMAT, ...(room === undefined ? {} : { room }), strokes: copied }), svg: boardSVG(strokes, { imageBytes }) };
}

/**
 * The strokes in clipboard text; an empty list for anything that is not ours or is malformed as a whole.
 * Strokes that are malformed, or show nothing, are dropped one by one.
 * @param {unknown} text
 * @returns {CopiedStroke[]}
 */
export function readClipboard(text) {
  return readClipboardData(text).strokes;
}

/**
 * The strokes in clipboard text (as `readClipboard`) and the room they were copied from, if it says.
 * @param {unknown} text
 * @returns {{strokes: CopiedStroke[], room: string | null}}
 */
export function readClipboardData(text) {
  const none = { strokes: [], room: null };
  if (typeof text !== 'string' || text.length === 0 || text.length > MAXIMUM_TEXT) return none;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return none;
  }
  if (value === null || typeof value !== 'object' || value.inkwell !== FORMAT || !Array.isArray(value.strokes)) return none;
  const room = typeof value.room === 'string' ? value.room : null;
  const strokes = [];
  let points = 0;
  for (const candidate of value.strokes.slice(0, MAXIMUM_STROKES)) {
    const stroke = readStroke(candidate);
    if (stroke === null) continue;
    points += stroke.points.length;
    if (points > MAXIMUM_POINTS) break;
    strokes.push(stroke);
  }
  return { strokes, room };
}

/** @returns {CopiedStroke | null} */
function readStroke(value) {
  if (value === null || typeof value !== 'object') return null;
  const { colour, width, points, pressures, pieces, transform, text, image, brush, fill } = value;
  if (!Number.isInteger(colour) || colour < 0 || colour > 0xffff_ffff) return null;
  if (!(Number.isFinite(width) && width > 0 && width <= LIMITS.maximumWidth)) return null;
  if (!Array.isArray(points) || points.length === 0 || points.length > LIMITS.maximumPointsPerOperation) return null;
  if (!points.every((p) => Array.isArray(p) && p.length === 2 && isCoordinate(p[0]) && isCoordinate(p[1]))) return null;
  let readPressures = null;
  if (pressures !== null && pressures !== undefined) {
    if (!Array.isArray(pressures) || pressures.length !== points.length) return null;
    if (!pressures.every((p) => typeof p === 'number' && p >= 0 && p <= 1)) return null;
    readPressures = [...pressures];
  }
  if (!Array.isArray(transform) || transform.length !== 6 || !transform.every(isCoordinate)) return null;
  const shown = readPieces(pieces, points.length);
  if (shown === null) return null;
  /** @type {CopiedStroke} */
  const stroke = {
    colour,
    width,
    points: points.map(([x, y]) => [x, y]),
    pressures: readPressures,
    pieces: shown,
    transform: /** @type {CopiedStroke['transform']} */ ([...transform]),
  };
  if (image !== undefined) {
    // An image: one corner, and a blob and box the board takes.
    if (text !== undefined || points.length !== 1 || readPressures !== null || image === null || typeof image !== 'object') return null;
    const read = readImage(image);
    return read === null ? null : { ...stroke, image: read };
  }
  if (text === undefined) return withInkStyle(stroke, brush, fill);
  // A text box: its text goes in one insert, so it may be no longer than one.
  if (typeof text !== 'string' || points.length !== 1 || readPressures !== null || [...text].length > MAXIMUM_RUN_LENGTH) return null;
  return { ...stroke, text };
}

/**
 * Ink with its brush and fill where they are well formed: an unknown brush or a fill that is no colour is
 * left out (the ink still pastes, as a pen's, unfilled), and a fill of alpha 0 is none.
 * @param {CopiedStroke} stroke
 */
function withInkStyle(stroke, brush, fill) {
  const styled = { ...stroke };
  if (brush === 'highlighter') styled.brush = 'highlighter';
  if (Number.isInteger(fill) && fill > 0 && fill <= 0xffff_ffff && (fill & 0xff) !== 0) styled.fill = fill;
  return styled;
}

/** The visible pieces within the stroke's parameters, merged; null when none shows or they are malformed. */
function readPieces(pieces, count) {
  if (!Array.isArray(pieces) || pieces.length === 0 || pieces.length > LIMITS.maximumIntervalsPerErase) return null;
  if (count === 1) return [[0, 0]];
  const end = count - 1;
  const valid = [];
  for (const piece of pieces) {
    if (!Array.isArray(piece) || piece.length !== 2 || !Number.isFinite(piece[0]) || !Number.isFinite(piece[1])) return null;
    const lower = Math.max(0, piece[0]);
    const upper = Math.min(end, piece[1]);
    if (lower < upper) valid.push([lower, upper]);
  }
  const merged = intervalUnion(valid);
  return merged.length === 0 ? null : merged;
}

function isCoordinate(value) {
  return Number.isFinite(value) && Math.abs(value) <= LIMITS.maximumCoordinate;
}

/**
 * How far to move pasted strokes: where they were, `COPY_OFFSET` on for each time the same strokes were
 * pasted, while that is in view (a paste back into the board they came from lands next to them);
 * otherwise to the middle of the view (they came from elsewhere on this board, or another board).
 * @param {CopiedStroke[]} strokes
 * @param {import('../geometry/rect.js').Rect} view the board rectangle on screen
 * @param {number} repeat 1 for the first paste of these strokes, 2 for the next…
 * @returns {[number, number]}
 */
export function pasteOffset(strokes, view, repeat) {
  const box = selectionBounds(strokes);
  if (box === null) return [0, 0];
  const step = COPY_OFFSET * repeat;
  const landed = { minX: box.minX + step, minY: box.minY + step, maxX: box.maxX + step, maxY: box.maxY + step };
  if (landed.minX >= view.minX && landed.maxX <= view.maxX && landed.minY >= view.minY && landed.maxY <= view.maxY) {
    return [step, step];
  }
  return [(view.minX + view.maxX) / 2 - (box.minX + box.maxX) / 2, (view.minY + view.maxY) / 2 - (box.minY + box.maxY) / 2];
}
