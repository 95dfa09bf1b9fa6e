// Reads the packs of one `packs` frame, as Swift's `PackIntake`: decodes them, keeps aside what this
// version cannot read yet (a newer schema, an encrypted pack) and counts what is unreadable for good.
// Storing is the caller's: all of one frame in one transaction.

import { decodeChange } from '../wire/change.js';
import { decodePack, packHeader } from '../wire/pack.js';
import { WireError } from '../wire/errors.js';
import { storedChange } from './store-records.js';

/**
 * @typedef {import('../wire/change.js').Change} Change
 * @typedef {import('./store-records.js').StoredChange} StoredChange
 * @typedef {import('./store-records.js').AsideItem} AsideItem
 * @typedef {{
 *   positions: number[], packBytes: number, changes: {change: Change, stored: StoredChange}[],
 *   aside: AsideItem[], rejected: number
 * }} Intake
 */

/**
 * @param {string} room
 * @param {{serverSeq: number, pack: Uint8Array}[]} packs
 * @returns {Promise<Intake>} every position counts as seen: what could not be read is kept or skipped
 * - Complexity: O(total bytes).
 */
export async function readPacks(room, packs) {
  /** @type {Intake} */
  const intake = { positions: [], packBytes: 0, changes: [], aside: [], rejected: 0 };
  for (const stored of packs) {
    intake.positions.push(stored.serverSeq);
    intake.packBytes += stored.pack.length;
    const read = await readPack(room, stored.pack);
    intake.changes.push(...read.changes);
    intake.aside.push(...read.aside);
    intake.rejected += read.rejected;
  }
  return intake;
}

/**
 * One pack's changes, what to keep aside, and how many entries were skipped.
 * @param {string} room
 * @param {Uint8Array} bytes
 * @returns {Promise<{changes: {change: Change, stored: StoredChange}[], aside: AsideItem[], rejected: number}>}
 */
export async function readPack(room, bytes) {
  const result = { changes: [], aside: [], rejected: 0 };
  let pack;
  try {
    pack = await decodePack(bytes);
  } catch (error) {
    if (isForLaterVersion(error)) {
      // Kept whole, to be decoded by a version that can (DESIGN §6).
      result.aside.push({ room, kind: 'pack', schemaVersion: packSchema(bytes), bytes });
    } else {
      result.rejected += 1;
    }
    return result;
  }
  for (const entry of pack.entries) {
    if (entry.room !== room) {
      result.rejected += 1;
      continue;
    }
    const read = readChange(room, entry.change, pack.schemaVersion);
    if (read.change !== null) result.changes.push(read.change);
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
    return { change: null, aside: null };
  }
}

/** @param {unknown} error */
function isForLaterVersion(error) {
  return error instanceof WireError && (error.code === 'futureSchema' || error.code === 'encrypted');
}

/** @param {Uint8Array} bytes */
function packSchema(bytes) {
  try {
    return packHeader(bytes).schemaVersion;
  } catch {
    return 0;
  }
}
