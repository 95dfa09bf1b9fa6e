/**
 * The closed-shape test: if the stroke closes on itself and turns once around, the best fitting of an
 * ellipse, triangle, rectangle or diamond within its error limit (Swift's `ShapeRecognizer.closedShape`).
 */

import { closure, isCrossing } from './closure.js';
import { makeLoop, strongestCorners, loopError } from './loop.js';
import { ellipseFit } from './ellipse-fit.js';
import { polygonFit } from './polygon-fit.js';
import { squaredRectangle, squaredDiamond } from './quadrilaterals.js';
import { rotatedToStartNearest, radians, min, max } from './vector.js';

/**
 * An ellipse, triangle, rectangle or diamond shape, or null.
 * @param {[number, number][]} samples the evenly resampled stroke
 * @param {import('./recognizer-config.js').RecognizerConfiguration} configuration
 */
export function recognizeClosedShape(samples, configuration) {
  const found = closure(samples, configuration.maxClosingTail, configuration.overshootWeight);
  if (
    !(found.opening <= configuration.maxOpening) ||
    isCrossing(found, samples, configuration.crossingTail, radians(configuration.crossingAngle))
  ) {
    return null;
  }
  const loop = makeLoop(samples.slice(found.start, found.end + 1), configuration);
  if (
    !(loop.perimeter > 0) ||
    !(Math.abs(Math.abs(loop.totalTurning) - 2 * Math.PI) <= radians(configuration.turningTolerance))
  ) {
    return null;
  }
  const start = loop.points[0];
  let best = null;
  let bestError = Infinity;
  const consider = (shape, error, limit) => {
    if (!(error <= limit) || !(error < bestError)) return;
    best = shape;
    bestError = error;
  };
  const ellipse = ellipseFit(loop);
  if (ellipse !== null) consider(ellipseShape(ellipse, configuration), ellipse.error, configuration.maxEllipseError);
  const three = strongestCorners(loop, 3);
  const triangle = three && polygonFit(loop, three, configuration.edgeTrim);
  if (triangle) {
    consider(
      { kind: 'triangle', points: rotatedToStartNearest(triangle.vertices, start) },
      loopError(loop, triangle.vertices),
      configuration.maxTriangleError,
    );
  }
  const four = strongestCorners(loop, 4);
  const quadrilateral = four && polygonFit(loop, four, configuration.edgeTrim);
  if (quadrilateral) {
    // Standing on its corners, a four-sided loop is a diamond, never a rectangle turned by 45°.
    const diamond = squaredDiamond(quadrilateral, configuration);
    if (diamond !== null) {
      consider(
        { kind: 'diamond', points: rotatedToStartNearest(diamond, start) },
        loopError(loop, diamond),
        configuration.maxDiamondError,
      );
    } else {
      const rectangle = squaredRectangle(quadrilateral, configuration);
      if (rectangle !== null) {
        consider(
          { kind: 'rectangle', points: rotatedToStartNearest(rectangle, start) },
          loopError(loop, rectangle),
          configuration.maxRectangleError,
        );
      }
    }
  }
  return best;
}

/** The ellipse as drawn: a circle if its radii nearly agree, turned onto the axes if nearly aligned. */
function ellipseShape(fit, configuration) {
  const larger = max(fit.radiusX, fit.radiusY);
  if (larger - min(fit.radiusX, fit.radiusY) <= configuration.circleTolerance * larger) {
    const radius = (fit.radiusX + fit.radiusY) / 2;
    return { kind: 'ellipse', center: fit.center, radiusX: radius, radiusY: radius, rotation: 0 };
  }
  const rotation = Math.abs(fit.rotation) <= radians(configuration.axisSnapAngle) ? 0 : fit.rotation;
  return { kind: 'ellipse', center: fit.center, radiusX: fit.radiusX, radiusY: fit.radiusY, rotation };
}
