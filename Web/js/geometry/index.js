/**
 * The browser's geometry, one import for the UI: the port of Swift's InkwellGeometry (smoothing, partial
 * and stroke erasers, spatial index, lasso, shape recognition), agreeing with it on Conformance/*.json.
 */

export { rect, boundingRect, unionRect, expandRect, rectsIntersect, rectContains } from './rect.js';
export { insertInterval, intervalUnion, setContains, gaps, isEmptyInterval } from './intervals.js';
export { bezierPoint, splitBezier, bezierPiece, bezierControlBounds } from './bezier.js';
export { smoothCurve, endParameter, curveSegment, curvePoint, curveBounds } from './smooth-curve.js';
export { curveBeziers, visibleRanges, isDotVisible } from './curve-pieces.js';
export { flattenCurve } from './flatten.js';
export { chunkBounds, pointChunkBounds } from './chunk-bounds.js';
export { sweptPath, withRadius, distanceToPath } from './eraser-path.js';
export { cutCurve, eraseIntervals } from './eraser.js';
export { strokeHit } from './hit-test.js';
export { SpatialIndex } from './spatial-index.js';
export { lasso, lassoContains, lassoSelects } from './lasso.js';
export { DEFAULT_CONFIGURATION } from './recognizer-config.js';
export { recognizeShape, translated } from './recognizer.js';
export { shapePolyline, ELLIPSE_SAMPLE_COUNT } from './shape-polyline.js';
