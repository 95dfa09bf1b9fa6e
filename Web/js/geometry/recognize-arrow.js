/**
 * The arrow test: a long, nearly straight shaft to the sample farthest from the start (the tip), then a
 * small head with a barb on each side of the shaft (Swift's `ShapeRecognizer.arrow` and `ArrowParts`).
 *
 * Only arrows drawn tail first count: read backwards, an ✗ or a delete mark also looks like a shaft with a
 * head, and on the $1 data accepting both directions cost far more false arrows than it found.
 */

import { add, sub, scale, divide, negate, cross, distance, angle, snapped, radians, min, max } from './vector.js';

/**
 * The stroke split into shaft and head, with the measures that decide whether it is an arrow, or null when
 * every sample is at the tail. Lengths are fractions of the arrow's length (tail to tip).
 * @param {[number, number][]} samples
 */
export function arrowParts(samples, shaftReach) {
  const tail = samples[0];
  const distances = samples.map((point) => distance(point, tail));
  let tipIndex = 0;
  for (let i = 0; i < samples.length; i++) if (distances[i] > distances[tipIndex]) tipIndex = i;
  const tip = samples[tipIndex];
  const size = distances[tipIndex];
  if (!(size > 0)) return null;
  // The shaft ends where the stroke, having come most of the way, first turns back towards the tail.
  let shaftEnd = 0;
  while (distances[shaftEnd] < shaftReach * size) shaftEnd += 1;
  while (shaftEnd + 1 < samples.length && distances[shaftEnd + 1] > distances[shaftEnd]) shaftEnd += 1;
  const shaft = divide(sub(samples[shaftEnd], tail), distances[shaftEnd]);
  let deviation = 0;
  for (let i = 0; i <= shaftEnd; i++) deviation = max(deviation, Math.abs(cross(shaft, sub(samples[i], tail))));
  const axis = divide(sub(tip, tail), size);
  let first = shaftEnd;
  let second = shaftEnd;
  let radius = 0;
  let headLength = 0;
  for (let index = shaftEnd; index < samples.length; index++) {
    const point = samples[index];
    if (index > shaftEnd) headLength += distance(point, samples[index - 1]);
    radius = max(radius, distance(point, tip));
    if (cross(axis, sub(point, tip)) > cross(axis, sub(samples[first], tip))) first = index;
    if (cross(axis, sub(point, tip)) < cross(axis, sub(samples[second], tip))) second = index;
  }
  return {
    tip,
    firstBarb: samples[min(first, second)],
    secondBarb: samples[max(first, second)],
    shaftDeviation: deviation / size,
    headRadius: radius / size,
    barbReach: min(cross(axis, sub(samples[first], tip)), -cross(axis, sub(samples[second], tip))) / size,
    headLength: headLength / size,
  };
}

/**
 * `{kind: 'arrow', tail, tip, head: [firstBarb, secondBarb]}` or null. The shaft snaps like a line; both
 * barbs get the mean length and the mean angle of the drawn ones.
 * @param {[number, number][]} samples the evenly resampled stroke
 * @param {import('./recognizer-config.js').RecognizerConfiguration} configuration
 */
export function recognizeArrow(samples, configuration) {
  const parts = arrowParts(samples, configuration.arrowShaftReach);
  if (
    parts === null ||
    !(
      parts.shaftDeviation <= configuration.arrowShaftDeviation &&
      parts.headRadius <= configuration.arrowMaxHeadRadius &&
      parts.barbReach >= configuration.arrowMinBarb &&
      parts.headLength <= configuration.arrowMaxHead
    )
  ) {
    return null;
  }
  const tail = samples[0];
  const size = distance(parts.tip, tail);
  const direction = snapped(divide(sub(parts.tip, tail), size), radians(configuration.lineSnapAngle));
  const tip = add(tail, scale(direction, size));
  const barb = (distance(parts.firstBarb, parts.tip) + distance(parts.secondBarb, parts.tip)) / 2;
  const back = negate(direction);
  const firstAngle = angle(back, sub(parts.firstBarb, parts.tip));
  const spread = (Math.abs(firstAngle) + Math.abs(angle(back, sub(parts.secondBarb, parts.tip)))) / 2;
  const side = firstAngle < 0 ? -1 : 1;
  return {
    kind: 'arrow',
    tail,
    tip,
    head: [add(tip, scale(turned(back, side * spread), barb)), add(tip, scale(turned(back, -side * spread), barb))],
  };
}

function turned(vector, by) {
  const c = Math.cos(by);
  const s = Math.sin(by);
  return [vector[0] * c - vector[1] * s, vector[0] * s + vector[1] * c];
}
