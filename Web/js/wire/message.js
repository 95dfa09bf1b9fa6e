// Protobuf messages to and from plain objects, driven by small descriptors (see schema.js).
//
// The rules are proto3's as swift-protobuf applies them, so both sides agree on every byte:
// - decoding: a field met twice keeps the last scalar, appends to a repeated field and merges a message;
//   a oneof keeps the last member seen (a message member met again is merged); a known field with an
//   unexpected wire type is skipped like an unknown one; repeated numbers are read packed or not.
// - encoding: fields in number order, zero values left out (a oneof member is always written, a message
//   whenever present), repeated numbers packed.
// Unknown fields are skipped: the codecs above rebuild messages from values, as the Swift codecs do.

import { WireError } from './errors.js';
import { MAXIMUM_DEPTH, Reader, WireType, Writer } from './protobuf.js';
import { utf8Decode, utf8Encode } from './bytes.js';

/**
 * @typedef {'uint32' | 'uint64' | 'sint64' | 'bool' | 'enum' | 'fixed32' | 'fixed64' | 'double' | 'float'
 *   | 'string' | 'bytes' | 'message'} FieldType
 * @typedef {{number: number, name: string, type: FieldType, repeated?: boolean, oneof?: string,
 *   message?: () => Descriptor}} Field
 * @typedef {{name: string, fields: Field[], byNumber: Map<number, Field>}} Descriptor
 */

const WIRE_TYPE = {
  uint32: WireType.varint,
  uint64: WireType.varint,
  sint64: WireType.varint,
  bool: WireType.varint,
  enum: WireType.varint,
  fixed32: WireType.fixed32,
  float: WireType.fixed32,
  fixed64: WireType.fixed64,
  double: WireType.fixed64,
  string: WireType.lengthDelimited,
  bytes: WireType.lengthDelimited,
  message: WireType.lengthDelimited,
};

const EMPTY = new Uint8Array(0);

/**
 * Describes a message: its fields in number order.
 * @param {string} name
 * @param {Field[]} fields
 * @returns {Descriptor}
 */
export function descriptor(name, fields) {
  const sorted = [...fields].sort((a, b) => a.number - b.number);
  return { name, fields: sorted, byNumber: new Map(sorted.map((field) => [field.number, field])) };
}

/**
 * A message with every field at its default: zero, empty, `null` for an absent message or oneof.
 * @param {Descriptor} type
 */
export function defaults(type) {
  /** @type {Record<string, any>} */
  const object = {};
  for (const field of type.fields) {
    if (field.oneof) object[field.oneof] = null;
    else if (field.repeated) object[field.name] = [];
    else object[field.name] = defaultValue(field.type);
  }
  return object;
}

/** @param {FieldType} type */
function defaultValue(type) {
  switch (type) {
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'bytes':
      return EMPTY;
    case 'message':
      return null;
    case 'fixed64':
      return 0n;
    default:
      return 0;
  }
}

/**
 * Decodes a message. Throws `WireError` (code `malformed`) for anything swift-protobuf would refuse.
 * @param {Descriptor} type
 * @param {Uint8Array} bytes
 * @returns {Record<string, any>}
 */
export function decodeMessage(type, bytes) {
  return decodeInto(type, bytes, 0, bytes.length, defaults(type), 1);
}

/**
 * @param {Descriptor} type
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} end
 * @param {Record<string, any>} target
 * @param {number} depth
 */
function decodeInto(type, bytes, start, end, target, depth) {
  if (depth > MAXIMUM_DEPTH) throw WireError.malformed('protobuf: nested too deeply');
  const reader = new Reader(bytes, start, end);
  while (!reader.done) {
    reader.tag();
    const field = type.byNumber.get(reader.fieldNumber);
    if (field === undefined || !readField(reader, field, target, depth)) {
      reader.skip(reader.wireType, reader.fieldNumber, depth);
    }
  }
  return target;
}

/**
 * Reads one occurrence of a known field; returns false when its wire type is not the field's, so the
 * caller skips it as swift-protobuf does.
 * @param {Reader} reader
 * @param {Field} field
 * @param {Record<string, any>} target
 * @param {number} depth
 */
function readField(reader, field, target, depth) {
  const wireType = reader.wireType;
  const expected = WIRE_TYPE[field.type];
  if (field.repeated) {
    const list = target[field.name];
    if (wireType === expected) {
      list.push(readValue(reader, field, null, depth));
      return true;
    }
    if (wireType !== WireType.lengthDelimited || expected === WireType.lengthDelimited) return false;
    const start = reader.lengthDelimited();
    const packed = new Reader(reader.bytes, start, reader.pos);
    while (!packed.done) list.push(readValue(packed, field, null, depth));
    return true;
  }
  if (wireType !== expected) return false;
  if (field.oneof) {
    const current = target[field.oneof];
    const existing = current !== null && current.case === field.name ? current.value : null;
    target[field.oneof] = { case: field.name, value: readValue(reader, field, existing, depth) };
  } else {
    target[field.name] = readValue(reader, field, target[field.name], depth);
  }
  return true;
}

/**
 * @param {Reader} reader
 * @param {Field} field
 * @param {any} existing the message to merge into, for message fields
 * @param {number} depth
 */
function readValue(reader, field, existing, depth) {
  switch (field.type) {
    case 'uint32':
      return reader.uint32();
    case 'uint64':
      return reader.uint64();
    case 'sint64':
      return reader.sint64();
    case 'bool':
      return reader.bool();
    case 'enum':
      return reader.int32();
    case 'fixed32':
      return reader.fixed32();
    case 'float':
      return reader.float();
    case 'double':
      return reader.double();
    case 'fixed64':
      reader.fixed64();
      return (BigInt(reader.hi) << 32n) | BigInt(reader.lo);
    case 'bytes': {
      const start = reader.lengthDelimited();
      return reader.bytes.slice(start, reader.pos);
    }
    case 'string': {
      const start = reader.lengthDelimited();
      const text = utf8Decode(reader.bytes.subarray(start, reader.pos));
      if (text === null) throw WireError.malformed('protobuf: invalid UTF-8');
      return text;
    }
    case 'message': {
      const start = reader.lengthDelimited();
      const type = /** @type {() => Descriptor} */ (field.message)();
      return decodeInto(type, reader.bytes, start, reader.pos, existing ?? defaults(type), depth + 1);
    }
  }
  throw new Error(`unknown field type ${field.type}`);
}

/**
 * Encodes a message from a plain object shaped like `defaults(type)`. Throws `WireError`
 * (`invalidField`) for a value its field cannot hold.
 * @param {Descriptor} type
 * @param {Record<string, any>} object
 * @returns {Uint8Array}
 */
export function encodeMessage(type, object) {
  const writer = new Writer();
  writeMessage(writer, type, object);
  return writer.finish();
}

/**
 * @param {Writer} writer
 * @param {Descriptor} type
 * @param {Record<string, any>} object
 */
function writeMessage(writer, type, object) {
  for (const field of type.fields) {
    if (field.oneof) {
      const member = object[field.oneof];
      if (member != null && member.case === field.name) writeField(writer, type, field, member.value);
    } else if (field.repeated) {
      const list = object[field.name];
      if (list == null || list.length === 0) continue;
      if (!Array.isArray(list)) throw WireError.invalidField(`${type.name}.${field.name}`);
      if (WIRE_TYPE[field.type] === WireType.lengthDelimited) {
        for (const value of list) writeField(writer, type, field, value);
      } else {
        const packed = new Writer(list.length * 2 + 8);
        for (const value of list) writeValue(packed, type, field, value);
        writer.tag(field.number, WireType.lengthDelimited);
        writer.lengthDelimited(packed.bytes.subarray(0, packed.length));
      }
    } else {
      const value = object[field.name];
      if (!isDefault(field, value)) writeField(writer, type, field, value);
    }
  }
}

/** @param {Field} field @param {any} value */
function isDefault(field, value) {
  if (value == null) return true;
  switch (field.type) {
    case 'message':
      return false;
    case 'bool':
      return value === false;
    case 'string':
    case 'bytes':
      return value.length === 0;
    case 'fixed64':
      return value === 0n || value === 0;
    default:
      return value === 0 || value === 0n;
  }
}

/** @param {Writer} writer @param {Descriptor} type @param {Field} field @param {any} value */
function writeField(writer, type, field, value) {
  writer.tag(field.number, WIRE_TYPE[field.type]);
  writeValue(writer, type, field, value);
}

const MAX_UINT64 = (1n << 64n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;

/** @param {Descriptor} type @param {Field} field */
const invalidValue = (type, field) => WireError.invalidField(`${type.name}.${field.name}`);

/** @param {Writer} writer @param {Descriptor} type @param {Field} field @param {any} value */
function writeValue(writer, type, field, value) {
  switch (field.type) {
    case 'uint32':
    case 'fixed32':
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw invalidValue(type, field);
      if (field.type === 'uint32') writer.varint(value);
      else writer.fixed32(value);
      return;
    case 'enum':
      if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) throw invalidValue(type, field);
      writer.int32(value);
      return;
    case 'uint64':
      if (typeof value === 'bigint') {
        if (value < 0n || value > MAX_UINT64) throw invalidValue(type, field);
      } else if (!Number.isSafeInteger(value) || value < 0) throw invalidValue(type, field);
      writer.uint64(value);
      return;
    case 'sint64':
      if (typeof value === 'bigint') {
        if (value < MIN_INT64 || value > MAX_INT64) throw invalidValue(type, field);
        writer.sint64(value);
      } else if (Number.isSafeInteger(value) && Math.abs(value) <= 2 ** 52) {
        writer.sint64(value + 0);
      } else if (Number.isSafeInteger(value)) {
        writer.sint64(BigInt(value));
      } else throw invalidValue(type, field);
      return;
    case 'fixed64': {
      const big = typeof value === 'bigint' ? value : Number.isSafeInteger(value) ? BigInt(value) : -1n;
      if (big < 0n || big > MAX_UINT64) throw invalidValue(type, field);
      writer.fixed64(big);
      return;
    }
    case 'bool':
      if (typeof value !== 'boolean') throw invalidValue(type, field);
      writer.varint(value ? 1 : 0);
      return;
    case 'double':
    case 'float':
      if (typeof value !== 'number') throw invalidValue(type, field);
      if (field.type === 'double') writer.double(value);
      else writer.float(value);
      return;
    case 'string':
      writer.lengthDelimited(utf8Encode(value, `${type.name}.${field.name}`));
      return;
    case 'bytes':
      if (!(value instanceof Uint8Array)) throw invalidValue(type, field);
      writer.lengthDelimited(value);
      return;
    case 'message': {
      if (typeof value !== 'object') throw invalidValue(type, field);
      const nested = new Writer();
      writeMessage(nested, /** @type {() => Descriptor} */ (field.message)(), value);
      writer.lengthDelimited(nested.bytes.subarray(0, nested.length));
      return;
    }
  }
  throw new Error(`unknown field type ${field.type}`);
}
