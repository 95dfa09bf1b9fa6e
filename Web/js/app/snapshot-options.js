/**
 * When this page sends room snapshots, from its address: `snapshot-threshold` (changes outside the newest
 * snapshot known before one is sent) and `snapshot-delay` (the longest wait, in seconds), for tests and for
 * whoever wants another pace. Absent or not a number, the session's defaults (snapshot-policy.js) hold.
 */

/**
 * The session options the page's parameters give.
 * @param {string} search e.g. `location.search`
 * @returns {{snapshotThreshold?: number, snapshotDelay?: number}}
 */
export function snapshotOptionsFrom(search) {
  const query = new URLSearchParams(search);
  const options = {};
  const threshold = number(query.get('snapshot-threshold'));
  if (threshold !== undefined && Number.isInteger(threshold) && threshold >= 1) options.snapshotThreshold = threshold;
  const delay = number(query.get('snapshot-delay'));
  if (delay !== undefined && delay >= 0) options.snapshotDelay = delay * 1000;
  return options;
}

/** @param {string | null} value @returns {number | undefined} */
function number(value) {
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
