// Reads the packs of one `packs` frame, as Swift's `PackIntake`: verifies and decodes them, keeps aside
// what this version cannot read yet (a newer schema, an encrypted pack without its key), what failed
// verification (a bad signature, a forged author, another room's pack, malformed bytes: kept with the
// reason, never applied) and changes stamped too far ahead of this page's clock (kept until it catches
// up). Storing is the caller's: all of one frame in one transaction.
//
// In an encrypted room (a room key is given) packs are opened with the key: one sealed with another key
// (`wrongKey`), altered (`tampered`) or not sealed at all (`unsealed`: anyone, the server included, can
// sign a plain pack with a key of their own) is kept aside like any pack that fails verification.
//
// A part of a room snapshot is read as one (snapshot-part.js) and handed back apart, for the session to
// gather and review; one that cannot be read is dropped (it is never applied, and its snapshot is never
// taken). Its position counts as seen like any pack's. For each pack read, the intake says whose it was
// and its newest change: what a snapshot standing for that position must hold.

import { changeOrigin, decodeChange } from '../wire/change.js';
import { WireError } from '../wire/errors.js';
import { SyncProtocol } from '../wire/limits.js';
import { decodePack, unverifiedPackHeader } from '../wire/pack.js';
import { decodeSnapshotPart } from '../wire/snapshot-part.js';
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
 * @typedef {{index: number, position: number, bytes: Uint8Array,
 *   part: import('../wire/snapshot-part.js').SnapshotPart | null, error: WireError | null}} ReceivedPart a
 *   snapshot part, decoded, or why it could not be; `index`: its place in the frame
 * @typedef {{index: number, position: number, replica: string, seq: number}} ReceivedPack a pack read: its
 *   author, and the seq of its newest change
 * @typedef {Read & {positions: number[], packBytes: number, parts: ReceivedPart[], received: ReceivedPack[]}} Intake
 *   `parts`: the snapshot parts among the packs; `received`: each pack read
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
  const intake = emptyIntake();
  for (const [index, stored] of packs.entries()) {
    intake.positions.push(stored.serverSeq);
    intake.packBytes += stored.pack.length;
    const read = await readPack(room, stored.pack, clock, keys);
    if (read.snapshotPart) {
      intake.parts.push(await readPart(room, index, stored.serverSeq, stored.pack, keys));
      continue;
    }
    if (read.newest > 0) intake.received.push({ index, position: stored.serverSeq, replica: /** @type {string} */ (read.replica), seq: read.newest });
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
 * Reads the packs of a `rebase` frame: every one a part of the snapshot standing for the frame's position,
 * and nothing else (a pack that is no part is dropped with its reason, never applied).
 * @param {string} room
 * @param {{serverSeq: number, pack: Uint8Array}[]} packs
 * @param {Keys} [keys]
 * @returns {Promise<Intake>} nothing to apply yet: the parts, for the session to gather and review
 */
export async function readRebase(room, packs, keys = {}) {
  const intake = emptyIntake();
  for (const [index, stored] of packs.entries()) {
    intake.positions.push(stored.serverSeq);
    intake.packBytes += stored.pack.length;
    intake.parts.push(await readPart(room, index, stored.serverSeq, stored.pack, keys));
  }
  return intake;
}

/**
 * A snapshot part that came at `position` (`index` in its frame), read for `room` with the room's key.
 * @param {string} room @param {number} index @param {number} position @param {Uint8Array} bytes @param {Keys} [keys]
 * @returns {Promise<ReceivedPart>}
 */
async function readPart(room, index, position, bytes, { roomKey = null } = {}) {
  try {
    return { index, position, bytes, part: await decodeSnapshotPart(bytes, { room, roomKey }), error: null };
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return { index, position, bytes, part: null, error };
  }
}

/**
 * One pack, verified as received for `room`: its changes, and what to keep aside; or, for a snapshot part,
 * `snapshotPart` and nothing else (readPart reads it).
 * @param {string} room
 * @param {Uint8Array} bytes
 * @param {Clock} [clock]
 * @param {Keys} [keys]
 * @returns {Promise<Read & {snapshotPart: boolean, replica: string | null, newest: number}>} `replica`: the
 *   pack's author, and `newest` its newest change's seq (0 when it was not read)
 */
export async function readPack(room, bytes, { now = Date.now(), lead = SyncProtocol.maximumStampLeadMilliseconds } = {}, { roomKey = null } = {}) {
  const result = { ...emptyRead(), snapshotPart: false, replica: /** @type {string | null} */ (null), newest: 0 };
  let pack;
  try {
    pack = await decodePack(bytes, { room, roomKey });
  } catch (error) {
    // Not the pack's fault (no WebCrypto, say): thrown, so the packs are not counted as seen.
    if (!(error instanceof WireError)) throw error;
    if (error.code === 'snapshotPart') {
      result.snapshotPart = true;
      return result;
    }
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
  result.replica = pack.replica;
  for (const change of pack.changes) {
    const seq = changeOrigin(change).seq;
    if (typeof seq === 'number') result.newest = Math.max(result.newest, seq);
  }
  return { ...result, ...readChanges(room, pack.changes, pack.schemaVersion, { now, lead }) };
}

/**
 * Encoded changes received (a pack's, or those of a room snapshot this page did not hold), read as a
 * pack's are: decoded to apply, or kept aside (a newer schema or another type; stamped too far ahead,
 * until the clock catches up), or unreadable for good.
 * @param {string} room
 * @param {Uint8Array[]} changes
 * @param {number} schemaVersion the pack's (or snapshot's)
 * @param {Clock} [clock]
 * @returns {Read}
 */
export function readChanges(room, changes, schemaVersion, { now = Date.now(), lead = SyncProtocol.maximumStampLeadMilliseconds } = {}) {
  const result = emptyRead();
  for (const change of changes) {
    const read = readChange(room, change, schemaVersion);
    if (read.change !== null && !isDue(read.change.change.stamp, now, lead)) {
      // Neither applied nor witnessed: the clock would have to jump there to keep Lamport's rule.
      result.aside.push({ room, kind: 'change', schemaVersion, bytes: change, reason: STAMP_AHEAD });
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
 * Opens again the packs kept aside for later (a newer schema, or sealed before this page held the room's
 * key) that open now, as Swift's `PackIntake.reopen`: each is verified as on arrival. One that opens gives
 * its changes, and what of it is still to keep aside (changes stamped too far ahead, of a newer schema or
 * another type), in place of the pack; one that now fails verification (sealed with another key, altered,
 * …) is to be kept with that reason, like a pack refused on arrival, and never tried again. Packs refused
 * before are not tried at all.
 * @param {string} room
 * @param {(AsideItem & {id: number})[]} items the room's aside items (all of them: the rest are skipped)
 * @param {Clock} [clock]
 * @param {Keys} [keys]
 * @returns {Promise<{id: number, changes: {change: Change, stored: StoredChange}[], aside: AsideItem[],
 *   refused: string | null, ahead: number, earliestAhead: number}[]>} one entry per pack that opened or is
 *   refused now; `aside` replaces it (for a refused pack, the pack with its reason)
 * - Complexity: O(bytes of the packs kept aside), plus one signature verification each.
 */
export async function reopenAside(room, items, clock = {}, keys = {}) {
  const reopened = [];
  for (const item of items) {
    if (item.kind !== 'pack' || item.reason !== undefined) continue;
    const read = await readPack(room, item.bytes, clock, keys);
    if (read.snapshotPart) continue;
    const [refused = null] = read.refused;
    // Still for later: the same pack, as it was kept.
    if (refused === null && read.aside.some((kept) => kept.kind === 'pack')) continue;
    const { changes, aside, ahead, earliestAhead } = read;
    reopened.push({ id: item.id, changes, aside, refused, ahead, earliestAhead });
  }
  return reopened;
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

/** @returns {Intake} */
function emptyIntake() {
  return { positions: [], packBytes: 0, parts: [], received: [], ...emptyRead() };
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
