// Conformance/wire-js.json is what write-js-vectors.mjs writes now: rerun it and commit when this fails.

import assert from 'node:assert/strict';
import test from 'node:test';
import { decodePack } from '../../js/wire/pack.js';
import { jsVectors } from './js-vectors.mjs';
import { fromHex, loadJSON, packJSON } from './support.mjs';

test('wire-js.json is current', async () => {
  const committed = loadJSON('wire-js.json');
  const now = JSON.parse(JSON.stringify(await jsVectors()));
  // Deflate output depends on the zlib build: compare what those packs hold, not their bytes (nor their
  // ids and signatures, which follow from them).
  const packs = (file) =>
    Promise.all(
      (file.packs ?? []).map(async ({ bytes, id, ...rest }) =>
        rest.compression === 'none' ? { ...rest, id, bytes } : { ...rest, content: await content(fromHex(bytes)) },
      ),
    );
  assert.deepEqual(await packs(now), await packs(committed), 'packs: run node Web/test/wire/write-js-vectors.mjs');
  assert.deepEqual({ ...now, packs: null }, { ...committed, packs: null }, 'run node Web/test/wire/write-js-vectors.mjs');
});

/** What a deflated pack holds, or why it does not decode (a file written before the format changed). */
async function content(bytes) {
  try {
    return { ...packJSON(await decodePack(bytes)), id: null };
  } catch (error) {
    return { error: String(error) };
  }
}
