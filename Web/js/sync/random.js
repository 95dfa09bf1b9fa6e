// A seeded random source (mulberry32), so that a test can replay the backoff's jitter from a printed seed.

/**
 * A function returning floats in [0, 1), drawn from `seed`.
 * @param {number} seed any 32-bit integer
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
}
