/**
 * A recognised shape as the points of the corrected stroke, committed as an ordinary stroke (Swift's
 * `RecognizedShape.polyline`).
 */

/** How many points an ellipse's polyline has, the closing point included. */
export const ELLIPSE_SAMPLE_COUNT = 65;

/**
 * The corrected geometry as one polyline; empty for 'none'. Closed shapes end where they start. An arrow is
 * drawn tail → tip → first barb, then back to the tip and out to the second barb, so it stays one stroke.
 * @param {import('./recognizer.js').RecognizedShape} shape
 * @returns {[number, number][]}
 */
export function shapePolyline(shape) {
  switch (shape.kind) {
    case 'line':
      return shape.points.map(copy);
    case 'rectangle':
    case 'triangle':
    case 'diamond':
      return shape.points.length === 0 ? [] : [...shape.points.map(copy), copy(shape.points[0])];
    case 'ellipse': {
      const { center, radiusX, radiusY, rotation } = shape;
      const cosine = Math.cos(rotation);
      const sine = Math.sin(rotation);
      const segments = ELLIPSE_SAMPLE_COUNT - 1;
      const points = [];
      for (let index = 0; index < segments; index++) {
        const angle = (2 * Math.PI * index) / segments;
        const u = radiusX * Math.cos(angle);
        const v = radiusY * Math.sin(angle);
        points.push([center[0] + u * cosine - v * sine, center[1] + u * sine + v * cosine]);
      }
      points.push(copy(points[0]));
      return points;
    }
    case 'arrow': {
      const points = [copy(shape.tail), copy(shape.tip)];
      shape.head.forEach((barb, index) => {
        if (index > 0) points.push(copy(shape.tip));
        points.push(copy(barb));
      });
      return points;
    }
    default:
      return [];
  }
}

function copy(point) {
  return [point[0], point[1]];
}
