/**
 * Board links, as docs/ACCESS-FORMATS.md fixes them: `ORIGIN/r/ROOM?cap=CAPABILITY#key=KEY` for an
 * encrypted board, without `#key=…` for a plain one, and `ORIGIN/r/ROOM` alone for an open room.
 *
 * The key rides in the fragment, which browsers never send to a server; the capability in the query, which
 * the page sends itself (in the subscribe frame), never in a request for the page.
 */

import { roomFromPath, roomPath } from './room.js';

/**
 * @typedef {import('../sync/access.js').Link} Link
 */

/**
 * The board a location names, with the capability and key its link carries (null where absent); null
 * when the path names no room (`/`).
 * @param {{pathname: string, search: string, hash: string}} location
 * @returns {Link | null}
 */
export function parseLink({ pathname, search, hash }) {
  const room = roomFromPath(pathname);
  if (room === null) return null;
  const capability = new URLSearchParams(search).get('cap');
  const key = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash).get('key');
  return { room, capability: capability === '' ? null : capability, key: key === '' ? null : key };
}

/**
 * A link to give out.
 * @param {string} origin e.g. `location.origin`
 * @param {{room: string, capability?: string | null, key?: string | null}} link
 * @returns {string}
 */
export function formatLink(origin, link) {
  return origin + linkPath(link);
}

/**
 * The path, query and fragment of a link; `search` keeps the page's other parameters (`review-after`…)
 * when the page replaces its own address.
 * @param {{room: string, capability?: string | null, key?: string | null}} link
 * @param {string} [search] the query to start from
 */
export function linkPath({ room, capability = null, key = null }, search = '') {
  const query = new URLSearchParams(search);
  query.delete('cap');
  if (capability !== null) query.set('cap', capability);
  const text = query.toString();
  // Base64url needs no escaping: URLSearchParams leaves `-` and `_` as they are.
  return roomPath(room) + (text === '' ? '' : `?${text}`) + (key === null ? '' : `#key=${key}`);
}
