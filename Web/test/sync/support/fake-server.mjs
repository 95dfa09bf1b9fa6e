// An in-process stand-in for the Inkwell server, speaking the real frames through the wire codec, with
// knobs for what a test wants to go wrong: refusing connections, losing acks, refusing the version, a
// clock of its own. It checks pushes as the real server does (ServerSession.push): the signature, the
// room, the author, and no change stamped further ahead of its clock than the protocol's lead.
// Its WebSocket class is what a session under test is given.
//
// Access as the real server keeps it (ServerSession, RoomAccess): a room registered by createRoom keeps
// its capabilities' hashes and answers a subscription with the rights of the capability presented, or
// notAllowed; an unknown room is open (as `inkwell serve --open-rooms`) unless `openRooms` is false, when
// it is noSuchRoom. Pushes and presence on view rights are refused (error 18, close 4003); a rotation
// closes the connections that subscribed with a replaced capability (error 19, close 4004).
//
// Room snapshots as protocol 4 has them: a test sets a room's floor (`rebase`), the position through which
// the server no longer keeps packs and the parts (log positions) of the snapshot that stands for them; a
// subscriber standing before it gets those parts in a `rebase` frame, then the packs after the floor, the
// parts not repeated. A snapshot part pushed is checked as the real server checks one (PackCodec.validate,
// PackLog.refusal): signed for the room, its changes inside its cut (unless sealed), and a position no later
// than the room's head (else snapshotRefused, 24, not fatal); it is stored and relayed like a pack.

import { toHex } from '../../../js/wire/bytes.js';
import { changeOrigin } from '../../../js/wire/change.js';
import { WireError } from '../../../js/wire/errors.js';
import { SyncProtocol } from '../../../js/wire/limits.js';
import { decodePack } from '../../../js/wire/pack.js';
import { decodeMessage } from '../../../js/wire/message.js';
import * as schema from '../../../js/wire/schema.js';
import { readCover } from '../../../js/wire/snapshot-cover.js';
import { decodeSnapshotPart } from '../../../js/wire/snapshot-part.js';
import { packId } from '../../../js/wire/pack-id.js';
import { decodeClientFrame, encodeServerFrame } from '../../../js/wire/sync.js';
import { capabilityHash } from '../../../js/wire/capability.js';

/** How the real server answers a pack that fails verification: error code, close code. */
const REFUSALS = {
  badSignature: [12, 1007],
  forgedAuthor: [13, 1008],
  wrongRoom: [14, 1008],
};

export class FakeServer {
  /** room → stored packs, in log order. @type {Map<string, {serverSeq: number, pack: Uint8Array, hex: string}[]>} */
  log = new Map();
  /** Every push received, counting repeats. @type {{room: string, hex: string}[]} */
  pushes = [];
  /** Pushes refused, with the error code sent. @type {{room: string, hex: string, code: number}[]} */
  refused = [];
  /** The server's clock, milliseconds since 1970: welcomes carry it, and pushes are judged by it. */
  now = () => Date.now();
  /** Subscribe frames received. @type {{room: string, after: number}[]} */
  subscribes = [];
  /** Presence frames received, decoded. */
  presence = [];
  /** Open connections. @type {Set<FakeSocket>} */
  sockets = new Set();
  /** Whether connections are accepted (false: they fail as a server that is down). */
  up = true;
  /** Whether acks are sent. */
  acking = true;
  /**
   * The position an ack names for a pushed pack, for a server that lies about where it stored it; null for
   * the truth. @type {((stored: {serverSeq: number, hex: string}) => number) | null}
   */
  ackAt = null;
  /** A message to refuse every hello with, as a server too new for this client. @type {string | null} */
  refuseVersion = null;
  /** Connection attempts. */
  attempts = 0;
  /** Whether an unknown room name is an open room (else noSuchRoom). */
  openRooms = true;
  /** Guarded rooms: room → the hashes of its capabilities (hex). @type {Map<string, {admin: string, edit: string, view: string}>} */
  rooms = new Map();
  /** Every client frame received, decoded, in order. */
  frames = [];
  /** Rooms whose early packs are dropped: room → the floor and the positions of its snapshot's parts. @type {Map<string, {position: number, parts: number[]}>} */
  floors = new Map();

  /**
   * Drops the room's packs through `position` from later catch-ups: a subscriber before it gets the parts
   * at `parts` (log positions) in a rebase frame instead.
   * @param {string} room @param {number} position @param {number[]} parts
   */
  rebase(room, position, parts) {
    this.floors.set(room, { position, parts });
  }

  /** The constructor to pass as `WebSocket`. */
  get WebSocket() {
    const server = this;
    return class extends FakeSocket {
      constructor(url) {
        super(url, server);
      }
    };
  }

  /**
   * Stores bytes as if another client had pushed them, unchecked (as a hostile server, or a log kept from
   * protocol 1, would hold them); fans them out.
   * @param {string} room @param {Uint8Array} pack
   */
  async inject(room, pack) {
    return this.#append(room, pack, toHex(await packId(pack)), null);
  }

  /** Closes every connection as a crashing server would (no close frame). */
  crash() {
    for (const socket of [...this.sockets]) socket.serverClose(1006, '');
  }

  /** Frames are handled one after another, as they arrived, though checking a push takes a while. */
  #frames = Promise.resolve();
  /** While set, a push waits for it (and every frame after the push waits too). @type {{wait: Promise<void>, open: () => void} | null} */
  #gate = null;

  /** Holds pushes unstored, as a server slow to store them, until `releasePushes`. */
  holdPushes() {
    let open = () => {};
    const wait = new Promise((resolve) => {
      open = () => resolve(undefined);
    });
    this.#gate = { wait, open };
  }

  /** Stores the pushes held, in the order they came. */
  releasePushes() {
    this.#gate?.open();
    this.#gate = null;
  }

  /** @param {FakeSocket} socket @param {Uint8Array} bytes */
  receive(socket, bytes) {
    this.#frames = this.#frames.then(() => this.#receive(socket, bytes));
  }

  /** @param {FakeSocket} socket @param {Uint8Array} bytes */
  async #receive(socket, bytes) {
    if (socket.readyState !== OPEN) return;
    const frame = decodeClientFrame(bytes);
    this.frames.push(frame);
    switch (frame.type) {
      case 'hello':
        if (this.refuseVersion !== null) {
          socket.deliver({ type: 'error', code: 2, message: this.refuseVersion, fatal: true, room: '' });
          socket.serverClose(4001, this.refuseVersion);
          return;
        }
        socket.device = toHex(frame.device);
        socket.deliver({
          type: 'welcome',
          protocolVersion: SyncProtocol.version,
          server: new Uint8Array(16),
          limits: { maxFrameBytes: 1 << 20, maxMessageBytes: 8 << 20, maxPackBodyBytes: 8 << 20 },
          serverTime: this.now(),
        });
        return;
      case 'createRoom': {
        const hashes = { admin: toHex(frame.adminHash), edit: toHex(frame.editHash), view: toHex(frame.viewHash) };
        const known = this.rooms.get(frame.room);
        if (known === undefined && !this.log.has(frame.room)) this.rooms.set(frame.room, hashes);
        else if (known?.admin !== hashes.admin) {
          socket.deliver({ type: 'error', code: 20, message: 'a board with this id already exists', fatal: false, room: frame.room });
          return;
        }
        socket.deliver({ type: 'access', room: frame.room, rights: 3, guarded: true });
        return;
      }
      case 'rotateCapability': {
        const known = this.rooms.get(frame.room);
        if (known === undefined || known.admin !== toHex(await capabilityHash(frame.adminCapability))) {
          socket.deliver({ type: 'error', code: 17, message: 'only the admin capability replaces links', fatal: false, room: frame.room });
          return;
        }
        const replaced = new Set();
        for (const kind of ['edit', 'view']) {
          const hash = frame[`${kind}Hash`];
          if (hash.length === 0) continue;
          replaced.add(known[kind]);
          known[kind] = toHex(hash);
        }
        socket.deliver({ type: 'access', room: frame.room, rights: 3, guarded: true });
        for (const other of this.sockets) {
          if (other === socket || !replaced.has(other.capabilities.get(frame.room))) continue;
          other.deliver({ type: 'error', code: 19, message: 'the link to this board was replaced', fatal: true, room: frame.room });
          other.serverClose(4004, 'capability revoked');
        }
        return;
      }
      case 'subscribe': {
        const rights = await this.#rights(frame.room, frame.capability ?? '');
        if (typeof rights === 'number' && rights > 4) {
          socket.deliver({ type: 'error', code: rights, message: rights === 16 ? 'no such room' : 'not allowed', fatal: false, room: frame.room });
          return;
        }
        const guarded = this.rooms.has(frame.room);
        socket.rights.set(frame.room, rights);
        if (guarded) socket.capabilities.set(frame.room, toHex(await capabilityHash(frame.capability ?? '')));
        socket.deliver({ type: 'access', room: frame.room, rights, guarded });
        this.subscribes.push({ room: frame.room, after: frame.after, capability: frame.capability ?? '' });
        socket.rooms.add(frame.room);
        const head = this.#head(frame.room);
        const log = this.log.get(frame.room) ?? [];
        const floor = this.floors.get(frame.room);
        let from = frame.after;
        if (floor !== undefined && frame.after < floor.position) {
          const parts = log.filter((stored) => floor.parts.includes(stored.serverSeq)).map(({ serverSeq, pack }) => ({ serverSeq, pack }));
          socket.deliver({ type: 'packs', room: frame.room, packs: parts, head, rebase: floor.position });
          from = floor.position;
        }
        const after = log.filter((stored) => stored.serverSeq > from && !(floor !== undefined && from === floor.position && floor.parts.includes(stored.serverSeq)));
        const bytesBehind = after.reduce((sum, stored) => sum + stored.pack.length, 0);
        socket.deliver({ type: 'progress', room: frame.room, head, bytesBehind, packsBehind: after.length });
        if (after.length > 0) {
          socket.deliver({ type: 'packs', room: frame.room, packs: after.map(({ serverSeq, pack }) => ({ serverSeq, pack })), head });
        }
        socket.deliver({ type: 'progress', room: frame.room, head, bytesBehind: 0, packsBehind: 0 });
        return;
      }
      case 'push': {
        if (this.#gate !== null) await this.#gate.wait;
        if ((socket.rights.get(frame.room) ?? 0) < 2) {
          this.viewOnlyRefusals += 1;
          socket.deliver({ type: 'error', code: 18, message: 'push on a view-only link', fatal: true, room: frame.room });
          socket.serverClose(4003, 'view only');
          return;
        }
        const hex = toHex(await packId(frame.pack));
        const refusal = await this.#check(frame.room, frame.pack);
        // Counted once settled: a test that sees the push sees it stored or refused.
        this.pushes.push({ room: frame.room, hex });
        if (refusal === null) {
          this.#append(frame.room, frame.pack, hex, socket);
          return;
        }
        this.refused.push({ room: frame.room, hex, code: refusal.code });
        socket.deliver({ type: 'error', code: refusal.code, message: refusal.message, fatal: refusal.close !== null, room: frame.room });
        if (refusal.close !== null) socket.serverClose(refusal.close, refusal.message);
        return;
      }
      case 'unsubscribe':
        socket.rooms.delete(frame.room);
        return;
      case 'presence':
        if ((socket.rights.get(frame.room) ?? 0) < 2) {
          this.viewOnlyRefusals += 1;
          socket.deliver({ type: 'error', code: 18, message: 'presence on a view-only link', fatal: true, room: frame.room });
          socket.serverClose(4003, 'view only');
          return;
        }
        this.presence.push(frame);
        for (const other of this.sockets) if (other !== socket && other.rooms.has(frame.room)) other.deliver(frame);
        return;
      default:
    }
  }

  /** Pushes or presence refused for view rights. */
  viewOnlyRefusals = 0;

  /**
   * The rights a capability gives in a room (1 view, 2 edit, 3 admin), or the error code refusing it.
   * @param {string} room @param {string} capability
   */
  async #rights(room, capability) {
    const known = this.rooms.get(room);
    if (known === undefined) return this.openRooms || this.log.has(room) ? 2 : 16;
    const hash = toHex(await capabilityHash(capability));
    if (hash === known.admin) return 3;
    if (hash === known.edit) return 2;
    if (hash === known.view) return 1;
    return 17;
  }

  /** @param {FakeSocket} socket */
  disconnected(socket) {
    this.sockets.delete(socket);
    // As the server's announceLeaving: an empty name, no cursor, no ink.
    for (const room of socket.rooms) {
      for (const other of this.sockets) {
        if (!other.rooms.has(room) || socket.device === null) continue;
        other.deliver({ type: 'presence', room, device: hexBytes(socket.device), name: '', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null });
      }
    }
  }

  /**
   * Why the real server would not store a push, or null.
   * @param {string} room @param {Uint8Array} bytes
   * @returns {Promise<{code: number, message: string, close: number | null} | null>}
   */
  async #check(room, bytes) {
    let pack;
    try {
      pack = await decodePack(bytes, { room });
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      if (error.code === 'snapshotPart') return this.#checkPart(room, bytes);
      // As PackCodec.validate: a sealed pack whose signature and room hold is stored unopened.
      if (error.code === 'encrypted') return null;
      const [code, close] = REFUSALS[error.code] ?? [4, 1007];
      return { code, message: error.message, close };
    }
    const limit = this.now() + SyncProtocol.maximumStampLeadMilliseconds;
    if (pack.changes.some((change) => changeOrigin(change).stamp.wall > limit)) {
      return { code: 11, message: 'a change is stamped ahead of the server\'s clock', close: null };
    }
    return null;
  }

  /**
   * Why the real server would not store a snapshot part, or null.
   * @param {string} room @param {Uint8Array} bytes
   * @returns {Promise<{code: number, message: string, close: number | null} | null>}
   */
  async #checkPart(room, bytes) {
    let position;
    try {
      position = (await decodeSnapshotPart(bytes, { room })).cover.position;
    } catch (error) {
      if (!(error instanceof WireError) || error.code !== 'encrypted') return { code: 4, message: error.message, close: 1007 };
      // Sealed: the cover is outside the seal.
      position = readCover(decodeMessage(schema.Pack, bytes).snapshot).position;
    }
    if (position > this.#head(room)) {
      return { code: 24, message: `it claims position ${position}, past the room's ${this.#head(room)}`, close: null };
    }
    return null;
  }

  #append(room, pack, hex, pusher) {
    const log = this.log.get(room) ?? [];
    this.log.set(room, log);
    let stored = log.find((known) => known.hex === hex);
    const isNew = stored === undefined;
    if (stored === undefined) {
      stored = { serverSeq: log.length + 1, pack, hex };
      log.push(stored);
    }
    if (pusher !== null && this.acking) {
      const serverSeq = this.ackAt === null ? stored.serverSeq : this.ackAt(stored);
      pusher.deliver({ type: 'ack', room, packId: hexBytes(hex), serverSeq });
    }
    if (!isNew) return stored;
    for (const socket of this.sockets) {
      if (socket === pusher || !socket.rooms.has(room)) continue;
      socket.deliver({ type: 'packs', room, packs: [{ serverSeq: stored.serverSeq, pack }], head: stored.serverSeq });
    }
    return stored;
  }

  #head(room) {
    return (this.log.get(room) ?? []).length;
  }
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** The client's end of a fake connection: the WebSocket API a session uses, asynchronous like a real one. */
class FakeSocket {
  readyState = CONNECTING;
  binaryType = 'blob';
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  /** @type {string | null} */
  device = null;
  rooms = new Set();
  /** The rights this connection subscribed with, by room. @type {Map<string, number>} */
  rights = new Map();
  /** The hash (hex) of the capability it subscribed with, by guarded room. @type {Map<string, string>} */
  capabilities = new Map();
  #server;

  /** @param {string} url @param {FakeServer} server */
  constructor(url, server) {
    this.url = url;
    this.#server = server;
    server.attempts += 1;
    setTimeout(() => {
      if (this.readyState !== CONNECTING) return;
      if (!server.up) {
        this.readyState = CLOSED;
        this.onerror?.({});
        this.onclose?.({ code: 1006, reason: '' });
        return;
      }
      this.readyState = OPEN;
      server.sockets.add(this);
      this.onopen?.({});
    }, 1);
  }

  /** @param {Uint8Array} bytes */
  send(bytes) {
    if (this.readyState !== OPEN) throw new Error('not open');
    const copy = bytes.slice();
    setTimeout(() => {
      if (this.readyState === OPEN) this.#server.receive(this, copy);
    }, 0);
  }

  close(code = 1000, reason = '') {
    if (this.readyState === CLOSED || this.readyState === CLOSING) return;
    const wasOpen = this.readyState === OPEN;
    this.readyState = CLOSING;
    setTimeout(() => {
      this.readyState = CLOSED;
      if (wasOpen) this.#server.disconnected(this);
      this.onclose?.({ code, reason });
    }, 1);
  }

  /** The server sends a frame. */
  deliver(frame) {
    const bytes = encodeServerFrame(frame);
    setTimeout(() => {
      if (this.readyState === OPEN) this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) });
    }, 0);
  }

  /** The connection ends with `code`. */
  serverClose(code, reason) {
    if (this.readyState !== OPEN) return;
    // Frames already sent arrive before the close, as on a real socket.
    setTimeout(() => {
      if (this.readyState === CLOSED) return;
      this.readyState = CLOSED;
      this.#server.disconnected(this);
      this.onclose?.({ code, reason });
    }, 2);
  }
}

/** @param {string} hex */
function hexBytes(hex) {
  return Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
}
