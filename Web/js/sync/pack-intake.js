// Reads the packs of one `packs` frame, as Swift's `PackIntake`: verifies and decodes them, keeps aside
// what this version cannot read yet (a newer schema, an encrypted pack without its key), what failed
// verification (a bad signature, a forged author, another room's pack, malformed bytes: kept with the
// reason, never applied) and changes stamped too far ahead of this page's clock (kept until it catches
// up). Storing is the caller's: all of one frame in one transaction.
//
// In an encrypted room (a room key is given) packs are opened with the key: one sealed with another key
// (`wrongKey`), altered (`tampered`) or not sealed at all (`unsealed`: anyone, the server included, can
// sign a plain pack with a key of their own) is kept aside like any pack that fails verification.

import { decodeChange } from '../wire/change.js';
import { WireError } from '../wire/errors.js';
import { SyncProtocol } from '../wire/limits.js';
import { decodePack, unverifiedPackHeader } from '../wire/pack.js';
import { storedChange } from './store-records.js';

/**
 * @typedef {import('../wire/change.js').Change} Change
 * @typedef {import('./store-records.js').StoredChange} StoredChange
 * @typedef {import('./store-records.js').AsideItem} AsideItem
 * @typedef {{now?: number, lead?: number}} Clock `now`: the server-corrected time, in milliseconds since
 *   1970; `lead`: how far ahead of it a change may be stamped and still be applied
 * @typedef {{changes: {change: Change, stored: StoredChange}[], aside: AsideItem[], refused: string[],
 *   ahead: number, earliestAhead: number, rejected: number}} Read what to apply, what to keep aside, the
 *   reasons of the packs refused, how many changes wait for the clock and the smallest wall time among
 *   their stamps (Infinity for none), and how many entries were unreadable for good
 * @typedef {Read & {positions: number[], packBytes: number}} Intake
 * @typedef {{roomKey?: import('../wire/room-key.js').RoomKey | null}} Keys `roomKey`: the encrypted room's key;
 *   null or absent for a plain room
 */

/** The reason of an item kept aside for its stamp. */
export const STAMP_AHEAD = 'stampAhead';

/**
 * @param {string} room the room the packs arrived for
 * @param {{serverSeq: number, pack: Uint8Array}[]} packs
 * @param {Clock} [clock]
 * @param {Keys} [keys]
 * @returns {Promise<Intake>} every position counts as seen: what could not be applied is kept or skipped
 * - Complexity: O(total bytes), plus one signature verification per pack.
 */
export async function readPacks(room, packs, clock = {}, keys = {}) {
  /** @type {Intake} */
  const intake = { positions: [], packBytes: 0, ...emptyRead() };
  for (const stored of packs) {
    intake.positions.push(stored.serverSeq);
    intake.packBytes += stored.pack.length;
    const read = await readPack(room, stored.pack, clock, keys);
    intake.changes.push(...read.changes);
    intake.aside.push(...read.aside);
    intake.refused.push(...read.refused);
    intake.ahead += read.ahead;
    intake.earliestAhead = Math.min(intake.earliestAhead, read.earliestAhead);
    intake.rejected += read.rejected;
  }
  return intake;
}

/**
 * One pack, verified as received for `room`: its changes, and what to keep aside.
 * @param {string} room
 * @param {Uint8Array} bytes
 * @param {Clock} [clock]
 * @param {Keys} [keys]
 * @returns {Promise<Read>}
 */
export async function readPack(room, bytes, { now = Date.now(), lead = SyncProtocol.maximumStampLeadMilliseconds } = {}, { roomKey = null } = {}) {
  const result = emptyRead();
  let pack;
  try {
    pack = await decodePack(bytes, { room, roomKey });
  } catch (error) {
    // Not the pack's fault (no WebCrypto, say): thrown, so the packs are not counted as seen.
    if (!(error instanceof WireError)) throw error;
    if (isForLaterVersion(error)) {
      // Kept whole, to be decoded by a version that can (DESIGN §6).
      result.aside.push({ room, kind: 'pack', schemaVersion: packSchema(bytes), bytes });
    } else {
      // Kept whole too, with the reason, to be looked at; its changes never reach the board.
      const reason = error.code;
      result.aside.push({ room, kind: 'pack', schemaVersion: packSchema(bytes), bytes, reason });
      result.refused.push(reason);
    }
    return result;
  }
  for (const change of pack.changes) {
    const read = readChange(room, change, pack.schemaVersion);
    if (read.change !== null && !isDue(read.change.change.stamp, now, lead)) {
      // Neither applied nor witnessed: the clock would have to jump there to keep Lamport's rule.
      result.aside.push({ room, kind: 'change', schemaVersion: pack.schemaVersion, bytes: change, reason: STAMP_AHEAD });
      result.ahead += 1;
      result.earliestAhead = Math.min(result.earliestAhead, read.change.change.stamp.wall);
    } else if (read.change !== null) result.changes.push(read.change);
    else if (read.aside !== null) result.aside.push(read.aside);
    else result.rejected += 1;
  }
  return result;
}

/**
 * One encoded change, decoded; or the item to keep aside; or neither (unreadable for good).
 * @param {string} room
 * @param {Uint8Array} bytes
 * @param {number} schemaVersion the pack's
 * @returns {{change: {change: Change, stored: StoredChange} | null, aside: AsideItem | null}}
 */
export function readChange(room, bytes, schemaVersion) {
  try {
    const change = decodeChange(bytes);
    return { change: { change, stored: storedChange(room, change, bytes, schemaVersion) }, aside: null };
  } catch (error) {
    if (error instanceof WireError && error.code === 'futureSchema') {
      return { change: null, aside: { room, kind: 'change', schemaVersion: error.schemaVersion ?? 0, bytes } };
    }
    if (error instanceof WireError && error.code === 'otherType') {
      // Another app's document in this room: kept aside as it came, never drawn.
      return { change: null, aside: { room, kind: 'change', schemaVersion: 0, bytes } };
    }
    return { change: null, aside: null };
  }
}

/**
 * Looks again at the changes kept aside for their stamp: those this page's clock has caught up with,
 * decoded, and how many still wait and from when.
 * @param {string} room
 * @param {(AsideItem & {id: number})[]} items the room's aside items (others than `stampAhead` are skipped)
 * @param {Clock} [clock]
 * @returns {{due: {id: number, change: Change, stored: StoredChange}[], waiting: number, earliestAhead: number}}
 */
export function reviewAhead(room, items, { now = Date.now(), lead = SyncProtocol.maximumStampLeadMilliseconds } = {}) {
  const result = { due: [], waiting: 0, earliestAhead: Infinity };
  for (const item of items) {
    if (item.reason !== STAMP_AHEAD || item.kind !== 'change') continue;
    const read = readChange(room, item.bytes, item.schemaVersion).change;
    if (read === null) continue;
    if (isDue(read.change.stamp, now, lead)) {
      result.due.push({ id: item.id, ...read });
    } else {
      result.waiting += 1;
      result.earliestAhead = Math.min(result.earliestAhead, read.change.stamp.wall);
    }
  }
  return result;
}

/**
 * Whether a change stamped `stamp` may be applied (and witnessed) at `now`.
 * @param {{wall: number}} stamp
 * @param {number} now
 * @param {number} [lead]
 */
export function isDue(stamp, now, lead = SyncProtocol.maximumStampLeadMilliseconds) {
  return stamp.wall <= now + lead;
}

/**
 * Whether an item was kept aside because it failed verification: it is never decoded into a board.
 * @param {AsideItem} item
 */
export function isRefused(item) {
  return item.reason !== undefined && item.reason !== STAMP_AHEAD;
}

/** @returns {Read} */
function emptyRead() {
  return { changes: [], aside: [], refused: [], ahead: 0, earliestAhead: Infinity, rejected: 0 };
}

/** @param {unknown} error */
function isForLaterVersion(error) {
  return error instanceof WireError && (error.code === 'futureSchema' || error.code === 'encrypted');
}

/** @param {Uint8Array} bytes */
function packSchema(bytes) {
  try {
    return unverifiedPackHeader(bytes).schemaVersion;
  } catch {
    return 0;
  }
}
