// Raw deflate (RFC 1951) decoding, synchronous and bounded, behaving like one call of zlib's
// `inflate(Z_NO_FLUSH)` into an output buffer of a given capacity.
//
// Swift inflates a pack body with exactly one such call (compress-nio over the system zlib), and what it
// accepts depends on where zlib stops: at the end of the stream, when the input runs out, or when it
// must write a byte and the output is full. This decoder stops at the same points and refuses the same
// streams (the checks of zlib's inflate.c and inftrees.c, in the same order), so a pack is accepted or
// refused alike on both sides. It stores at most `keep` bytes and only counts the rest, so a
// decompression bomb costs no memory beyond what the caller agreed to keep.

import { WireError } from './errors.js';

/**
 * @typedef {{status: 'end' | 'input' | 'output', produced: number, consumed: number, output: Uint8Array}} Inflated
 * `end`: the final block ended (`consumed` bytes of input belong to the stream); `input`: the input ran
 * out first; `output`: a byte had to be written with `capacity` bytes already produced.
 */

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** Thrown inside the decoder when the input runs out; never escapes. */
const NEED_INPUT = Symbol('need input');
/** Thrown inside the decoder when a byte must be written to a full output; never escapes. */
const OUTPUT_FULL = Symbol('output full');

/** A table entry: symbol in the low 16 bits, code length above. */
const INVALID = (1 << 16) | 0xffff; // an unused code, one bit long (zlib's "invalid code marker")

/**
 * A decoding table: `entries[reversed code bits]`, indexed by the next `bits` input bits.
 * `empty` tables (no codes at all) read one bit per symbol, as zlib's do.
 * @typedef {{bits: number, entries: Int32Array, empty: boolean}} Table
 */

/**
 * Builds a canonical Huffman table as zlib's `inflate_table` judges it: over-subscribed sets are
 * refused, incomplete ones too unless (for literal/length and distance codes) a single one-bit code.
 * @param {Uint8Array} lengths
 * @param {number} start
 * @param {number} count
 * @param {boolean} codeLengths whether this is the code-length code (incomplete never allowed)
 * @param {string} what
 * @returns {Table}
 */
function buildTable(lengths, start, count, codeLengths, what) {
  const perLength = new Int32Array(16);
  for (let symbol = 0; symbol < count; symbol++) perLength[lengths[start + symbol]]++;
  let max = 15;
  while (max >= 1 && perLength[max] === 0) max--;
  if (max === 0) return { bits: 1, entries: new Int32Array([INVALID, INVALID]), empty: true };
  let left = 1;
  for (let length = 1; length <= 15; length++) {
    left = left * 2 - perLength[length];
    if (left < 0) throw WireError.malformed(`deflate: invalid ${what} set`);
  }
  if (left > 0 && (codeLengths || max !== 1)) throw WireError.malformed(`deflate: invalid ${what} set`);
  const next = new Int32Array(16);
  for (let length = 2, code = 0; length <= 15; length++) {
    code = (code + perLength[length - 1]) << 1;
    next[length] = code;
  }
  const size = 1 << max;
  const entries = new Int32Array(size).fill(INVALID);
  for (let symbol = 0; symbol < count; symbol++) {
    const length = lengths[start + symbol];
    if (length === 0) continue;
    const code = next[length]++;
    let reversed = 0;
    for (let bit = 0; bit < length; bit++) reversed |= ((code >> bit) & 1) << (length - 1 - bit);
    for (let index = reversed; index < size; index += 1 << length) entries[index] = symbol | (length << 16);
  }
  return { bits: max, entries, empty: false };
}

const FIXED_LITERALS = (() => {
  const lengths = new Uint8Array(288);
  lengths.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
  return buildTable(lengths, 0, 288, false, 'literal/lengths');
})();
const FIXED_DISTANCES = buildTable(new Uint8Array(32).fill(5), 0, 32, false, 'distances');

/**
 * Inflates `input` (raw deflate) as one zlib call with `capacity` bytes of output space would.
 * Throws `WireError` (`malformed`, detail `deflate: …`) where zlib reports a data error.
 * @param {Uint8Array} input
 * @param {number} capacity output space: decoding stops when a byte must be written beyond it
 * @param {number} [keep] bytes of output to store (at most `capacity`); the rest is only counted
 * @returns {Inflated}
 */
export function inflateRaw(input, capacity, keep = capacity) {
  const output = new Uint8Array(Math.min(keep, capacity));
  const stored = output.length;
  let pos = 0;
  let bitBuffer = 0;
  let bitCount = 0;
  let produced = 0;

  /** @param {number} count at most 16 */
  const need = (count) => {
    while (bitCount < count) {
      if (pos >= input.length) throw NEED_INPUT;
      bitBuffer |= input[pos++] << bitCount;
      bitCount += 8;
    }
  };
  /** @param {number} count */
  const take = (count) => {
    need(count);
    const value = bitBuffer & ((1 << count) - 1);
    bitBuffer >>>= count;
    bitCount -= count;
    return value;
  };
  /** @param {Table} table @param {string} what */
  const decode = (table, what) => {
    const mask = (1 << table.bits) - 1;
    for (;;) {
      const entry = table.entries[bitBuffer & mask];
      const length = entry >>> 16;
      if (length <= bitCount) {
        bitBuffer >>>= length;
        bitCount -= length;
        if (entry === INVALID && !table.empty) throw WireError.malformed(`deflate: invalid ${what} code`);
        return table.empty ? -1 : entry & 0xffff;
      }
      if (pos >= input.length) throw NEED_INPUT;
      bitBuffer |= input[pos++] << bitCount;
      bitCount += 8;
    }
  };
  /** @param {number} byte */
  const write = (byte) => {
    if (produced >= capacity) throw OUTPUT_FULL;
    if (produced < stored) output[produced] = byte;
    produced++;
  };

  const lengths = new Uint8Array(320);
  try {
    let last = false;
    while (!last) {
      last = take(1) === 1;
      const type = take(2);
      if (type === 0) {
        take(bitCount & 7);
        const length = take(16);
        const complement = take(16);
        if (length !== (complement ^ 0xffff)) throw WireError.malformed('deflate: invalid stored block lengths');
        for (let index = 0; index < length; index++) {
          if (produced >= capacity) throw OUTPUT_FULL;
          if (pos >= input.length) throw NEED_INPUT;
          write(input[pos++]);
        }
        continue;
      }
      let literals = FIXED_LITERALS;
      let distances = FIXED_DISTANCES;
      if (type === 2) {
        const header = take(14);
        const literalCount = (header & 31) + 257;
        const distanceCount = ((header >>> 5) & 31) + 1;
        const codeCount = (header >>> 10) + 4;
        if (literalCount > 286 || distanceCount > 30) {
          throw WireError.malformed('deflate: too many length or distance symbols');
        }
        lengths.fill(0, 0, 19);
        for (let index = 0; index < codeCount; index++) lengths[CODE_LENGTH_ORDER[index]] = take(3);
        const codes = buildTable(lengths, 0, 19, true, 'code lengths');
        const total = literalCount + distanceCount;
        const symbols = new Uint8Array(total);
        let have = 0;
        while (have < total) {
          // zlib reads an empty code-length code's "invalid" entries as length 0.
          const symbol = Math.max(decode(codes, 'code lengths'), 0);
          if (symbol < 16) {
            symbols[have++] = symbol;
            continue;
          }
          let value = 0;
          let repeat;
          if (symbol === 16) {
            const extra = take(2);
            if (have === 0) throw WireError.malformed('deflate: invalid bit length repeat');
            value = symbols[have - 1];
            repeat = 3 + extra;
          } else if (symbol === 17) repeat = 3 + take(3);
          else repeat = 11 + take(7);
          if (have + repeat > total) throw WireError.malformed('deflate: invalid bit length repeat');
          symbols.fill(value, have, have + repeat);
          have += repeat;
        }
        if (symbols[256] === 0) throw WireError.malformed('deflate: invalid code -- missing end-of-block');
        literals = buildTable(symbols, 0, literalCount, false, 'literal/lengths');
        distances = buildTable(symbols, literalCount, distanceCount, false, 'distances');
      } else if (type !== 1) {
        throw WireError.malformed('deflate: invalid block type');
      }
      for (;;) {
        const symbol = decode(literals, 'literal/length');
        if (symbol < 0) throw WireError.malformed('deflate: invalid literal/length code');
        if (symbol < 256) {
          write(symbol);
          continue;
        }
        if (symbol === 256) break;
        const lengthCode = symbol - 257;
        if (lengthCode >= 29) throw WireError.malformed('deflate: invalid literal/length code');
        let length = LENGTH_BASE[lengthCode] + take(LENGTH_EXTRA[lengthCode]);
        const distanceCode = decode(distances, 'distance');
        if (distanceCode < 0 || distanceCode >= 30) throw WireError.malformed('deflate: invalid distance code');
        const distance = DISTANCE_BASE[distanceCode] + take(DISTANCE_EXTRA[distanceCode]);
        if (produced >= capacity) throw OUTPUT_FULL;
        if (distance > produced) throw WireError.malformed('deflate: invalid distance too far back');
        while (length-- > 0) {
          const from = produced - distance;
          write(from < stored ? output[from] : 0);
        }
      }
    }
  } catch (signal) {
    if (signal === NEED_INPUT) return { status: 'input', produced, consumed: pos, output };
    if (signal === OUTPUT_FULL) return { status: 'output', produced, consumed: pos, output };
    throw signal;
  }
  return { status: 'end', produced, consumed: pos, output };
}
