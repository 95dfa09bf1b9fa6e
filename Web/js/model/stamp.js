// Hybrid logical clock readings, as `{wall, counter}`: 48 bits of wall milliseconds, then a 16-bit counter.
//
// Kept as two plain numbers rather than one 64-bit value: both fit exactly in a double, so no BigInt
// is needed, and comparing wall first then counter orders them exactly like Swift's raw `UInt64`.

/** The largest wall time a stamp can hold, in milliseconds since 1970. */
export const MAX_WALL = 2 ** 48 - 1;
/** The largest counter; one more borrows the next millisecond. */
export const MAX_COUNTER = 0xffff;
/** Before every real stamp. */
export const ZERO_STAMP = Object.freeze({ wall: 0, counter: 0 });

/**
 * @typedef {{wall: number, counter: number}} Stamp
 */

/**
 * Whether `value` is a stamp that fits the 48 + 16 bit layout.
 * @param {unknown} value
 * @returns {value is Stamp}
 */
export function isStamp(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    Number.isInteger(value.wall) &&
    value.wall >= 0 &&
    value.wall <= MAX_WALL &&
    Number.isInteger(value.counter) &&
    value.counter >= 0 &&
    value.counter <= MAX_COUNTER
  );
}

/**
 * Orders stamps by wall time, then counter.
 * @param {Stamp} a
 * @param {Stamp} b
 * @returns {number} negative, zero or positive
 */
export function compareStamps(a, b) {
  return a.wall - b.wall || a.counter - b.counter;
}
