/**
 * Every threshold the shape recogniser uses, with Swift's defaults (`ShapeRecognizer.Configuration`). All
 * are ratios or angles (degrees), so nothing depends on the drawing's size, position or sampling rate. The
 * defaults were tuned in Swift on the $1 gesture logs (BENCHMARKS.md, "Shape recognition"); change them
 * there and here together.
 *
 * @typedef {typeof DEFAULT_CONFIGURATION} RecognizerConfiguration
 */
export const DEFAULT_CONFIGURATION = Object.freeze({
  /** Points the stroke is resampled to, evenly along its length, before anything is measured. */
  sampleCount: 64,
  /** Points a closed loop is resampled to; finer, so narrow rectangles keep four separate corners. */
  loopSampleCount: 96,

  /** The fraction of a line's samples, at each end, that may hook away from it. */
  lineHook: 0.05,
  /** A line's largest distance from its fitted line, hooks aside, as a fraction of its length. */
  lineMaxDeviation: 0.08,
  /** A line's drawn length over its straight extent. */
  lineMaxPathRatio: 1.1,
  /** A line (or an arrow's shaft) within this angle of horizontal, vertical or a diagonal is turned onto it. */
  lineSnapAngle: 5.0,

  /** A closed shape's opening: the gap between its ends plus `overshootWeight` times the overshoot cut off. */
  maxOpening: 0.17,
  overshootWeight: 0.5,
  /** How much of the stroke, both ends together, may overshoot the closing point and be cut off. */
  maxClosingTail: 0.15,
  /** Ends that both run on this far past the closing point and cross at more than `crossingAngle`: an ✗. */
  crossingTail: 0.03,
  crossingAngle: 45.0,
  /** A closed shape turns once around: a total turn further than this from 360° is not a shape. */
  turningTolerance: 90.0,

  /** Samples either side of a loop point whose directions are compared to measure the turn there. */
  cornerWindow: 4,
  /** The least turn, over the window, that counts as a corner. */
  cornerAngle: 35.0,
  /** Fraction of each polygon edge's samples, at either end, left out of the edge's line fit. */
  edgeTrim: 0.2,

  /** Each shape's largest mean distance of the stroke from its outline, as a fraction of its length. */
  maxEllipseError: 0.012,
  maxTriangleError: 0.012,
  maxRectangleError: 0.012,
  maxDiamondError: 0.016,

  /** An ellipse whose radii differ by less than this fraction of the larger becomes a circle. */
  circleTolerance: 0.15,
  /** An ellipse or rectangle within this angle of the axes is turned onto them. */
  axisSnapAngle: 5.0,
  /** A four-cornered loop whose diagonals are within this angle of the axes is a diamond. */
  diamondAxisTolerance: 15.0,

  /** The arrow's shaft ends where the stroke, having come at least this fraction of the way, turns back. */
  arrowShaftReach: 0.75,
  /** The shaft's largest distance from its chord, as a fraction of the arrow's length. */
  arrowShaftDeviation: 0.15,
  /** The head stays within this fraction of the arrow's length from the tip. */
  arrowMaxHeadRadius: 0.72,
  /** Each barb reaches at least this fraction of the arrow's length away from the shaft's line. */
  arrowMinBarb: 0.08,
  /** The head's drawn length is at most this multiple of the arrow's length. */
  arrowMaxHead: 2.0,
});
