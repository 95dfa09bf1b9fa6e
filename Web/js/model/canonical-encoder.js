// A growable byte buffer with the writes of Sources/InkwellSync/Encoding/CanonicalEncoder.swift, and its
// FNV-1a fingerprint. Numbers are plain JS numbers: varints up to 2^53 are written exactly.

const TWO_32 = 2 ** 32;

export class CanonicalEncoder {
  #bytes = new Uint8Array(256);
  #length = 0;
  #view = new DataView(this.#bytes.buffer);

  /** The bytes written so far (a copy). @returns {Uint8Array} */
  get bytes() {
    return this.#bytes.slice(0, this.#length);
  }

  /**
   * An unsigned LEB128 varint.
   * @param {number} value a non-negative safe integer
   */
  writeVarint(value) {
    this.#reserve(10);
    // Above 2^31 the bitwise operators would truncate, so divide instead.
    while (value >= 0x80) {
      this.#bytes[this.#length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.#bytes[this.#length++] = value;
  }

  /**
   * A double by its bit pattern, big-endian, with every NaN as the one quiet NaN and −0 as +0.
   * @param {number} value
   */
  writeDouble(value) {
    this.#reserve(8);
    if (Number.isNaN(value)) {
      // Swift's `Double.nan`: 0x7FF8000000000000.
      this.#view.setUint32(this.#length, 0x7ff8_0000);
      this.#view.setUint32(this.#length + 4, 0);
    } else {
      this.#view.setFloat64(this.#length, value === 0 ? 0 : value);
    }
    this.#length += 8;
  }

  /**
   * Raw bytes, without a length.
   * @param {Uint8Array} bytes
   */
  writeRaw(bytes) {
    this.#reserve(bytes.length);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  #reserve(count) {
    if (this.#length + count <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#length + count));
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }
}

/**
 * The 64-bit FNV-1a hash of `bytes`, as 16 hex digits: Swift's `CanonicalEncoder.fingerprint`.
 * Not cryptographic: it detects accidents, not adversaries.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function fnv1a64(bytes) {
  // The 64-bit state as two 32-bit halves; the prime is 2^40 + 0x1b3, so
  // h·prime mod 2^64 = h·0x1b3 + (low << 40): the low half's product stays below 2^41, exact in a double.
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let i = 0; i < bytes.length; i++) {
    low = (low ^ bytes[i]) >>> 0;
    const product = low * 0x1b3;
    const carry = Math.floor(product / TWO_32);
    high = (Math.imul(high, 0x1b3) + carry + (low << 8)) >>> 0;
    low = product >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
