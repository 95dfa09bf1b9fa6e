// Seeds for randomized tests: INKWELL_SEED replays a run; every test prints the seed it used.

import { runSeed, seededRandom } from '../../model/support/random.mjs';

export { runSeed };

/**
 * A seeded source with helpers, and the seed printed through the test's diagnostics.
 * @param {import('node:test').TestContext} t
 */
export function randomFor(t) {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  return { seed, ...seededRandom(seed) };
}
