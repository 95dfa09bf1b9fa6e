// Writes Conformance/seal-js.json: `node Web/test/wire/write-seal-vectors.mjs`, then commit the file.
// Swift opens every case with its own sealing code; seal-vectors.test.mjs checks the file is current.

import { writeFileSync } from 'node:fs';
import { sealVectors } from './seal-vectors.mjs';
import { conformance } from './support.mjs';

// `node --test` with no paths runs every .mjs under a test/ folder: writing is for explicit runs only.
if (process.env.NODE_TEST_CONTEXT === undefined) {
  const path = conformance('seal-js.json');
  writeFileSync(path, `${JSON.stringify(await sealVectors(), null, 2)}\n`);
  console.log(`wrote ${path}`);
}
