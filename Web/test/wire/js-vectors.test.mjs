// Conformance/wire-js.json is what write-js-vectors.mjs writes now: rerun it and commit when this fails.

import assert from 'node:assert/strict';
import test from 'node:test';
import { decodePackSync } from '../../js/wire/pack.js';
import { jsVectors } from './js-vectors.mjs';
import { fromHex, loadJSON } from './support.mjs';

test('wire-js.json is current', async () => {
  const committed = loadJSON('wire-js.json');
  const now = JSON.parse(JSON.stringify(await jsVectors()));
  // Deflate output depends on the zlib build: compare what those packs hold, not their bytes.
  const packs = (file) =>
    file.packs.map(({ bytes, ...rest }) => ({ ...rest, content: rest.compression === 'none' ? bytes : decodePackSync(fromHex(bytes)) }));
  assert.deepEqual(packs(now), packs(committed), 'packs: run node Web/test/wire/write-js-vectors.mjs');
  assert.deepEqual({ ...now, packs: null }, { ...committed, packs: null }, 'run node Web/test/wire/write-js-vectors.mjs');
});
