/**
 * Which board the page opens, and with what access: `/` makes a new board (a room id, its three
 * capabilities and a key, kept in the device's store, admin included) and replaces the address with its
 * edit link, so a reload or a copied address opens the same board; a link's capability and key are kept
 * with what the device held before, so a later visit to the bare `/r/ROOM` still opens it. On the board
 * maker's device an old link (replaced since) changes nothing kept, and the address shows the current one.
 *
 * New boards made here are encrypted; a link without `cap`, to a room this device holds nothing for,
 * opens an open room as before capabilities existed.
 */

import { newBoardAccess, sameAccess, shareable, withLink } from '../sync/access.js';
import { linkPath, parseLink } from './link.js';
import { newRoomId } from './room.js';

/**
 * @typedef {import('../sync/store-records.js').AccessRecord} AccessRecord
 * @typedef {{
 *   location: {pathname: string, search: string, hash: string},
 *   history: {replaceState: (state: unknown, title: string, url: string) => void}
 * }} Page
 */

/**
 * @param {Page} page
 * @param {{
 *   saveAccess(record: AccessRecord): Promise<void>,
 *   updateAccess(room: string, update: (held: AccessRecord | null) => AccessRecord | null): Promise<AccessRecord | null>
 * }} store
 * @param {{makeId?: () => string, fillRandom?: (bytes: Uint8Array) => Uint8Array}} [options] tests inject ids and bytes
 * @returns {Promise<{room: string, access: AccessRecord | null, created: boolean}>} `access`: null for an open room
 */
export async function resolveBoard(page, store, { makeId = newRoomId, fillRandom } = {}) {
  const link = parseLink(page.location);
  if (link === null) {
    const access = newBoardAccess(makeId(), { fillRandom });
    // Kept before the address shows it: a link the page gave out is never one this device forgot.
    await store.saveAccess(access);
    showLink(page, access);
    return { room: access.room, access, created: true };
  }
  // Read and written in one step: another tab may be keeping another link of the board at the same moment.
  const access = await store.updateAccess(link.room, (held) => {
    if (held === null && link.capability === null) return null;
    const next = withLink(held, link);
    return sameAccess(next, held) ? null : next;
  });
  if (access === null) return { room: link.room, access: null, created: false };
  // The address shows a link that opens the board: not an old one the maker's device has replaced since.
  const oldLink = link.capability !== null && ![access.admin, access.edit, access.view].includes(link.capability);
  if (link.capability === null || oldLink || (link.key === null && access.key !== null)) showLink(page, access);
  return { room: link.room, access, created: false };
}

/**
 * Replaces the page's address with the best link the device can share (the edit link, else the view one),
 * keeping the page's other parameters.
 * @param {Page} page @param {AccessRecord} access
 */
export function showLink(page, access) {
  const { edit, view, key } = shareable(access);
  const capability = edit ?? view;
  if (capability === null) return;
  page.history.replaceState(null, '', linkPath({ room: access.room, capability, key }, page.location.search));
}
