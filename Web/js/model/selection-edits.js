// What editing a selection writes, as Sources/InkwellBoard/Tools/SelectionEdits.swift: the operations of
// one change, in the JSON form of Conformance/board.json. Pure: the page's select tool and the Swift
// client make the same operations from the same selection (Conformance/selection.json holds them to it).
//
// A move, scale or rotation is one `set transform` per selected stroke: the new matrix is the edit's
// composed after the stroke's own, and its points never change. So a concurrent partial erase, whose
// intervals are in the stroke's parameter space, cuts the moved stroke where it cut it before (the gap
// moves with the ink), a concurrent recolour or width change is another attribute and both hold, and of
// two concurrent transforms of one stroke the later in the total order wins whole (last writer wins).

import { showsFill } from './board-brush.js';
import { IDENTITY } from './board-drawing.js';
import { gaps } from '../geometry/intervals.js';
import { LIMITS } from './operation.js';
import { compareStrokeRefs, parseStrokeId } from './ids.js';

/**
 * @typedef {[number, number, number, number, number, number]} Matrix `[a, b, c, d, tx, ty]`: SVG's
 *   `matrix(a b c d tx ty)`, mapping (x, y) to (a·x + c·y + tx, b·x + d·y + ty)
 * @typedef {import('./board-drawing.js').DrawingStroke} DrawingStroke
 */

/** Steps per board pixel of a move: offsets land on the ink grid (Swift's `InkGrid`). */
const GRID = 8;

/**
 * `outer` after `inner`: the matrix that applies `inner`, then `outer`. The sums are in the order Swift's
 * `Transform.concatenating` makes them, so both give the same doubles.
 * @param {Matrix} outer
 * @param {Matrix} inner
 * @returns {Matrix}
 */
export function compose(outer, inner) {
  const [a, b, c, d, tx, ty] = outer;
  return [
    a * inner[0] + c * inner[1],
    b * inner[0] + d * inner[1],
    a * inner[2] + c * inner[3],
    b * inner[2] + d * inner[3],
    a * inner[4] + c * inner[5] + tx,
    b * inner[4] + d * inner[5] + ty,
  ];
}

/** A move by (dx, dy), snapped to the ink grid. @returns {Matrix} */
export function translation(dx, dy) {
  return [1, 0, 0, 1, snap(dx), snap(dy)];
}

/**
 * Scaling by (sx, sy) about `pivot`: the pivot stays where it is.
 * @param {[number, number]} pivot
 * @returns {Matrix}
 */
export function scalingAbout(sx, sy, [px, py]) {
  return [sx, 0, 0, sy, px - sx * px, py - sy * py];
}

/**
 * Rotation by `angle` radians (clockwise on screen, where y grows downwards) about `pivot`.
 * @param {[number, number]} pivot
 * @returns {Matrix}
 */
export function rotationAbout(angle, [px, py]) {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return [cos, sin, -sin, cos, px - cos * px + sin * py, py - sin * px - cos * py];
}

/**
 * The operations that apply `matrix` to each stroke, after its own transform. None for a stroke whose
 * transform would not change, or would stop being finite.
 * @param {DrawingStroke[]} strokes
 * @param {Matrix} matrix
 * @returns {object[]}
 */
export function transformOperations(strokes, matrix) {
  const operations = [];
  for (const stroke of byId(strokes)) {
    const next = compose(matrix, stroke.transform ?? IDENTITY);
    if (!next.every(Number.isFinite) || next.every((value, i) => value === stroke.transform[i])) continue;
    operations.push({ op: 'set', stroke: stroke.id, attribute: 'transform', value: next });
  }
  return operations;
}

/**
 * The operations that recolour the strokes: none for a stroke already that colour.
 * @param {DrawingStroke[]} strokes
 * @param {number} colour 0xRRGGBBAA
 */
export function colourOperations(strokes, colour) {
  return byId(strokes)
    .filter((stroke) => stroke.colour !== colour)
    .map((stroke) => ({ op: 'set', stroke: stroke.id, attribute: 'colour', value: colour }));
}

/**
 * The operations that fill the ink strokes with `colour`: none for a stroke already so filled, nor for text
 * boxes and images, which take no fill. A colour of alpha 0 takes the fill away (none for a stroke without
 * one). Swift's `SelectionEdits.fill`.
 * @param {DrawingStroke[]} strokes
 * @param {number} colour 0xRRGGBBAA
 */
export function fillOperations(strokes, colour) {
  if (!(Number.isInteger(colour) && colour >= 0 && colour <= 0xffff_ffff)) return [];
  const wanted = showsFill(colour) ? colour : undefined;
  return byId(strokes)
    .filter((stroke) => stroke.text === undefined && stroke.image === undefined && stroke.fill !== wanted)
    .map((stroke) => ({ op: 'set', stroke: stroke.id, attribute: 'fill', value: colour }));
}

/**
 * The operations that give the strokes a width: none for a stroke already that wide.
 * @param {DrawingStroke[]} strokes
 * @param {number} width
 */
export function widthOperations(strokes, width) {
  if (!(Number.isFinite(width) && width > 0 && width <= LIMITS.maximumWidth)) return [];
  return byId(strokes)
    .filter((stroke) => stroke.width !== width)
    .map((stroke) => ({ op: 'set', stroke: stroke.id, attribute: 'width', value: width }));
}

/**
 * The operations that bring the selected strokes above every other, keeping their order among themselves.
 * None when they are on top already, in that order.
 * @param {Set<string>} selected
 * @param {DrawingStroke[]} stack every visible stroke, bottom to top (`Board.strokes()`)
 */
export function frontOperations(selected, stack) {
  const chosen = stack.filter((stroke) => selected.has(stroke.id));
  if (chosen.length === 0) return [];
  const rest = stack.filter((stroke) => !selected.has(stroke.id));
  if (rest.length === 0 || stack.slice(stack.length - chosen.length).every((stroke) => selected.has(stroke.id))) {
    return [];
  }
  const top = Math.max(...stack.map((stroke) => stroke.z));
  return chosen.map((stroke, i) => ({ op: 'set', stroke: stroke.id, attribute: 'zOrder', value: Math.floor(top) + 1 + i }));
}

/**
 * The operations that send the selected strokes below every other, keeping their order among themselves.
 * @param {Set<string>} selected
 * @param {DrawingStroke[]} stack bottom to top
 */
export function backOperations(selected, stack) {
  const chosen = stack.filter((stroke) => selected.has(stroke.id));
  if (chosen.length === 0) return [];
  const rest = stack.filter((stroke) => !selected.has(stroke.id));
  if (rest.length === 0 || stack.slice(0, chosen.length).every((stroke) => selected.has(stroke.id))) return [];
  const bottom = Math.min(...stack.map((stroke) => stroke.z));
  return chosen.map((stroke, i) => ({
    op: 'set',
    stroke: stroke.id,
    attribute: 'zOrder',
    value: Math.ceil(bottom) - chosen.length + i,
  }));
}

/**
 * The operations that copy strokes as new ones of one change, moved by `offset`: each an `addStroke` of
 * the same ink, style and brush (then its fill, when it has one), then an erase of what the original hides
 * and its transform after the move, so the copy looks exactly like the original did; a text box as an
 * `addText` of its corner and size, then an insert of its text as one run; an image as an `addImage` of the
 * same blob and box (the bytes are the room's already, so a copy uploads nothing). `newStroke(i)` is the id
 * the change gives its i-th add (`<replica>-<seq>-<i>`). Strokes come in the order given (bottom to top),
 * and stay in it above every stroke of `stack` (a copy with no z-order would sit below strokes brought to
 * the front); one longer than an operation may carry is left out.
 * @param {{colour: number, width: number, points: [number, number][], pressures: number[] | null,
 *   pieces: [number, number][], transform: Matrix, text?: string,
 *   image?: import('./board-image.js').BoardImage, brush?: 'highlighter', fill?: number}[]} strokes
 * @param {[number, number]} offset
 * @param {(index: number) => string} newStroke
 * @param {{z: number}[]} [stack] every visible stroke of the board pasted into
 * @returns {object[]}
 */
export function copyOperations(strokes, offset, newStroke, stack = []) {
  const copied = strokes.filter((stroke) => stroke.points.length > 0 && stroke.points.length <= LIMITS.maximumPointsPerOperation);
  const move = translation(offset[0], offset[1]);
  const adds = copied.map(addOf);
  const rest = [];
  const top = Math.max(0, ...stack.map((stroke) => stroke.z));
  copied.forEach((stroke, index) => {
    const id = newStroke(index);
    // A box: its text as one run.
    if (stroke.text) rest.push({ op: 'insertText', box: id, after: null, text: stroke.text });
    // Ink: its fill, which its add cannot carry.
    if (stroke.fill !== undefined) rest.push({ op: 'set', stroke: id, attribute: 'fill', value: stroke.fill });
    // A dot in the drawing is whole; a longer stroke hides what lies between its pieces.
    const hidden = stroke.points.length === 1 ? [] : gaps(stroke.pieces, 0, stroke.points.length - 1);
    if (hidden.length > 0) rest.push({ op: 'erase', stroke: id, intervals: hidden });
    const transform = compose(move, stroke.transform ?? IDENTITY);
    if (!transform.every((value, i) => value === IDENTITY[i])) {
      rest.push({ op: 'set', stroke: id, attribute: 'transform', value: transform });
    }
    if (top > 0) rest.push({ op: 'set', stroke: id, attribute: 'zOrder', value: Math.floor(top) + 1 + index });
  });
  return [...adds, ...rest];
}

/** The add that draws a copy of `stroke` before its transform: an image, a box or ink. */
function addOf(stroke) {
  const at = [stroke.points[0][0], stroke.points[0][1]];
  if (stroke.image !== undefined) {
    const { blob, bytes, type, width, height } = stroke.image;
    return { op: 'addImage', blob, bytes, type, at, width, height };
  }
  if (stroke.text !== undefined) return { op: 'addText', colour: stroke.colour, size: stroke.width, at };
  const add = {
    op: 'addStroke',
    colour: stroke.colour,
    width: stroke.width,
    points: stroke.points.map(([x, y]) => [x, y]),
    pressures: stroke.pressures === null ? null : [...stroke.pressures],
  };
  // A pen's add names no brush, as before brushes.
  return stroke.brush === undefined ? add : { ...add, brush: stroke.brush };
}

/** The strokes in id order (Swift's `StrokeID` order), so that equal selections make equal changes. */
function byId(strokes) {
  return strokes
    .map((stroke) => ({ stroke, ref: parseStrokeId(stroke.id) }))
    .sort((x, y) => compareStrokeRefs(x.ref, y.ref))
    .map(({ stroke }) => stroke);
}

function snap(value) {
  const steps = value * GRID;
  return (steps < 0 ? -Math.round(-steps) : Math.round(steps)) / GRID;
}
