// The canonical bytes of what a board shows, as Sources/InkwellBoard/Drawing/BoardState+Canonical.swift:
// equal drawings, equal bytes, in Swift and here (checked by Conformance/board.json).
//
// Layout: a varint count of visible strokes, then bottom to top for each: the 16 replica bytes, seq and
// index as varints; colour 0xRRGGBBAA as a varint; width, z and the six transform numbers as 8-byte
// big-endian doubles (−0 written as 0); a varint point count and each point's x and y as doubles; a
// varint 0, or 1 followed by one double per point for pressures, or for a text box 2 followed by the
// varint length of its text's UTF-8 bytes and the bytes, or for an image 3 followed by the varint length of
// its blob's name and the name, its byte count as a varint, the varint length of its type's UTF-8 bytes and
// the bytes, and its height (each of these forms written 8 higher for a highlighter's stroke or a filled
// one, which then writes its brush as a varint, 0 pen or 1 highlighter, and a varint 0, or 1 followed by
// its fill colour as a varint); a varint piece count and each piece's lower and upper as doubles. Varints
// are LEB128.

import { BRUSHES } from './board-brush.js';
import { drawingStroke } from './board-drawing.js';
import { blobBytes } from './board-image.js';
import { CanonicalEncoder } from './canonical-encoder.js';
import { replicaBytes } from './ids.js';

const utf8 = new TextEncoder();

/**
 * Encodes the visible strokes, bottom to top.
 * @param {import('./board-state.js').BoardState} state
 * @returns {Uint8Array}
 * - Complexity: O(size of the visible strokes).
 */
export function encodeDrawing(state) {
  const encoder = new CanonicalEncoder();
  encoder.writeVarint(state.stack.length);
  for (const entry of state.stack) {
    const stroke = drawingStroke(state, entry.id);
    // A stroke's id is its add's change id and operation index.
    const { replica, seq, index } = entry.position;
    encoder.writeRaw(replicaBytes(replica));
    encoder.writeVarint(seq);
    encoder.writeVarint(index);
    encoder.writeVarint(stroke.colour);
    encoder.writeDouble(stroke.width);
    encoder.writeDouble(stroke.z);
    for (const number of stroke.transform) encoder.writeDouble(number);
    encoder.writeVarint(stroke.points.length);
    for (const [x, y] of stroke.points) {
      encoder.writeDouble(x);
      encoder.writeDouble(y);
    }
    // A highlighter's stroke, or one with a fill, says so after its form; others are as they were before
    // brushes and fills, so their bytes and the board's hash did not change.
    const styled = stroke.brush !== undefined || stroke.fill !== undefined;
    const extra = styled ? 8 : 0;
    if (stroke.image !== undefined) {
      // An image has no pressures either: what it names goes there (its width is the stroke's).
      const { bytes, type, height } = stroke.image;
      const name = blobBytes(stroke.image);
      const typeBytes = utf8.encode(type);
      encoder.writeVarint(3 + extra);
      encoder.writeVarint(name.length);
      encoder.writeRaw(name);
      encoder.writeVarint(bytes);
      encoder.writeVarint(typeBytes.length);
      encoder.writeRaw(typeBytes);
      encoder.writeDouble(height);
    } else if (stroke.text !== undefined) {
      // A box has no pressures: its text goes where they would.
      const bytes = utf8.encode(stroke.text);
      encoder.writeVarint(2 + extra);
      encoder.writeVarint(bytes.length);
      encoder.writeRaw(bytes);
    } else if (stroke.pressures === null) {
      encoder.writeVarint(0 + extra);
    } else {
      encoder.writeVarint(1 + extra);
      for (const pressure of stroke.pressures) encoder.writeDouble(pressure);
    }
    if (styled) {
      encoder.writeVarint(BRUSHES.indexOf(stroke.brush ?? 'pen'));
      if (stroke.fill === undefined) {
        encoder.writeVarint(0);
      } else {
        encoder.writeVarint(1);
        encoder.writeVarint(stroke.fill);
      }
    }
    encoder.writeVarint(stroke.pieces.length);
    for (const [lower, upper] of stroke.pieces) {
      encoder.writeDouble(lower);
      encoder.writeDouble(upper);
    }
  }
  return encoder.bytes;
}
