// Unions of half-open parameter intervals `[lower, upper)`, as Sources/InkwellGeometry/Intervals/IntervalSet.swift.
//
// A set is a sorted array of disjoint, non-touching `[lower, upper]` pairs. Union and gaps use only
// comparisons, never arithmetic, so this computes bit-identical results to the Swift code.

/** @typedef {[number, number]} Interval */

/**
 * Whether an interval covers nothing (`!(lower < upper)`, so NaN ends are empty too).
 * @param {Interval} interval
 */
export function isEmptyInterval([lower, upper]) {
  return !(lower < upper);
}

/**
 * Adds `interval` to a set, merging it with every interval it overlaps or touches.
 * @param {Interval[]} set sorted, disjoint
 * @param {Interval} interval
 * @returns {Interval[]} the new set (a new array; `set` is left alone)
 * - Complexity: O(n) for n intervals held.
 */
export function insertInterval(set, interval) {
  if (isEmptyInterval(interval)) return set;
  let [lower, upper] = interval;
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
      lower = swiftMin(lower, existing[0]);
      upper = swiftMax(upper, existing[1]);
    }
  }
  if (!placed) kept.push([lower, upper]);
  return kept;
}

/**
 * Whether `parameter` is covered by the set.
 * @param {Interval[]} set
 * @param {number} parameter
 * - Complexity: O(log n).
 */
export function intervalSetContains(set, parameter) {
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
 * The parts of `[start, end]` the set does not cover, each of positive length, in order:
 * what stays visible of a stroke spanning `start...end` once the set is erased.
 * @param {Interval[]} set
 * @param {number} start
 * @param {number} end
 * @returns {Interval[]}
 */
export function intervalGaps(set, start, end) {
  const pieces = [];
  let cursor = start;
  for (const [lower, upper] of set) {
    if (upper <= cursor) continue;
    if (lower >= end) break;
    if (lower > cursor) pieces.push([cursor, lower]);
    cursor = swiftMax(cursor, upper);
  }
  if (cursor < end) pieces.push([cursor, end]);
  return pieces;
}

// Swift's `min` and `max`: which operand wins a tie decides the sign of a zero, so mirror them exactly.
function swiftMin(x, y) {
  return y < x ? y : x;
}

function swiftMax(x, y) {
  return y >= x ? y : x;
}
