// A seeded random source for tests: every random choice comes from a printed seed.

import { seededRandom as source } from '../../../js/sync/random.js';

/**
 * The seed for this run: INKWELL_SEED if set, else a fresh one.
 * @returns {number}
 */
export function runSeed() {
  const fromEnvironment = process.env.INKWELL_SEED;
  return fromEnvironment === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(fromEnvironment) >>> 0;
}

/**
 * The page's own seeded source (mulberry32, `js/sync/random.js`) with the helpers tests want.
 * @param {number} seed
 */
export function seededRandom(seed) {
  const next = source(seed);
  return {
    /** A float in [0, 1). */
    next,
    /** An integer in [low, high]. */
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    /** A float in [low, high). */
    float: (low, high) => low + next() * (high - low),
    bool: () => next() < 0.5,
    pick: (array) => array[Math.floor(next() * array.length)],
    /** A shuffled copy (Fisher–Yates). */
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

/**
 * Runs `body`, and on failure rethrows with the seed that reproduces it.
 * @param {number} seed
 * @param {() => void} body
 */
export function reproducibly(seed, body) {
  try {
    body();
  } catch (error) {
    error.message = `${error.message}\n  seed ${seed}: rerun with INKWELL_SEED=${seed}`;
    throw error;
  }
}

/** Every permutation of a small array. */
export function* permutations(array) {
  if (array.length <= 1) {
    yield [...array];
    return;
  }
  for (let i = 0; i < array.length; i++) {
    const rest = [...array.slice(0, i), ...array.slice(i + 1)];
    for (const tail of permutations(rest)) yield [array[i], ...tail];
  }
}
