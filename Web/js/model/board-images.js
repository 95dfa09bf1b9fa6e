// The images of a board as the page needs them (docs/ARCHITECTURE.md, "Images on the board"): which blobs
// to fetch for what shows, the box each fills on screen, and the operation that places a new one. The
// board names an image long before its bytes arrive, so the page draws what it has and fetches the rest.

import { readOperation } from './operation.js';

/**
 * @typedef {import('./board-state.js').BoardState} BoardState
 * @typedef {import('./board-image.js').BoardImage} BoardImage
 * @typedef {import('./board-drawing.js').DrawingStroke} DrawingStroke
 * @typedef {{id: string, blob: string, type: string, bytes: number}} ImageBlob an image element and the blob
 *   that holds its bytes: its name (64 lowercase hex digits), its media type and its size
 */

/**
 * What the image `id` names, shown or not, or null if `id` is not an image that has arrived.
 * @param {BoardState} state
 * @param {string} id in the board's key form
 * @returns {BoardImage | null}
 */
export function boardImage(state, id) {
  const added = state.records.get(id)?.added ?? null;
  return added !== null && added.kind === 'image' ? added.image : null;
}

/**
 * The images among `strokes` with their blobs, in the order given (bottom to top for `Board.strokes()`):
 * what to fetch. Copies of one image name one blob, so a blob may come more than once.
 * @param {Iterable<DrawingStroke>} strokes
 * @returns {ImageBlob[]}
 */
export function imagesIn(strokes) {
  const images = [];
  for (const { id, image } of strokes) {
    if (image !== undefined) images.push({ id, blob: image.blob, type: image.type, bytes: image.bytes });
  }
  return images;
}

/**
 * The corners of the box an image fills, after its transform, clockwise from its corner point: where it
 * shows, for drawing, hit tests and bounds (Swift's `DrawingStroke.bounds` of an image).
 * @param {DrawingStroke} stroke an image of the drawing
 * @returns {[number, number][]}
 */
export function imageCorners(stroke) {
  const [x, y] = stroke.points[0];
  const { width, height } = /** @type {BoardImage} */ (stroke.image);
  const [a, b, c, d, tx, ty] = stroke.transform;
  const corners = [
    [x, y],
    [x + width, y],
    [x + width, y + height],
    [x, y + height],
  ];
  return corners.map(([px, py]) => [a * px + c * py + tx, b * px + d * py + ty]);
}

/**
 * The `addImage` that places `image` with its top-left corner at `at`, before any transform.
 * @param {{blob: string, bytes: number, type: string, width: number, height: number}} image
 * @param {[number, number]} at
 * @returns {object}
 * @throws {RangeError} when the board would ignore it: a blob name that is not 64 hex digits, a size not
 *   in 1…2^53 − 1, a type not in `IMAGE_TYPES`, a side not in (0, 100,000], or a corner off the board
 */
export function addImageOperation(image, at) {
  const { blob, bytes, type, width, height } = image;
  const operation = { op: 'addImage', blob, bytes, type, at: [at[0], at[1]], width, height };
  const read = readOperation(operation);
  if (read?.kind !== 'addImage') throw new RangeError('the board would ignore this image');
  // The name as the board keeps it, so the page's own change shows what it fetches.
  operation.blob = read.image.blob;
  return operation;
}
