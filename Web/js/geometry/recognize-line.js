/**
 * The line test: the stroke, hooks at its ends aside, stays close to its fitted line and barely doubles
 * back (Swift's `ShapeRecognizer.line`). The length is the resampled stroke's, so pixel noise in slow,
 * densely sampled parts does not count.
 */

import { lineFit, along, across } from './line-fit.js';
import { pathLength } from './polyline.js';
import { add, sub, scale, negate, snapped, radians, min, max } from './vector.js';

/**
 * `{kind: 'line', points: [start, end]}` or null.
 * @param {[number, number][]} samples the evenly resampled stroke
 * @param {import('./recognizer-config.js').RecognizerConfiguration} configuration
 */
export function recognizeLine(samples, configuration) {
  // Pen-down and pen-up hooks are left out of the fit and of the deviation, not of the length.
  const hook = Math.trunc((samples.length - 1) * configuration.lineHook);
  const body = samples.slice(hook, samples.length - hook);
  const fit = lineFit(body);
  if (fit === null) return null;
  let low = Infinity;
  let high = -Infinity;
  let deviation = 0;
  for (const point of samples) {
    low = min(low, along(fit, point));
    high = max(high, along(fit, point));
  }
  for (const point of body) deviation = max(deviation, Math.abs(across(fit, point)));
  const extent = high - low;
  if (
    !(extent > 0) ||
    !(deviation <= configuration.lineMaxDeviation * extent) ||
    !(pathLength(samples) <= configuration.lineMaxPathRatio * extent)
  ) {
    return null;
  }
  const forward = along(fit, samples[samples.length - 1]) >= along(fit, samples[0]);
  const direction = snapped(forward ? fit.direction : negate(fit.direction), radians(configuration.lineSnapAngle));
  const middle = add(fit.center, scale(fit.direction, (low + high) / 2));
  const half = scale(direction, extent / 2);
  return { kind: 'line', points: [sub(middle, half), add(middle, half)] };
}
