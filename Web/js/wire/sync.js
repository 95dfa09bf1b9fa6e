// Sync protocol frames (Protos/inkwell/v1/sync.proto) to and from bytes, as
// Sources/InkwellWire/Sync/SyncCodec.swift does it: the size is checked before parsing and every field
// after, so a frame that throws `WireError` has told the receiver nothing.
//
// A frame is a plain object: `type` names the oneof member and the member's fields follow in
// lowerCamelCase, bytes as Uint8Array, 64-bit counters as Numbers (a value above 2^53 − 1 is refused
// with `unrepresentable` rather than rounded). Encoding writes what Swift writes: a presence's cursor only
// when `hasCursor`, its `board` only with `ink`, a welcome's `limits` always. An ack names its pack by
// the SHA-256 of the pack's bytes (32 bytes); a welcome carries the server's clock (`serverTime`, ms since
// 1970, 0 when unknown).

import { WireError } from './errors.js';
import { utf8Length } from './bytes.js';
import { SyncProtocol, WireLimits, isValidRoom } from './limits.js';
import { CLIENT_FRAMES, SERVER_FRAMES } from './protocol.js';
import { decodeMessage, encodeMessage } from './message.js';
import * as schema from './schema.js';

/**
 * @typedef {{colour: number, width: number, points: Uint8Array}} Ink
 * @typedef {{type: 'presence', room: string, device: Uint8Array, name: string, colour: number,
 *   cursorX: number, cursorY: number, hasCursor: boolean, board: string, ink: Ink | null}} PresenceFrame
 * @typedef {{type: 'hello', protocolVersion: number, minimumProtocolVersion: number, device: Uint8Array, agent: string}
 *   | {type: 'subscribe', room: string, after: number}
 *   | {type: 'unsubscribe', room: string}
 *   | {type: 'push', room: string, pack: Uint8Array}
 *   | PresenceFrame} ClientFrame
 * @typedef {{type: 'welcome', protocolVersion: number, server: Uint8Array,
 *     limits: {maxFrameBytes: number, maxMessageBytes: number, maxPackBodyBytes: number}, serverTime: number}
 *   | {type: 'ack', room: string, packId: Uint8Array, serverSeq: number}
 *   | {type: 'packs', room: string, packs: {serverSeq: number, pack: Uint8Array}[], head: number}
 *   | PresenceFrame
 *   | {type: 'presences', presences: PresenceFrame[]}
 *   | {type: 'progress', room: string, head: number, bytesBehind: number, packsBehind: number}
 *   | {type: 'error', code: number, message: string, fatal: boolean, room: string}} ServerFrame
 */

// The frame kinds of sync.proto, generated into protocol.js.
const CLIENT_TYPES = CLIENT_FRAMES;
const SERVER_TYPES = SERVER_FRAMES;

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
    case 'subscribe':
      return { type: 'subscribe', room: room(wire.room), after: counter(wire.after, 'subscribe.after') };
    case 'unsubscribe':
      return { type: 'unsubscribe', room: room(wire.room) };
    case 'push':
      if (wire.pack.length === 0) throw WireError.missingField('push.pack');
      return { type: 'push', room: room(wire.room), pack: wire.pack };
    case 'presence':
      return presence(wire);
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
      return {
        type: 'packs',
        room: name,
        packs: wire.packs.map((/** @type {Record<string, any>} */ stored) => ({
          serverSeq: counter(stored.serverSeq, 'packs.server_seq'),
          pack: stored.pack,
        })),
        head: counter(wire.head, 'packs.head'),
      };
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

/** @param {Record<string, any>} wire @returns {PresenceFrame} */
function presence(wire) {
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
  return frame;
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
