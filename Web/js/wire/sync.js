// Sync protocol frames (Protos/inkwell/v1/sync.proto) to and from bytes, as
// Sources/InkwellWire/Sync/SyncCodec.swift does it: the size is checked before parsing and every field
// after, so a frame that throws `WireError` has told the receiver nothing.
//
// A frame is a plain object: `type` names the oneof member and the member's fields follow in
// lowerCamelCase, bytes as Uint8Array, 64-bit counters as Numbers (a value above 2^53 − 1 is refused
// with `unrepresentable` rather than rounded). Encoding writes what Swift writes: a presence's cursor only
// when `hasCursor`, its `board` only with `ink`, a welcome's `limits` always. An ack names its pack by
// the SHA-256 of the pack's bytes (32 bytes); a welcome carries the server's clock (`serverTime`, ms since
// 1970, 0 when unknown). As Swift's vectors write them, a subscribe's `capability` and a presence's
// `sealed` are left out of a decoded frame when empty. An access frame's `rights` is the `Rights` enum
// (schema.js): 1 view, 2 edit, 3 admin; none (0) or an unknown value is refused. A packs frame has `rebase`
// only when it carries the parts of the snapshot standing for every position through it (protocol 4);
// a snapshot check names its snapshot by its 16-byte id and carries its signer's 32-byte key and 64-byte
// signature (snapshot-check.js).

import { WireError } from './errors.js';
import { utf8Length } from './bytes.js';
import { CAPABILITY_HASH_BYTES, MAXIMUM_CAPABILITY_BYTES } from './capability.js';
import { SyncProtocol, WireLimits, isValidRoom } from './limits.js';
import { CLIENT_FRAMES, SERVER_FRAMES } from './protocol.js';
import { decodeMessage, encodeMessage } from './message.js';
import * as schema from './schema.js';

/**
 * @typedef {{colour: number, width: number, points: Uint8Array}} Ink
 * @typedef {{type: 'presence', room: string, device: Uint8Array, name: string, colour: number,
 *   cursorX: number, cursorY: number, hasCursor: boolean, board: string, ink: Ink | null,
 *   sealed?: Uint8Array}} PresenceFrame `sealed`: the other fields, sealed with the room's key (seal.js)
 * @typedef {{type: 'hello', protocolVersion: number, minimumProtocolVersion: number, device: Uint8Array, agent: string}
 *   | {type: 'subscribe', room: string, after: number, capability?: string}
 *   | {type: 'snapshotChecked', room: string, snapshot: Uint8Array, author: Uint8Array, signature: Uint8Array}
 *   | {type: 'unsubscribe', room: string}
 *   | {type: 'push', room: string, pack: Uint8Array}
 *   | {type: 'createRoom', room: string, adminHash: Uint8Array, editHash: Uint8Array, viewHash: Uint8Array}
 *   | {type: 'rotateCapability', room: string, adminCapability: string, editHash: Uint8Array, viewHash: Uint8Array}
 *   | PresenceFrame} ClientFrame
 * @typedef {{type: 'welcome', protocolVersion: number, server: Uint8Array,
 *     limits: {maxFrameBytes: number, maxMessageBytes: number, maxPackBodyBytes: number}, serverTime: number}
 *   | {type: 'ack', room: string, packId: Uint8Array, serverSeq: number}
 *   | {type: 'packs', room: string, packs: {serverSeq: number, pack: Uint8Array}[], head: number, rebase?: number}
 *   | PresenceFrame
 *   | {type: 'presences', presences: PresenceFrame[]}
 *   | {type: 'progress', room: string, head: number, bytesBehind: number, packsBehind: number}
 *   | {type: 'error', code: number, message: string, fatal: boolean, room: string}
 *   | {type: 'access', room: string, rights: number, guarded: boolean}} ServerFrame
 */

const EMPTY = new Uint8Array(0);

/** The most bytes a sealed presence may hold: the presence limit, and room for the rest of it. */
export const MAXIMUM_SEALED_PRESENCE_BYTES = SyncProtocol.maximumPresenceBytes + 1024;

// The frame kinds of sync.proto, generated into protocol.js, as schema.js names them (`create_room` →
// `createRoom`).
const camel = (/** @type {string} */ name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const CLIENT_TYPES = CLIENT_FRAMES.map(camel);
const SERVER_TYPES = SERVER_FRAMES.map(camel);

/**
 * Encodes a frame a client sends.
 * @param {ClientFrame} frame
 * @returns {Uint8Array}
 */
export function encodeClientFrame(frame) {
  const type = frameType(frame, CLIENT_TYPES);
  let value;
  switch (frame.type) {
    case 'hello':
      value = { ...frame, device: replica(frame.device, 'hello.device') };
      break;
    case 'presence':
      value = presenceMessage(frame);
      break;
    case 'createRoom':
      value = {
        room: frame.room,
        adminHash: sized(frame.adminHash, CAPABILITY_HASH_BYTES, 'create_room.admin_hash'),
        editHash: sized(frame.editHash, CAPABILITY_HASH_BYTES, 'create_room.edit_hash'),
        viewHash: sized(frame.viewHash, CAPABILITY_HASH_BYTES, 'create_room.view_hash'),
      };
      break;
    case 'rotateCapability':
      value = {
        room: frame.room,
        adminCapability: frame.adminCapability,
        editHash: optionalHash(frame.editHash, 'rotate_capability.edit_hash'),
        viewHash: optionalHash(frame.viewHash, 'rotate_capability.view_hash'),
      };
      break;
    case 'snapshotChecked':
      value = {
        room: frame.room,
        snapshot: sized(frame.snapshot, 16, 'snapshot_checked.snapshot'),
        author: sized(frame.author, 32, 'snapshot_checked.author'),
        signature: sized(frame.signature, 64, 'snapshot_checked.signature'),
      };
      break;
    default:
      value = frame;
  }
  return encodeMessage(schema.ClientFrame, { frame: { case: type, value } });
}

/**
 * Encodes a frame a server sends.
 * @param {ServerFrame} frame
 * @returns {Uint8Array}
 */
export function encodeServerFrame(frame) {
  const type = frameType(frame, SERVER_TYPES);
  let value;
  switch (frame.type) {
    case 'welcome':
      value = {
        ...frame,
        server: replica(frame.server, 'welcome.server'),
        limits: frame.limits ?? {},
        serverTime: frame.serverTime ?? 0,
      };
      break;
    case 'ack':
      value = { ...frame, packId: sized(frame.packId, 32, 'ack.pack_id') };
      break;
    case 'presence':
      value = presenceMessage(frame);
      break;
    case 'presences':
      if (!Array.isArray(frame.presences)) throw WireError.invalidField('presences.presences');
      value = { presences: frame.presences.map(presenceMessage) };
      break;
    default:
      value = frame;
  }
  return encodeMessage(schema.ServerFrame, { frame: { case: type, value } });
}

/**
 * Decodes a frame a client sent (what a server or relay reads).
 * @param {Uint8Array} bytes
 * @returns {ClientFrame}
 */
export function decodeClientFrame(bytes) {
  const member = parse(schema.ClientFrame, bytes);
  const wire = member.value;
  switch (member.case) {
    case 'hello':
      if (wire.device.length !== 16) throw WireError.invalidField('hello.device');
      if (utf8Length(wire.agent) > WireLimits.maximumNameBytes) throw WireError.invalidField('hello.agent');
      return {
        type: 'hello',
        protocolVersion: wire.protocolVersion,
        minimumProtocolVersion: wire.minimumProtocolVersion,
        device: wire.device,
        agent: wire.agent,
      };
    case 'subscribe': {
      const frame = { type: /** @type {'subscribe'} */ ('subscribe'), room: room(wire.room), after: counter(wire.after, 'subscribe.after') };
      const text = capability(wire.capability, 'subscribe.capability');
      return text === '' ? frame : { ...frame, capability: text };
    }
    case 'unsubscribe':
      return { type: 'unsubscribe', room: room(wire.room) };
    case 'push':
      if (wire.pack.length === 0) throw WireError.missingField('push.pack');
      return { type: 'push', room: room(wire.room), pack: wire.pack };
    case 'presence':
      return presence(wire);
    case 'createRoom':
      return {
        type: 'createRoom',
        room: room(wire.room),
        adminHash: hash(wire.adminHash, 'create_room.admin_hash', true),
        editHash: hash(wire.editHash, 'create_room.edit_hash', true),
        viewHash: hash(wire.viewHash, 'create_room.view_hash', true),
      };
    case 'rotateCapability':
      if (wire.editHash.length === 0 && wire.viewHash.length === 0) throw WireError.missingField('rotate_capability.edit_hash');
      return {
        type: 'rotateCapability',
        room: room(wire.room),
        adminCapability: capability(wire.adminCapability, 'rotate_capability.admin_capability'),
        editHash: hash(wire.editHash, 'rotate_capability.edit_hash', false),
        viewHash: hash(wire.viewHash, 'rotate_capability.view_hash', false),
      };
    case 'snapshotChecked':
      if (wire.snapshot.length !== 16) throw WireError.invalidField('snapshot_checked.snapshot');
      if (wire.author.length !== 32) throw WireError.invalidField('snapshot_checked.author');
      if (wire.signature.length !== 64) throw WireError.invalidField('snapshot_checked.signature');
      return { type: 'snapshotChecked', room: room(wire.room), snapshot: wire.snapshot, author: wire.author, signature: wire.signature };
  }
  throw WireError.missingField('frame');
}

/**
 * Decodes a frame a server sent (what the browser reads).
 * @param {Uint8Array} bytes
 * @returns {ServerFrame}
 */
export function decodeServerFrame(bytes) {
  const member = parse(schema.ServerFrame, bytes);
  const wire = member.value;
  switch (member.case) {
    case 'welcome': {
      if (wire.server.length !== 16) throw WireError.invalidField('welcome.server');
      const limits = wire.limits ?? { maxFrameBytes: 0, maxMessageBytes: 0, maxPackBodyBytes: 0 };
      return {
        type: 'welcome',
        protocolVersion: wire.protocolVersion,
        server: wire.server,
        limits,
        serverTime: counter(wire.serverTime, 'welcome.server_time'),
      };
    }
    case 'ack':
      if (wire.packId.length !== 32) throw WireError.invalidField('ack.pack_id');
      return {
        type: 'ack',
        room: room(wire.room),
        packId: wire.packId,
        serverSeq: counter(wire.serverSeq, 'ack.server_seq'),
      };
    case 'packs': {
      const name = room(wire.room);
      const frame = {
        type: /** @type {'packs'} */ ('packs'),
        room: name,
        packs: wire.packs.map((/** @type {Record<string, any>} */ stored) => ({
          serverSeq: counter(stored.serverSeq, 'packs.server_seq'),
          pack: stored.pack,
        })),
        head: counter(wire.head, 'packs.head'),
      };
      return wire.rebase === 0 ? frame : { ...frame, rebase: counter(wire.rebase, 'packs.rebase') };
    }
    case 'presence':
      return presence(wire);
    case 'presences':
      // Several members' presence piled up for this connection: each is handled as a presence frame.
      if (wire.presences.length === 0) throw WireError.missingField('presences.presences');
      return { type: 'presences', presences: wire.presences.map(presence) };
    case 'progress':
      return {
        type: 'progress',
        room: room(wire.room),
        head: counter(wire.head, 'progress.head'),
        bytesBehind: counter(wire.bytesBehind, 'progress.bytes_behind'),
        packsBehind: counter(wire.packsBehind, 'progress.packs_behind'),
      };
    case 'error':
      if (utf8Length(wire.message) > SyncProtocol.maximumErrorMessageBytes) {
        throw WireError.invalidField('error.message');
      }
      return { type: 'error', code: wire.code, message: wire.message, fatal: wire.fatal, room: wire.room };
    case 'access':
      if (!(wire.rights >= schema.Rights.view && wire.rights <= schema.Rights.admin)) throw WireError.invalidField('access.rights');
      return { type: 'access', room: room(wire.room), rights: wire.rights, guarded: wire.guarded };
  }
  throw WireError.missingField('frame');
}

/** What the browser sends. */
export const encodeFrame = encodeClientFrame;
/** What the browser receives. */
export const decodeFrame = decodeServerFrame;

/**
 * @param {import('./message.js').Descriptor} type
 * @param {Uint8Array} bytes
 * @returns {{case: string | null, value: Record<string, any>}}
 */
function parse(type, bytes) {
  if (!(bytes instanceof Uint8Array)) throw WireError.invalidField('frame');
  if (bytes.length > SyncProtocol.maximumFrameBytes) throw WireError.tooLarge('frame');
  let frame;
  try {
    frame = decodeMessage(type, bytes);
  } catch (error) {
    throw WireError.malformed('frame', error);
  }
  return frame.frame ?? { case: null, value: {} };
}

/**
 * A presence message's fields, checked as Swift checks them (a sealed presence's, once opened, too).
 * @param {Record<string, any>} wire
 * @returns {PresenceFrame}
 */
export function presence(wire) {
  if (wire.device.length !== 16) throw WireError.invalidField('presence.device');
  if (utf8Length(wire.name) > WireLimits.maximumNameBytes) throw WireError.invalidField('presence.name');
  if (wire.ink !== null && wire.ink.points.length > SyncProtocol.maximumPresenceBytes) {
    throw WireError.tooLarge('presence.ink');
  }
  const frame = {
    type: /** @type {'presence'} */ ('presence'),
    room: room(wire.room),
    device: wire.device,
    name: wire.name,
    colour: wire.colour,
    cursorX: 0,
    cursorY: 0,
    hasCursor: false,
    board: '',
    ink: null,
  };
  if (wire.hasCursor) {
    if (!Number.isFinite(wire.cursorX) || !Number.isFinite(wire.cursorY)) throw WireError.invalidField('presence.cursor');
    Object.assign(frame, { cursorX: wire.cursorX, cursorY: wire.cursorY, hasCursor: true });
  }
  if (wire.ink !== null) {
    frame.board = wire.board;
    frame.ink = { colour: wire.ink.colour, width: wire.ink.width, points: wire.ink.points };
  }
  const sealed = wire.sealed ?? EMPTY;
  if (sealed.length > MAXIMUM_SEALED_PRESENCE_BYTES) throw WireError.tooLarge('presence.sealed');
  return sealed.length === 0 ? frame : { ...frame, sealed };
}

/** @param {PresenceFrame} frame */
function presenceMessage(frame) {
  if (frame === null || typeof frame !== 'object') throw WireError.invalidField('presence');
  const message = {
    room: frame.room,
    device: replica(frame.device, 'presence.device'),
    name: frame.name,
    colour: frame.colour,
    cursorX: 0,
    cursorY: 0,
    hasCursor: false,
    board: '',
    ink: null,
    sealed: frame.sealed ?? EMPTY,
  };
  if (frame.hasCursor) Object.assign(message, { cursorX: frame.cursorX, cursorY: frame.cursorY, hasCursor: true });
  if (frame.ink != null) Object.assign(message, { board: frame.board, ink: frame.ink });
  return message;
}

/** @param {any} frame @param {string[]} types */
function frameType(frame, types) {
  if (frame === null || typeof frame !== 'object' || !types.includes(frame.type)) throw WireError.invalidField('frame.type');
  return frame.type;
}

/** Replica ids are 16 bytes on the wire (Swift's types guarantee it). @param {unknown} bytes @param {string} name */
function replica(bytes, name) {
  return sized(bytes, 16, name);
}

/** @param {unknown} bytes @param {number} length @param {string} name @returns {Uint8Array} */
function sized(bytes, length, name) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) throw WireError.invalidField(name);
  return bytes;
}

/** A hash of a capability: 32 bytes, or empty where that keeps the current one. */
function optionalHash(bytes, name) {
  if (bytes === undefined || (bytes instanceof Uint8Array && bytes.length === 0)) return EMPTY;
  return sized(bytes, CAPABILITY_HASH_BYTES, name);
}

/** @param {Uint8Array} bytes @param {string} name @param {boolean} required */
function hash(bytes, name, required) {
  if (bytes.length === 0 && !required) return bytes;
  if (bytes.length !== CAPABILITY_HASH_BYTES) throw WireError.invalidField(name);
  return bytes;
}

/**
 * A capability as a frame carries it: empty, or at most MAXIMUM_CAPABILITY_BYTES. Its form is not checked:
 * a malformed one simply matches no hash.
 * @param {string} text @param {string} name
 */
function capability(text, name) {
  if (utf8Length(text) > MAXIMUM_CAPABILITY_BYTES) throw WireError.invalidField(name);
  return text;
}

/** @param {string} name */
function room(name) {
  if (!isValidRoom(name)) throw WireError.invalidField('room');
  return name;
}

/** @param {number | bigint} value @param {string} name */
function counter(value, name) {
  if (typeof value !== 'number') throw WireError.unrepresentable(name);
  return value;
}
