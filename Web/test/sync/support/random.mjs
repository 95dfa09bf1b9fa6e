// Seeds for randomized tests: INKWELL_SEED replays a run; every test prints the seed it used.

import { seededRandom } from '../../../js/sync/random.js';

/** The seed for this run: INKWELL_SEED if set, else a fresh one. */
export function runSeed() {
  const fromEnvironment = process.env.INKWELL_SEED;
  return fromEnvironment === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(fromEnvironment) >>> 0;
}

/**
 * A seeded source with helpers, and the seed printed through the test's diagnostics.
 * @param {import('node:test').TestContext} t
 */
export function randomFor(t) {
  const seed = runSeed();
  t.diagnostic(`seed ${seed} (INKWELL_SEED=${seed} replays it)`);
  const next = seededRandom(seed);
  return {
    seed,
    next,
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    shuffled(array) {
      const copy = [...array];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy;
    },
  };
}
