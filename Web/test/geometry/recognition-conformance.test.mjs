// Conformance/recognition.json: the Swift recogniser's answers on synthetic strokes (kind and corrected
// geometry), which the browser must reproduce within 1e-6.
import test from 'node:test';
import assert from 'node:assert/strict';
import { conformance, near } from './support.mjs';
import { recognizeShape } from '../../js/geometry/recognizer.js';
import { shapePolyline } from '../../js/geometry/shape-polyline.js';

const vectors = conformance('recognition.json');
const TOLERANCE = 1e-6 * 1.01; // expected numbers are rounded to 1e-6

/** Compares recognised geometry with the vector's, key by key and number by number. */
function assertGeometry(actual, expected, where) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual) && actual.length === expected.length, `${where}: ${JSON.stringify(actual)}`);
    expected.forEach((value, index) => assertGeometry(actual[index], value, `${where}[${index}]`));
  } else if (typeof expected === 'object' && expected !== null) {
    assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), where);
    for (const key of Object.keys(expected)) assertGeometry(actual[key], expected[key], `${where}.${key}`);
  } else {
    assert.ok(near(actual, expected, TOLERANCE), `${where}: ${actual} vs ${expected}`);
  }
}

test('recognition.json covers every kind', () => {
  const kinds = new Set(vectors.cases.map((item) => item.kind));
  for (const kind of ['line', 'rectangle', 'ellipse', 'triangle', 'arrow', 'diamond', 'none']) {
    assert.ok(kinds.has(kind), kind);
  }
});

test('recogniser: kind and geometry match Swift', async (t) => {
  for (const item of vectors.cases) {
    await t.test(item.name, () => {
      const { kind, ...geometry } = recognizeShape(item.points);
      assert.equal(kind, item.kind);
      assertGeometry(geometry, item.geometry, item.name);
      const polyline = shapePolyline({ kind, ...geometry });
      assert.equal(polyline.length === 0, kind === 'none', 'a polyline exactly for shapes');
    });
  }
});
