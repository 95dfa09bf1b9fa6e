// This page's presence as a frame: what `setPresence` takes, in the shape of sync.proto's `Presence`.

import { encodePoints } from '../wire/points.js';
import { SyncProtocol, WireLimits } from '../wire/limits.js';
import { utf8Length } from '../wire/bytes.js';
import { rgba } from './colour.js';

/**
 * What the page says about its user: a name and colour, the cursor over the board, the stroke being drawn.
 * @typedef {{
 *   name?: string, colour?: number | string, cursor?: [number, number] | null,
 *   ink?: {points: [number, number][], pressures?: number[] | null, colour?: number | string, width?: number} | null
 * }} PresenceInput
 */

/**
 * The presence frame of `input`. A name is never empty (an empty name with no cursor and no ink is how the
 * server announces that someone left), and in-progress ink keeps only its newest points if the whole
 * stroke would exceed the protocol's presence limit.
 * @param {string} room
 * @param {Uint8Array} device
 * @param {string} board
 * @param {PresenceInput} input
 * @returns {import('../wire/sync.js').PresenceFrame}
 * @throws {TypeError} for a colour that is not one, or a cursor or ink that is malformed
 */
export function presenceFrame(room, device, board, input) {
  const colour = rgba(input.colour ?? 0x000000ff);
  const cursor = input.cursor ?? null;
  if (cursor !== null && !(Array.isArray(cursor) && cursor.length === 2 && cursor.every(Number.isFinite))) {
    throw new TypeError('a cursor is [x, y] or null');
  }
  const frame = {
    type: /** @type {'presence'} */ ('presence'),
    room,
    device,
    name: shortName(input.name),
    colour,
    cursorX: cursor?.[0] ?? 0,
    cursorY: cursor?.[1] ?? 0,
    hasCursor: cursor !== null,
    board: '',
    ink: null,
  };
  const ink = input.ink ?? null;
  if (ink !== null && Array.isArray(ink.points) && ink.points.length > 0) {
    frame.board = board;
    frame.ink = {
      colour: rgba(ink.colour ?? colour),
      width: Number.isFinite(ink.width) && /** @type {number} */ (ink.width) > 0 ? /** @type {number} */ (ink.width) : 2,
      points: fittedPoints(ink.points, ink.pressures ?? null),
    };
  }
  return frame;
}

/** The encoded points, keeping the newest ones if all of them would be over the limit. */
function fittedPoints(points, pressures) {
  let start = 0;
  for (;;) {
    const bytes = encodePoints(points.slice(start), pressures === null ? null : pressures.slice(start));
    if (bytes.length <= SyncProtocol.maximumPresenceBytes || points.length - start <= 1) return bytes;
    start += Math.ceil((points.length - start) / 2);
  }
}

/** @param {unknown} name */
function shortName(name) {
  let text = typeof name === 'string' && name.trim() !== '' ? name : 'Anonymous';
  while (utf8Length(text) > WireLimits.maximumNameBytes) text = [...text].slice(0, -1).join('');
  return text;
}
