// What a device holds to open a room (an AccessRecord, store-records.js): the capabilities it was given
// or made, and the room's key. Pure functions over the record; the store keeps it, the session sends
// what it says, the page shows the links it can share.
//
// The device that makes a board holds all three capabilities, the admin one included (it never goes in
// a link, so only this device can replace the others). A device that opened a link holds that link's
// capability; if the edit link's holder also kept the view capability (this code keeps whatever it was
// given), it can share both. A room with no capability is an open room: anyone who names it may edit.

import { capabilityHash, mintCapability, parseCapability } from '../wire/capability.js';
import { newRoomKeyBytes, parseRoomKey, roomKeyText } from '../wire/room-key.js';

/**
 * @typedef {import('./store-records.js').AccessRecord} AccessRecord
 * @typedef {'admin' | 'edit' | 'view'} Rights
 * @typedef {{room: string, capability: string | null, key: string | null}} Link what a link carries
 */

/** Rights, weakest first. */
const ORDER = ['view', 'edit', 'admin'];

/**
 * A new board's access: three fresh capabilities and, unless `encrypted` is false, a fresh key.
 * @param {string} room
 * @param {{encrypted?: boolean, fillRandom?: (bytes: Uint8Array) => Uint8Array}} [options]
 * @returns {AccessRecord}
 */
export function newBoardAccess(room, { encrypted = true, fillRandom } = {}) {
  return {
    room,
    admin: mintCapability('admin', fillRandom).text,
    edit: mintCapability('edit', fillRandom).text,
    view: mintCapability('view', fillRandom).text,
    key: encrypted ? roomKeyText(newRoomKeyBytes(fillRandom)) : null,
  };
}

/**
 * What the device holds once it has opened `link`: the link's capability under its kind (replacing one of
 * the same kind, since the newest link is the one that works) and its key, over what it held before.
 * A capability that does not parse is kept as the edit one would be: the server alone says what it opens.
 * On the device that made the board (it holds the admin capability) the links it holds are the ones it
 * gave out last, so an edit or view link that differs is an old one (a tab left open, a bookmark): it
 * replaces nothing.
 * @param {AccessRecord | null} record
 * @param {Link} link
 * @returns {AccessRecord}
 */
export function withLink(record, link) {
  const next = record ?? { room: link.room, admin: null, edit: null, view: null, key: null };
  const result = { ...next };
  const kind = link.capability === null ? null : parseCapability(link.capability)?.kind ?? 'edit';
  if (kind !== null && !(next.admin && kind !== 'admin' && next[kind])) result[kind] = link.capability;
  if (link.key !== null && parseRoomKey(link.key) !== null) result.key = link.key;
  return result;
}

/**
 * The record with `capability` in place of the one of its kind (after a rotation).
 * @param {AccessRecord} record @param {{kind: Rights, text: string}} capability
 * @returns {AccessRecord}
 */
export function withCapability(record, capability) {
  return { ...record, [capability.kind]: capability.text };
}

/**
 * What a tab holds once another tab of this device has kept `stored` for the room (after replacing a
 * link, or opening a link with the room's key): each capability the store holds in place of this tab's,
 * none forgotten. The store is where a replacement is kept, so it is the newer. A tab that holds the
 * room's key keeps it (its board is sealed with it), and a record with another key is another set of
 * links, not taken at all; a tab that holds none takes the stored one (a link opened here without its
 * key, then with it in another tab).
 * @param {AccessRecord | null} current what the tab holds (null: an open room, which stays one)
 * @param {AccessRecord | null} stored what the store holds now
 * @returns {AccessRecord | null} the record to hold, or null when nothing changes
 */
export function withStoredLinks(current, stored) {
  if (current === null || stored === null || stored.room !== current.room) return null;
  const key = current.key ?? null;
  if (key !== null && (stored.key ?? null) !== key) return null;
  const next = { ...current, key: key ?? stored.key ?? null };
  for (const kind of ORDER) next[kind] = stored[kind] ?? current[kind] ?? null;
  return sameAccess(next, current) ? null : next;
}

/**
 * Whether two records hold the same room, capabilities and key.
 * @param {AccessRecord | null} a @param {AccessRecord | null} b
 */
export function sameAccess(a, b) {
  if (a === null || b === null) return a === b;
  return ['room', 'key', ...ORDER].every((field) => (a[field] ?? null) === (b[field] ?? null));
}

/**
 * The strongest rights the record's capabilities give, as the page assumes them before the server says;
 * null for an open room (no capability: the server decides, and gives edit).
 * @param {AccessRecord | null} record
 * @returns {Rights | null}
 */
export function heldRights(record) {
  if (record === null) return null;
  for (const rights of [...ORDER].reverse()) if (record[rights] !== null && record[rights] !== undefined) return /** @type {Rights} */ (rights);
  return null;
}

/**
 * The capability to subscribe with: the strongest held (the admin device subscribes as admin, so that
 * replacing the edit link leaves its own tabs connected), '' for an open room.
 * @param {AccessRecord | null} record
 */
export function subscribeCapability(record) {
  const rights = heldRights(record);
  return rights === null ? '' : /** @type {string} */ (/** @type {AccessRecord} */ (record)[rights]);
}

/**
 * The hashes a createRoom frame registers, when this device made the board (holds the admin capability
 * and both others); null otherwise.
 * @param {AccessRecord | null} record
 * @returns {Promise<{adminHash: Uint8Array, editHash: Uint8Array, viewHash: Uint8Array} | null>}
 */
export async function creationHashes(record) {
  if (record === null || !record.admin || !record.edit || !record.view) return null;
  const [adminHash, editHash, viewHash] = await Promise.all([record.admin, record.edit, record.view].map(capabilityHash));
  return { adminHash, editHash, viewHash };
}

/**
 * The links this device can hand on: the edit and view capabilities it holds (null for those it does not),
 * with the key. An open room has none: its link is its name.
 * @param {AccessRecord | null} record
 * @returns {{edit: string | null, view: string | null, key: string | null, open: boolean}}
 */
export function shareable(record) {
  const edit = record?.edit ?? null;
  const view = record?.view ?? null;
  return { edit, view, key: record?.key ?? null, open: heldRights(record) === null };
}

/**
 * Whether `rights` may change the board (push, presence).
 * @param {Rights | null} rights
 */
export function mayEdit(rights) {
  return rights === 'edit' || rights === 'admin';
}
