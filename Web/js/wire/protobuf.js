// Protocol buffers' binary wire format: the primitives, read and written exactly as swift-protobuf does.
//
// Reading follows swift-protobuf's BinaryDecoder rule for rule, so that the same bytes are accepted or
// refused on both sides: varints of at most ten bytes (bits past 64 dropped), field tags of at most five
// bytes at message level, field number 0 and wire types 6 and 7 refused, lengths checked against what
// is left, groups skipped with matching end tags, and nesting limited to 100 levels. Every failure is a
// `WireError` with code `malformed`; the codecs above rename it after the message they were reading.

import { WireError } from './errors.js';

export const WireType = Object.freeze({
  varint: 0,
  fixed64: 1,
  lengthDelimited: 2,
  startGroup: 3,
  endGroup: 4,
  fixed32: 5,
});

/** swift-protobuf's default `messageDepthLimit`. */
export const MAXIMUM_DEPTH = 100;

const TWO_32 = 2 ** 32;
const MAX_SAFE_HIGH = 2 ** 21; // hi·2³² + lo is exact while hi < 2²¹

/** Reads protobuf primitives from a byte range. */
export class Reader {
  /**
   * @param {Uint8Array} bytes
   * @param {number} [start]
   * @param {number} [end]
   */
  constructor(bytes, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
    /** Low and high 32 bits of the last varint or fixed64 read. */
    this.lo = 0;
    this.hi = 0;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done() {
    return this.pos >= this.end;
  }

  get remaining() {
    return this.end - this.pos;
  }

  /** A varint of up to ten bytes into `lo`/`hi`; bits beyond 64 are dropped, as Swift does. */
  varint() {
    const { bytes, end } = this;
    let pos = this.pos;
    if (pos >= end) throw WireError.malformed('protobuf: truncated varint');
    let byte = bytes[pos++];
    if (byte < 0x80) {
      this.pos = pos;
      this.lo = byte;
      this.hi = 0;
      return;
    }
    let lo = byte & 0x7f;
    let hi = 0;
    for (let index = 1; ; index++) {
      if (pos >= end || index > 9) throw WireError.malformed('protobuf: bad varint');
      byte = bytes[pos++];
      const bits = byte & 0x7f;
      if (index < 4) lo |= bits << (7 * index);
      else if (index === 4) {
        lo |= bits << 28;
        hi = bits >>> 4;
      } else hi |= bits << (7 * index - 32);
      if (byte < 0x80) break;
    }
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi >>> 0;
  }

  /** A varint truncated to 32 bits (uint32 and fixed-size counts). */
  uint32() {
    this.varint();
    return this.lo;
  }

  /** A varint truncated to a signed 32-bit value (enums). */
  int32() {
    this.varint();
    return this.lo | 0;
  }

  bool() {
    this.varint();
    return (this.lo | this.hi) !== 0;
  }

  /** An unsigned 64-bit varint: a Number when it is at most 2^53 − 1, else a BigInt. */
  uint64() {
    this.varint();
    return unsignedValue(this.lo, this.hi);
  }

  /** A zig-zag signed 64-bit varint: a Number when |value| ≤ 2^53 − 1, else a BigInt. */
  sint64() {
    this.varint();
    const { lo, hi } = this;
    // value = (n >>> 1) ^ −(n & 1)
    const halfLo = ((lo >>> 1) | (hi << 31)) >>> 0;
    const halfHi = hi >>> 1;
    if ((lo & 1) === 0) return unsignedValue(halfLo, halfHi);
    // −(half + 1)
    if (halfHi < MAX_SAFE_HIGH && !(halfHi === MAX_SAFE_HIGH - 1 && halfLo === 0xffffffff)) {
      return -(halfHi * TWO_32 + halfLo + 1);
    }
    return -((BigInt(halfHi) << 32n) + BigInt(halfLo) + 1n);
  }

  fixed32() {
    if (this.remaining < 4) throw WireError.malformed('protobuf: truncated fixed32');
    const value = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return value;
  }

  /** Eight little-endian bytes into `lo`/`hi`. */
  fixed64() {
    if (this.remaining < 8) throw WireError.malformed('protobuf: truncated fixed64');
    this.lo = this.view.getUint32(this.pos, true);
    this.hi = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
  }

  double() {
    if (this.remaining < 8) throw WireError.malformed('protobuf: truncated double');
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  float() {
    if (this.remaining < 4) throw WireError.malformed('protobuf: truncated float');
    const value = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return value;
  }

  /** The length prefix of a length-delimited field, checked against what is left; returns its start. */
  lengthDelimited() {
    this.varint();
    if (this.hi !== 0 || this.lo >= 0x7fffffff) throw WireError.malformed('protobuf: length too large');
    if (this.lo > this.remaining) throw WireError.malformed('protobuf: truncated length-delimited field');
    const start = this.pos;
    this.pos += this.lo;
    return start;
  }

  /**
   * A message-level field tag, parsed as swift-protobuf's `nextFieldNumber` does: at most five bytes,
   * wire type 0–5, field number 1…2²⁹−1. Sets `fieldNumber` and `wireType`.
   */
  tag() {
    const { bytes, end } = this;
    const start = this.pos;
    const first = bytes[start];
    const wireType = first & 7;
    if (wireType > 5) throw WireError.malformed('protobuf: bad wire type');
    let fieldNumber = (first & 0x7f) >>> 3;
    let length = 1;
    if (first & 0x80) {
      for (;;) {
        if (start + length >= end) throw WireError.malformed('protobuf: truncated tag');
        const byte = bytes[start + length];
        if (length === 4) {
          if (byte > 15) throw WireError.malformed('protobuf: bad tag');
          fieldNumber += byte * 2 ** 25;
          length++;
          break;
        }
        fieldNumber |= (byte & 0x7f) << (7 * length - 3);
        length++;
        if (byte < 0x80) break;
      }
    }
    this.pos = start + length;
    if (fieldNumber === 0) throw WireError.malformed('protobuf: field number 0');
    if (wireType === WireType.endGroup) throw WireError.malformed('protobuf: unexpected end group');
    this.fieldNumber = fieldNumber;
    this.wireType = wireType;
  }

  /**
   * Skips the value of a field this reader does not know (or met with an unexpected wire type).
   * @param {number} wireType
   * @param {number} fieldNumber
   * @param {number} depth the nesting depth of the enclosing message
   */
  skip(wireType, fieldNumber, depth) {
    switch (wireType) {
      case WireType.varint:
        this.varint();
        return;
      case WireType.fixed64:
        if (this.remaining < 8) throw WireError.malformed('protobuf: truncated fixed64');
        this.pos += 8;
        return;
      case WireType.fixed32:
        if (this.remaining < 4) throw WireError.malformed('protobuf: truncated fixed32');
        this.pos += 4;
        return;
      case WireType.lengthDelimited:
        this.varint();
        if (this.hi !== 0 || this.lo > this.remaining) {
          throw WireError.malformed('protobuf: truncated length-delimited field');
        }
        this.pos += this.lo;
        return;
      case WireType.startGroup:
        this.skipGroup(fieldNumber, depth + 1);
        return;
      default:
        throw WireError.malformed('protobuf: unexpected end group');
    }
  }

  /** Skips a group up to its end tag; inner tags are full varints, as in swift-protobuf's `skipOver`. */
  skipGroup(fieldNumber, depth) {
    if (depth > MAXIMUM_DEPTH) throw WireError.malformed('protobuf: nested too deeply');
    for (;;) {
      if (this.done) throw WireError.malformed('protobuf: truncated group');
      this.varint();
      if (this.hi !== 0 || this.lo === 0xffffffff) throw WireError.malformed('protobuf: bad tag');
      const innerType = this.lo & 7;
      const innerNumber = this.lo >>> 3;
      if (innerNumber === 0 || innerType > 5) throw WireError.malformed('protobuf: bad tag');
      if (innerType === WireType.endGroup) {
        if (innerNumber === fieldNumber) return;
        throw WireError.malformed('protobuf: mismatched end group');
      }
      this.skip(innerType, innerNumber, depth);
    }
  }
}

/** @param {number} lo @param {number} hi */
function unsignedValue(lo, hi) {
  if (hi < MAX_SAFE_HIGH) return hi * TWO_32 + lo;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Writes protobuf primitives into a growing buffer. */
export class Writer {
  constructor(capacity = 64) {
    this.bytes = new Uint8Array(capacity);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
  }

  /** @param {number} count */
  reserve(count) {
    const needed = this.length + count;
    if (needed <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  /** The bytes written so far (a copy, so the writer can be reused). */
  finish() {
    return this.bytes.slice(0, this.length);
  }

  /** @param {number} fieldNumber @param {number} wireType */
  tag(fieldNumber, wireType) {
    this.varint(fieldNumber * 8 + wireType);
  }

  /**
   * An unsigned varint of a safe non-negative integer.
   * @param {number} value
   */
  varint(value) {
    this.reserve(10);
    const { bytes } = this;
    let pos = this.length;
    while (value >= 0x80) {
      bytes[pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    bytes[pos++] = value;
    this.length = pos;
  }

  /**
   * An unsigned varint of a BigInt in 0…2⁶⁴−1.
   * @param {bigint} value
   */
  varintBig(value) {
    this.reserve(10);
    while (value >= 0x80n) {
      this.bytes[this.length++] = Number(value & 0x7fn) | 0x80;
      value >>= 7n;
    }
    this.bytes[this.length++] = Number(value);
  }

  /** A uint64 given as a safe Number or a BigInt. @param {number | bigint} value */
  uint64(value) {
    if (typeof value === 'bigint') this.varintBig(value);
    else this.varint(value);
  }

  /** A negative int32 is sign-extended to ten bytes, as protobuf requires. @param {number} value */
  int32(value) {
    if (value >= 0) this.varint(value);
    else this.varintBig(BigInt.asUintN(64, BigInt(value)));
  }

  /** A zig-zag sint64 of a Number (|value| ≤ 2^52) or a BigInt. @param {number | bigint} value */
  sint64(value) {
    if (typeof value === 'bigint') {
      this.varintBig(value >= 0n ? value << 1n : (-value << 1n) - 1n);
    } else {
      this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
    }
  }

  /** @param {number} value */
  fixed32(value) {
    this.reserve(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }

  /** A fixed64 of a BigInt in 0…2⁶⁴−1. @param {bigint} value */
  fixed64(value) {
    this.reserve(8);
    this.view.setUint32(this.length, Number(value & 0xffffffffn), true);
    this.view.setUint32(this.length + 4, Number(value >> 32n), true);
    this.length += 8;
  }

  /** @param {number} value */
  double(value) {
    this.reserve(8);
    this.view.setFloat64(this.length, value, true);
    this.length += 8;
  }

  /** @param {number} value */
  float(value) {
    this.reserve(4);
    this.view.setFloat32(this.length, value, true);
    this.length += 4;
  }

  /** Raw bytes, without a length. @param {Uint8Array} bytes */
  raw(bytes) {
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A length prefix and the bytes. @param {Uint8Array} bytes */
  lengthDelimited(bytes) {
    this.varint(bytes.length);
    this.raw(bytes);
  }
}
