/**
 * Where a stroke closes on itself: the pair of samples, one near each end, that leaves the least of it open
 * (Swift's `Closure`).
 *
 * People overshoot or stop short when they close a shape. The closing pair minimises the gap between the
 * two samples plus a share of the overshoot cut off beyond them, both as fractions of the stroke's length, so
 * an overlap is cut where the ends meet while a stroke whose ends meet only far along stays open.
 */

import { distance, sub, angle, min, max } from './vector.js';
import { pathLength } from './polyline.js';

/**
 * The closing pair `{start, end, opening}`; at most `tailFraction` of the samples, both ends together, are
 * cut off. O(m²) for m samples in the tails.
 * @param {[number, number][]} samples
 * @returns {{start: number, end: number, opening: number}}
 */
export function closure(samples, tailFraction, overshootWeight) {
  const last = samples.length - 1;
  const total = pathLength(samples);
  const tail = Math.trunc(last * tailFraction);
  let best = { start: 0, end: last, opening: distance(samples[0], samples[last]) / total };
  for (let start = 0; start <= tail; start++) {
    for (let end = last - tail + start; end <= last; end++) {
      const overshoot = (start + last - end) / last;
      const opening = distance(samples[start], samples[end]) / total + overshootWeight * overshoot;
      if (opening < best.opening) best = { start, end, opening };
    }
  }
  return best;
}

/**
 * Whether both ends run on past the closing point and cross there, as in an ✗ or a fish, rather than
 * overlapping along the way as when people close a circle: such a stroke is not a closed shape.
 */
export function isCrossing(found, samples, minimumTail, minimumAngle) {
  const last = samples.length - 1;
  if (!(min(found.start, last - found.end) >= minimumTail * last)) return false;
  const first = sub(samples[min(found.start + 2, last)], samples[max(found.start - 2, 0)]);
  const second = sub(samples[min(found.end + 2, last)], samples[max(found.end - 2, 0)]);
  return Math.abs(angle(first, second)) > minimumAngle;
}
