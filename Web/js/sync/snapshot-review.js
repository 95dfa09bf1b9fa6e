// What the page makes of a whole room snapshot, against what it holds: the trust rule of Swift's
// `SnapshotReview` (Sources/InkwellClient/Snapshots/SnapshotReview.swift).
//
// A snapshot is its author's word, checked as far as this page can:
// - its parts were verified one by one (signed for the room, sealed with its key, each change named by
//   the cut) and together (snapshot-assembly.js: the cut's changes exactly, each once, its author a
//   timeline of it);
// - every change it holds that this page holds too has the same bytes: no change is altered;
// - its cut covers `required`, what this page knows came in packs through the snapshot's position
//   (snapshot-tracker.js): nothing it stands for is left out; for this page's own timelines, that is
//   every change the server acknowledged;
// - a change of one of this page's own timelines that the page never made is a forgery.
// A page that holds nothing can check only the first point: it takes the snapshot on its author's word, as
// it takes packs on their authors'. That is why the server drops packs only once every author present has
// checked the snapshot that stands for them.

import { changeHeader } from '../wire/change.js';
import { cutSeq } from '../wire/snapshot-cover.js';
import { bytesEqual } from '../wire/bytes.js';

/**
 * @typedef {import('../wire/snapshot-assembly.js').RoomSnapshot} RoomSnapshot
 * @typedef {{key: string, replica: string, seq: number, bytes: Uint8Array}} NewChange a change the page
 *   did not hold, as the snapshot carries it
 * @typedef {{accepted: true, fresh: NewChange[]} | {accepted: false, reason: string, missingOwn: string[]}} Verdict
 *   `missingOwn`: keys of this page's own changes the snapshot leaves out though the server acknowledged
 *   them: they go back to the outbox
 */

/**
 * @param {RoomSnapshot} snapshot
 * @param {{
 *   held: (key: string) => Uint8Array | undefined, required: Map<string, number>, own: Set<string>,
 *   acknowledged: Set<string>
 * }} facts `held`: this page's bytes of a change, by key (`replica-seq`); `own`: this page's timelines;
 *   `acknowledged`: those of them whose acknowledged changes `required` names (the ones it pushes)
 * @returns {Verdict}
 * - Complexity: O(changes + replicas).
 */
export function reviewSnapshot(snapshot, { held, required, own, acknowledged }) {
  const missingOwn = [];
  for (const replica of acknowledged) {
    const needed = required.get(replica) ?? 0;
    for (let seq = cutSeq(snapshot.cut, replica) + 1; seq <= needed; seq++) missingOwn.push(`${replica}-${seq}`);
  }
  for (const [replica, seq] of required) {
    if (seq > cutSeq(snapshot.cut, replica)) {
      return { accepted: false, reason: `it leaves out changes of ${replica.slice(0, 8)} up to ${seq} that came before its position`, missingOwn };
    }
  }
  const fresh = [];
  for (const bytes of snapshot.changes) {
    let id;
    try {
      id = changeHeader(bytes).id;
    } catch (error) {
      return { accepted: false, reason: `it holds a change that does not decode: ${error?.message ?? error}`, missingOwn: [] };
    }
    const key = `${id.replica}-${id.seq}`;
    const mine = held(key);
    if (mine !== undefined) {
      if (!bytesEqual(mine, bytes)) return { accepted: false, reason: `its change ${key} differs from the one held here`, missingOwn: [] };
    } else if (own.has(id.replica)) {
      return { accepted: false, reason: 'it holds a change of this device that this device never made', missingOwn: [] };
    } else {
      fresh.push({ key, replica: id.replica, seq: id.seq, bytes });
    }
  }
  return { accepted: true, fresh };
}
