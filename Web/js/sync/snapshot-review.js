// What the page makes of a whole room snapshot, against what it holds: the trust rule of Swift's
// `SnapshotReview` (Sources/InkwellClient/Snapshots/SnapshotReview.swift).
//
// A snapshot is its author's word, checked as far as this page can:
// - its parts were verified one by one (signed for the room, sealed with its key, each change named by
//   the cut) and together (snapshot-assembly.js: changes of the cut, each once, its author a timeline of it);
// - every change it holds that this page holds too has the same bytes: no change is altered;
// - its cut covers `required`, what this page knows came in packs through the snapshot's position
//   (snapshot-tracker.js): nothing it stands for is left out; for this page's own timelines, that is
//   every change the server acknowledged;
// - a change of one of this page's own timelines that the page never made is a forgery; one it made and no
//   longer holds, it left out itself as inert (store-compaction.js), and the snapshot may hold it: there is
//   nothing to compare it with, and nothing new to store (Swift's `ownMade`);
// - every change this page holds inside the cut that the snapshot leaves out stopped mattering by the
//   page's own rule (board-inert.js), over everything it holds together with what the snapshot holds. The
//   rule keeps the proof of what it leaves out (settles, the latest clear, the erases and deletions that
//   killed a stroke), so a page that still holds an old change can check it, a rebasing one included.
// A page that holds nothing can check only the first point: it takes the snapshot on its author's word, as
// it takes packs on their authors'. That is why the server drops packs only once every author present has
// checked the snapshot that stands for them.

import { compareChangeIds } from '../model/ids.js';
import { changeHeader, decodeChange } from '../wire/change.js';
import { WireError } from '../wire/errors.js';
import { cutSeq } from '../wire/snapshot-cover.js';
import { bytesEqual } from '../wire/bytes.js';
import { inertKeys } from './room-inert.js';

/**
 * @typedef {import('../wire/snapshot-assembly.js').RoomSnapshot} RoomSnapshot
 * @typedef {{key: string, replica: string, seq: number, bytes: Uint8Array}} NewChange a change the page
 *   did not hold, as the snapshot carries it
 * @typedef {{change: object | null, board: string | null}} Held a change this page holds: its JSON form,
 *   or null when the page cannot read it (another type, a newer schema); `board` the board it is of, null
 *   for another type
 * @typedef {{accepted: true, fresh: NewChange[], leftOut: string[]}
 *   | {accepted: false, reason: string, missingOwn: string[]}} Verdict `leftOut`: keys of the changes this
 *   page holds inside the cut that the snapshot does not, in order of replica, then seq; `missingOwn`: keys
 *   of this page's own changes it leaves out that the server must hold (acknowledged, or still mattering):
 *   they go back to the outbox
 */

/**
 * @param {RoomSnapshot} snapshot
 * @param {{
 *   held: (key: string) => Uint8Array | undefined, holdings: Map<string, Held>, required: Map<string, number>,
 *   own: Set<string>, acknowledged: Set<string>, ownMade?: Map<string, number>
 * }} facts `held`: this page's bytes of a change the snapshot holds, by key (`replica-seq`); `holdings`:
 *   every change this page holds of the room; `own`: this page's timelines; `acknowledged`: those of them
 *   whose acknowledged changes `required` names (the ones it pushes); `ownMade`: the last seq made on each
 *   of `own` (read after `held`)
 * @returns {Verdict}
 * - Complexity: O(changes + replicas), plus O(room) to build its boards when it leaves out a change held here.
 */
export function reviewSnapshot(snapshot, { held, holdings, required, own, acknowledged, ownMade = new Map() }) {
  const missingOwn = [];
  for (const replica of acknowledged) {
    const needed = required.get(replica) ?? 0;
    for (let seq = cutSeq(snapshot.cut, replica) + 1; seq <= needed; seq++) missingOwn.push(`${replica}-${seq}`);
  }
  for (const [replica, seq] of required) {
    if (seq > cutSeq(snapshot.cut, replica)) {
      const reason = `it leaves out changes of ${replica.slice(0, 8)} up to ${seq} that came before its position`;
      return { accepted: false, reason, missingOwn };
    }
  }
  const fresh = [];
  for (const bytes of snapshot.changes) {
    let id;
    try {
      id = changeHeader(bytes).id;
    } catch (error) {
      const reason = `it holds a change that does not decode: ${error?.message ?? error}`;
      return { accepted: false, reason, missingOwn: [] };
    }
    const key = `${id.replica}-${id.seq}`;
    const mine = held(key);
    if (mine !== undefined) {
      if (!bytesEqual(mine, bytes)) {
        return { accepted: false, reason: `its change ${key} differs from the one held here`, missingOwn: [] };
      }
    } else if (own.has(id.replica)) {
      // Made here and left out as inert since: nothing new, and nothing to compare.
      if (id.seq > (ownMade.get(id.replica) ?? 0)) {
        const reason = 'it holds a change of this device that this device never made';
        return { accepted: false, reason, missingOwn: [] };
      }
    } else {
      fresh.push({ key, replica: id.replica, seq: id.seq, bytes });
    }
  }
  const inSnapshot = new Set(snapshot.keys);
  const outside = [];
  for (const key of holdings.keys()) {
    if (inSnapshot.has(key)) continue;
    const id = keyId(key);
    if (id.seq <= cutSeq(snapshot.cut, id.replica)) outside.push(id);
  }
  const leftOut = outside.sort(compareChangeIds).map((id) => id.key);
  if (leftOut.length === 0) return { accepted: true, fresh, leftOut };
  const stillMatter = stillMattering(leftOut, snapshot, holdings);
  if (stillMatter.length > 0) {
    const reason = `it leaves out ${stillMatter[0]}, which still matters here`;
    return { accepted: false, reason, missingOwn: stillMatter.filter((key) => acknowledged.has(keyId(key).replica)) };
  }
  return { accepted: true, fresh, leftOut };
}

/**
 * Which of `leftOut` still matter by this page's rule (room-inert.js) over what it holds and what the
 * snapshot holds.
 * @param {string[]} leftOut
 * @param {RoomSnapshot} snapshot
 * @param {Map<string, Held>} holdings
 * @returns {string[]}
 * - Complexity: O(room) to decode what the snapshot brings and build the boards.
 */
function stillMattering(leftOut, snapshot, holdings) {
  const inSnapshot = new Set(snapshot.keys);
  // What the page holds has the snapshot's bytes, checked above: decoded once already.
  const brought = snapshot.changes.map((bytes, index) => holdings.get(snapshot.keys[index]) ?? readHeld(bytes));
  const kept = [...holdings].filter(([key]) => !inSnapshot.has(key)).map(([, one]) => one);
  const cut = new Map([...snapshot.cut].map(([replica, { seq }]) => [replica, seq]));
  const inert = inertKeys([...brought, ...kept], cut);
  return leftOut.filter((key) => !inert.has(key));
}

/**
 * An encoded change as this page holds it: decoded for its board, or unread (another type, or a board's
 * change this version cannot read).
 * @param {Uint8Array} bytes
 * @returns {Held}
 */
export function readHeld(bytes) {
  try {
    const change = decodeChange(bytes);
    return { change, board: change.board };
  } catch (error) {
    if (error instanceof WireError && error.code === 'otherType') return { change: null, board: null };
    try {
      return { change: null, board: changeHeader(bytes).board };
    } catch {
      return { change: null, board: null };
    }
  }
}

/** A key `replica-seq` as an id, the key kept. @param {string} key */
function keyId(key) {
  const dash = key.lastIndexOf('-');
  return { key, replica: key.slice(0, dash), seq: Number(key.slice(dash + 1)) };
}
