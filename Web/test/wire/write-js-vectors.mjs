// Writes Conformance/wire-js.json: `node Web/test/wire/write-js-vectors.mjs`, then commit the file.
// Swift's WireVectorTests reads it with the real codecs; js-vectors.test.mjs checks it is current.

import { writeFileSync } from 'node:fs';
import { jsVectors } from './js-vectors.mjs';
import { conformance } from './support.mjs';

// `node --test` with no paths runs every .mjs under a test/ folder: writing is for explicit runs only.
if (process.env.NODE_TEST_CONTEXT === undefined) {
  const path = conformance('wire-js.json');
  writeFileSync(path, `${JSON.stringify(await jsVectors(), null, 2)}\n`);
  console.log(`wrote ${path}`);
}
