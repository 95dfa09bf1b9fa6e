/**
 * Parameter intervals `[lower, upper)` of a stroke and unions of them (Swift's `IntervalSet`).
 *
 * A stroke of n + 1 points spans parameters `0..n`: `i + f` is the fraction f of the way from point i to
 * point i + 1 along the drawn curve. Union and difference use comparisons only, never arithmetic, so the
 * browser and Swift compute bit-identical visible pieces from the same erase intervals.
 *
 * @typedef {[number, number]} Interval
 */

/** Whether the interval covers nothing (`!(lower < upper)`, so NaN counts as empty). */
export function isEmptyInterval(interval) {
  return !(interval[0] < interval[1]);
}

/**
 * `set` (sorted, disjoint, non-touching intervals) with `interval` added, merged with every interval it
 * overlaps or touches. Returns a new array; `set` is not changed.
 * @param {Interval[]} set
 * @param {Interval} interval
 * @returns {Interval[]}
 */
export function insertInterval(set, interval) {
  if (isEmptyInterval(interval)) return set.slice();
  let lower = interval[0];
  let upper = interval[1];
  const kept = [];
  let placed = false;
  for (const existing of set) {
    if (existing[1] < lower) {
      kept.push(existing);
    } else if (upper < existing[0]) {
      if (!placed) {
        kept.push([lower, upper]);
        placed = true;
      }
      kept.push(existing);
    } else {
      lower = existing[0] < lower ? existing[0] : lower;
      upper = existing[1] >= upper ? existing[1] : upper;
    }
  }
  if (!placed) kept.push([lower, upper]);
  return kept;
}

/**
 * The union of any intervals, as a sorted, disjoint, non-touching set; empty ones are dropped.
 * @param {Interval[]} intervals
 * @returns {Interval[]}
 */
export function intervalUnion(intervals) {
  let set = [];
  for (const interval of intervals) set = insertInterval(set, interval);
  return set;
}

/**
 * Whether `parameter` is covered by the set. O(log n).
 * @param {Interval[]} set
 */
export function setContains(set, parameter) {
  let low = 0;
  let high = set.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (set[middle][1] <= parameter) low = middle + 1;
    else high = middle;
  }
  return low < set.length && set[low][0] <= parameter && parameter < set[low][1];
}

/**
 * The parts of `[start, end]` that no interval of `set` covers, each of positive length, in order: what
 * stays visible of a stroke spanning `start..end` once `set` is erased.
 * @param {Interval[]} set sorted and disjoint (see `intervalUnion`)
 * @returns {Interval[]}
 */
export function gaps(set, start, end) {
  const pieces = [];
  let cursor = start;
  for (const interval of set) {
    if (interval[1] <= cursor) continue;
    if (interval[0] >= end) break;
    if (interval[0] > cursor) pieces.push([cursor, interval[0]]);
    cursor = interval[1] >= cursor ? interval[1] : cursor;
  }
  if (cursor < end) pieces.push([cursor, end]);
  return pieces;
}
