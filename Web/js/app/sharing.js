/**
 * Sharing preferences of a room: whether the user paused sharing there (kept in localStorage, per room, so
 * a reload stays paused), and how long away before what arrived is held for review (a page parameter,
 * for tests and for whoever wants another threshold).
 */

const PAUSED = 'inkwell.paused.';

/**
 * Whether sharing is paused in a room.
 * @param {Storage | null} storage `localStorage`; null or one that throws reads as not paused
 * @param {string} room
 */
export function loadPaused(storage, room) {
  try {
    return storage?.getItem(PAUSED + room) === 'true';
  } catch {
    return false;
  }
}

/**
 * Keeps the choice for later visits (nothing stored for a room that shares, the default).
 * @param {Storage | null} storage
 * @param {string} room
 * @param {boolean} paused
 */
export function savePaused(storage, room, paused) {
  try {
    if (paused) storage?.setItem(PAUSED + room, 'true');
    else storage?.removeItem(PAUSED + room);
  } catch {
    // Private browsing or a full quota: the choice lasts for this visit only.
  }
}

/**
 * The page's `review-after` parameter (seconds away before a catch-up is held for review), in
 * milliseconds; undefined when absent or not a number of seconds, for the session's default.
 * @param {string} search e.g. `location.search`
 * @returns {number | undefined}
 */
export function reviewAfterFrom(search) {
  const value = new URLSearchParams(search).get('review-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
