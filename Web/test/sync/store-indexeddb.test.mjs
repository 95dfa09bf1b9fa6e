// The IndexedDB store keeps the store contract, in a real browser: headless Chromium opens
// support/idb-harness.html, which runs the cases of support/store-contract.mjs and posts the results.
// Skipped, saying so, where no Chromium is installed (CHROMIUM names another binary).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHROMIUM, startPageServer } from './support/browser.mjs';

test('the IndexedDB store keeps the store contract in Chromium', { skip: CHROMIUM === undefined && 'no Chromium: set CHROMIUM to run it', timeout: 60_000 }, async (t) => {
  const pages = await startPageServer();
  try {
    const outcome = await pages.run('/test/sync/support/idb-harness.html');
    for (const result of outcome) {
      t.diagnostic(`${result.ok ? 'ok' : 'FAILED'}: ${result.name}`);
      assert.ok(result.ok, `${result.name}: ${result.error}`);
    }
    assert.ok(outcome.length >= 9);
  } finally {
    await pages.close();
  }
});
