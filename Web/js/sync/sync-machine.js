// The client side of the sync protocol for one room, as a state machine: connection events, server frames
// and store results go in, actions come out. It does no I/O, so every rule is tested without a socket.
// A port of Swift's `ClientSession` (Sources/InkwellClient/Session/ClientSession.swift) for one room.
//
// It keeps, across reconnects, the room's cursor and every pack pushed but not yet acknowledged; on each
// welcome it registers the room if this device made it (createRoom, answered the same way however often it
// is sent, so a board made offline registers on its next connection), subscribes from the watermark with
// its capability, and once the server's `access` answer says it may edit, pushes those packs again, byte
// for byte, before planning new ones. Nothing is pushed, and no presence sent, before that answer, nor
// ever on view rights. A link the server refuses (notAllowed, or capabilityRevoked when the admin replaced
// it) fails the machine: reconnecting with the same capability cannot help; only new credentials
// (`changeCredentials`: another tab of the admin's device replaced the link) open it again. A room the
// server does not know (noSuchRoom) is not a refusal: its maker may not have connected yet, so the
// machine says `roomUnknown`, keeps the connection, and subscribes again when the shell asks
// (`resubscribe`, after unknown-room-retry.js's backoff).
//
// Protocol 4: a subscriber standing before the packs the server still keeps gets, first, the parts of the
// snapshot that stands for them (a `rebase` frame); once the shell has taken it, `rebased` moves the
// cursor to the position it stands for. A rebase the shell refuses cannot be replaced by packs the server
// no longer keeps: the machine stops following the room on this connection (`unfollow`), and says so.
//
// A pack is known by its plan's `name` until the shell has signed it; from then on by its id, the SHA-256
// of its bytes, which is what the server's ack names. The room requests of one connection (createRoom,
// subscribe, rotateCapability) are answered in the order they were sent, each by an `access` frame or a
// room error, so answers are matched to requests in that order.

import { fromHex, toHex } from '../wire/bytes.js';
import { SyncProtocol } from '../wire/limits.js';
import { SyncError } from './errors.js';
import { DEFAULT_PACK_LIMITS, entryBytes, planPacks } from './outbox-planner.js';
import { RoomCursor } from './room-cursor.js';
import { mayEdit } from './access.js';
import {
  CAPABILITY_REVOKED_CLOSE,
  NOT_ALLOWED_ERROR,
  NO_SUCH_ROOM_ERROR,
  ROOM_EXISTS_ERROR,
  ROOM_FULL_ERROR,
  STAMP_AHEAD_ERROR,
  STORAGE_FAILED_ERROR,
  UNSUPPORTED_VERSION_CLOSE,
  UNSUPPORTED_VERSION_ERROR,
  VIEW_ONLY_CLOSE,
} from './server-codes.js';

/**
 * @typedef {import('./outbox-planner.js').QueuedChange} QueuedChange
 * @typedef {import('./outbox-planner.js').PlannedPack} PlannedPack
 * @typedef {import('../wire/sync.js').ServerFrame} ServerFrame
 * @typedef {import('../wire/sync.js').ClientFrame} ClientFrame
 * @typedef {{name: string, hex: string | null, changeKeys: string[], bytes: Uint8Array | null, estimate: number}} InFlightPack
 *   `hex` (the id) and `bytes` are null while the pack is being encoded and signed
 * @typedef {(
 *   {type: 'send', frame: ClientFrame} |
 *   {type: 'persistWatermark', position: number} |
 *   {type: 'encode', pack: PlannedPack} |
 *   {type: 'acknowledge', hex: string, changeKeys: string[], watermark: number | null} |
 *   {type: 'plan'} |
 *   {type: 'joined'} |
 *   {type: 'deliver', presence: import('../wire/sync.js').PresenceFrame} |
 *   {type: 'disconnect', reason: string} |
 *   {type: 'fail', error: SyncError} |
 *   {type: 'access', rights: Rights, guarded: boolean} |
 *   {type: 'rotated', name: string, error: SyncError | null} |
 *   {type: 'roomUnknown'} |
 *   {type: 'reconnect'}
 * )} Action what the I/O shell must do, in order; `access`: the subscription was answered; `rotated`: a
 *   rotation asked for by `rotate` was answered (`error` null when done); `roomUnknown`: the server has no
 *   such room yet, ask again later (`resubscribe`); `reconnect`: a machine refused for a capability it no
 *   longer uses may connect again
 * @typedef {import('./access.js').Rights} Rights
 * @typedef {{adminHash: Uint8Array, editHash: Uint8Array, viewHash: Uint8Array}} CreationHashes
 * @typedef {{kind: 'create'} | {kind: 'subscribe', capability: string} | {kind: 'rotate', name: string}} RoomRequest
 *   a subscription keeps the capability it was sent with: its answer is about that one
 * @typedef {'offline' | 'connecting' | 'awaitingWelcome' | 'open' | 'failed'} Phase
 */

export class SyncMachine {
  /** @type {Phase} */
  phase = 'offline';
  /** Pack bytes the server said the room is behind, less those received since. */
  bytesBehind = 0;
  /** Whether the server said on this connection that nothing is left to catch up. */
  caughtUp = false;
  /** In push order. @type {InFlightPack[]} */
  inFlight = [];
  /** Why the machine gave up, once it has. @type {SyncError | null} */
  failure = null;
  /** What the server said this connection may do in the room; null until it answers the subscription. @type {Rights | null} */
  rights = null;
  /** Whether the room keeps capabilities (false: an open room); null until known. @type {boolean | null} */
  guarded = null;
  /** Whether the server said it has no such room, and has not granted a subscription since. */
  roomUnknown = false;
  /** Whether the server said on this connection that the room is full: nothing more is pushed until the next. */
  roomFull = false;
  /**
   * Whether this connection stopped following the room: its early history came as a snapshot this page
   * refused. Nothing is pushed or taken until the next connection.
   */
  unfollowed = false;
  /** Room requests sent on this connection and not answered yet, oldest first. @type {RoomRequest[]} */
  #requests = [];
  /** Keys of the changes in flight. @type {Set<string>} */
  #inFlightKeys = new Set();
  /** The message of a fatal error frame: the close that follows carries only a code. @type {string | null} */
  #fatalMessage = null;
  /** The capability this connection subscribed with last; null before it did. @type {string | null} */
  #subscribedWith = null;

  /**
   * @param {{
   *   room: string, device: string, watermark?: number, agent?: string,
   *   limits?: {maximumChanges: number, maximumBytes: number}, maximumPacksInFlight?: number,
   *   capability?: string, create?: CreationHashes | null
   * }} options `device` is this page's replica id (hex); `capability`: what to subscribe with ('' for an
   *   open room); `create`: the hashes to register the room with, when this device made it
   */
  constructor({
    room,
    device,
    watermark = 0,
    agent = 'inkwell-web/1',
    limits = DEFAULT_PACK_LIMITS,
    maximumPacksInFlight = 8,
    capability = '',
    create = null,
  }) {
    this.room = room;
    this.capability = capability;
    this.create = create;
    this.device = device;
    this.deviceBytes = fromHex(device, 'device');
    this.agent = agent;
    this.limits = limits;
    this.maximumPacksInFlight = Math.max(maximumPacksInFlight, 1);
    this.cursor = new RoomCursor(watermark);
  }

  /**
   * Packs a previous page planned and stored, not acknowledged: they go again, byte for byte, first.
   * @param {{hex: string, changeKeys: string[], bytes: Uint8Array}[]} packs
   */
  restore(packs) {
    for (const pack of packs) {
      if (this.inFlight.some((known) => known.hex === pack.hex)) continue;
      const { hex, bytes } = pack;
      this.inFlight.push({ name: hex, hex, changeKeys: [...pack.changeKeys], bytes, estimate: bytes.length });
      for (const key of pack.changeKeys) this.#inFlightKeys.add(key);
    }
  }

  // Connection

  /** A connection is being opened. @returns {Action[]} */
  connecting() {
    if (this.phase !== 'failed') this.phase = 'connecting';
    return [];
  }

  /** The WebSocket is open: say hello. @returns {Action[]} */
  connected() {
    if (this.phase === 'failed') return [];
    this.phase = 'awaitingWelcome';
    this.#fatalMessage = null;
    this.#subscribedWith = null;
    return [
      send({
        type: 'hello',
        protocolVersion: SyncProtocol.version,
        minimumProtocolVersion: SyncProtocol.minimumVersion,
        device: this.deviceBytes,
        agent: this.agent,
      }),
    ];
  }

  /**
   * The connection ended with `code` (null when it broke without a close frame).
   * @param {number | null} code
   * @param {string} [reason]
   * @returns {Action[]}
   */
  disconnected(code, reason = '') {
    if (this.phase === 'failed') return [];
    this.caughtUp = false;
    this.bytesBehind = 0;
    const unanswered = this.#endRequests(SyncError.notConnected());
    if (code === UNSUPPORTED_VERSION_CLOSE) {
      return [...unanswered, ...this.#fail(SyncError.unsupportedVersion(this.#fatalMessage ?? (reason || 'unsupported protocol version')))];
    }
    const subscribedWith = this.#subscribedWith;
    this.#subscribedWith = null;
    // Revoked for a capability this device no longer uses (it holds the new one already): reconnect with it.
    if (code === CAPABILITY_REVOKED_CLOSE && (subscribedWith === null || subscribedWith === this.capability)) {
      return [...unanswered, ...this.#fail(SyncError.accessDenied('capabilityRevoked'))];
    }
    // Pushed or spoke on a view link: this page should never; trying again would only be refused again.
    if (code === VIEW_ONLY_CLOSE) return [...unanswered, ...this.#fail(SyncError.accessDenied('viewOnly'))];
    this.phase = 'offline';
    return unanswered;
  }

  // Frames

  /**
   * Handles a frame other than `packs` (the shell stores packs first, then reports them to `stored`).
   * @param {ServerFrame} frame
   * @param {{ownChangesStored?: boolean}} [options] false when an acknowledged pack holds a change the
   *   local store failed to keep: its position must not count as seen, or the change would never come back
   * @returns {Action[]}
   */
  received(frame, { ownChangesStored = true } = {}) {
    switch (frame.type) {
      case 'welcome':
        if (this.phase !== 'awaitingWelcome') return [{ type: 'disconnect', reason: 'welcome out of order' }];
        if (frame.protocolVersion < SyncProtocol.minimumVersion || frame.protocolVersion > SyncProtocol.version) {
          const message = `the server chose protocol version ${frame.protocolVersion}, which this app does not speak`;
          return this.#fail(SyncError.unsupportedVersion(message));
        }
        return this.#welcomed();
      case 'access':
        if (this.phase !== 'open' || frame.room !== this.room) return [];
        return this.#answered(frame, null);
      case 'ack':
        if (this.phase !== 'open') return [{ type: 'disconnect', reason: 'ack before welcome' }];
        return frame.room === this.room ? this.#acknowledged(toHex(frame.packId), frame.serverSeq, ownChangesStored) : [];
      case 'packs':
        return [{ type: 'disconnect', reason: 'packs must be stored before they are reported' }];
      case 'presence':
        if (this.phase !== 'open' || frame.room !== this.room || toHex(frame.device) === this.device) return [];
        return [{ type: 'deliver', presence: frame }];
      case 'progress':
        if (this.phase !== 'open' || frame.room !== this.room || this.unfollowed) return [];
        this.cursor.learn(frame.head);
        this.bytesBehind = frame.bytesBehind;
        if (frame.bytesBehind === 0 && frame.packsBehind === 0) this.caughtUp = true;
        return [];
      case 'error':
        if (frame.code === UNSUPPORTED_VERSION_ERROR) return this.#fail(SyncError.unsupportedVersion(frame.message));
        if (!frame.fatal && frame.room === this.room && ROOM_ERRORS.has(frame.code)) return this.#answered(null, frame);
        if (frame.fatal) {
          this.#fatalMessage = frame.message;
          return [];
        }
        // The room is full: the packs in flight stay stored here and go again on the next connection;
        // this one pushes nothing more (presence still goes: it is never stored).
        if (frame.code === ROOM_FULL_ERROR && frame.room === this.room) {
          this.roomFull = true;
          return [];
        }
        // The push was not stored: reconnecting after the backoff pushes every unacknowledged pack again.
        if (frame.code === STORAGE_FAILED_ERROR) return [{ type: 'disconnect', reason: 'the server could not store a push' }];
        // A change stamped ahead of the server's clock: the same, once the server's clock has caught up.
        if (frame.code === STAMP_AHEAD_ERROR && frame.room === this.room) {
          return [{ type: 'disconnect', reason: 'the server found a change stamped ahead of its clock' }];
        }
        return [];
      default:
        return [];
    }
  }

  /**
   * The changes of the packs at `positions` are stored (or set aside, or unreadable for good): they count
   * as seen. `packBytes` is their size on the wire, for the download progress.
   * @param {number[]} positions
   * @param {number} packBytes
   * @param {number} head
   * @returns {Action[]}
   */
  stored(positions, packBytes, head) {
    if (this.phase !== 'open') return [];
    let advanced = false;
    for (const position of positions) if (this.cursor.see(position)) advanced = true;
    this.cursor.learn(head);
    this.bytesBehind = Math.max(this.bytesBehind - packBytes, 0);
    return advanced ? [{ type: 'persistWatermark', position: this.cursor.watermark }] : [];
  }

  /**
   * A snapshot standing for every position through `position` was taken in place of the room's early
   * packs, and its parts, at `parts`, are held: the watermark moves to it (RoomCursor.rebase), as Swift's
   * `ClientSession.rebased`.
   * @param {number} position
   * @param {number[]} parts
   * @param {number} packBytes the parts' size on the wire
   * @param {number} head
   * @returns {Action[]}
   */
  rebased(position, parts, packBytes, head) {
    if (this.phase !== 'open' || this.unfollowed) return [];
    let advanced = this.cursor.rebase(position);
    for (const part of parts) if (this.cursor.see(part)) advanced = true;
    this.cursor.learn(head);
    this.bytesBehind = Math.max(this.bytesBehind - packBytes, 0);
    return advanced ? [{ type: 'persistWatermark', position: this.cursor.watermark }] : [];
  }

  /**
   * The room's early history came as a snapshot this page refuses, and the server keeps no packs to take
   * instead: the room is not followed on this connection (a later one may bring a snapshot it can take).
   * @returns {Action[]}
   */
  unfollow() {
    if (this.phase !== 'open' || this.unfollowed) return [];
    this.unfollowed = true;
    this.caughtUp = false;
    return [send({ type: 'unsubscribe', room: this.room })];
  }

  /**
   * Tells the server this page checked and holds a snapshot (a check signed by the shell), while the room
   * is followed.
   * @param {{snapshot: Uint8Array, author: Uint8Array, signature: Uint8Array}} check
   * @returns {Action[]}
   */
  snapshotChecked({ snapshot, author, signature }) {
    if (this.phase !== 'open' || this.unfollowed) return [];
    return [send({ type: 'snapshotChecked', room: this.room, snapshot, author, signature })];
  }

  // Pushing

  /** Whether this connection may push and send presence now: the server said it may edit, and the room is followed. */
  get mayEdit() {
    return this.phase === 'open' && mayEdit(this.rights) && !this.unfollowed;
  }

  /** Whether this connection pushes packs now: it may edit, and the server has not said the room is full. */
  get mayPush() {
    return this.mayEdit && !this.roomFull;
  }

  /** How many more packs may be planned now. */
  get freeSlots() {
    return this.mayPush ? this.maximumPacksInFlight - this.inFlight.length : 0;
  }

  /**
   * Plans packs for the queued changes not already in flight, up to the free slots; the shell encodes
   * and signs them and reports each with `encoded`.
   * @param {QueuedChange[]} queue oldest first
   * @returns {Action[]}
   * - Complexity: O(q) for q queued changes.
   */
  plan(queue) {
    if (this.freeSlots <= 0) return [];
    const waiting = queue.filter((change) => !this.#inFlightKeys.has(change.key));
    const packs = planPacks(this.room, waiting, this.limits, this.freeSlots);
    return packs.map((pack) => {
      const changeKeys = pack.changes.map((change) => change.key);
      const estimate = pack.changes.reduce((sum, change) => sum + entryBytes(change), 0);
      this.inFlight.push({ name: pack.name, hex: null, changeKeys, bytes: null, estimate });
      for (const key of changeKeys) this.#inFlightKeys.add(key);
      return /** @type {Action} */ ({ type: 'encode', pack });
    });
  }

  /**
   * A planned pack is encoded, signed (and stored): push it if connected, else it goes on the next welcome.
   * @param {string} name the plan's
   * @param {Uint8Array} bytes
   * @param {string} hex its id, the SHA-256 of `bytes`
   * @returns {Action[]}
   */
  encoded(name, bytes, hex) {
    const pack = this.inFlight.find((known) => known.name === name && known.bytes === null);
    if (pack === undefined) return [];
    pack.bytes = bytes;
    pack.hex = hex;
    return this.mayPush ? [send({ type: 'push', room: this.room, pack: bytes })] : [];
  }

  /**
   * A planned pack could not be encoded or stored: its changes go back to the queue.
   * @param {string} name the plan's
   */
  abandon(name) {
    const index = this.inFlight.findIndex((known) => known.name === name && known.bytes === null);
    if (index < 0) return;
    const [pack] = this.inFlight.splice(index, 1);
    for (const key of pack.changeKeys) this.#inFlightKeys.delete(key);
  }

  /** Whether a change is in a pack in flight. @param {string} key */
  isInFlight(key) {
    return this.#inFlightKeys.has(key);
  }

  // Presence

  /**
   * Presence is sent while connected and dropped otherwise: it is ephemeral.
   * @param {import('../wire/sync.js').PresenceFrame} presence
   * @returns {Action[]}
   */
  presence(presence) {
    return this.mayEdit ? [send(presence)] : [];
  }

  // Access

  /**
   * Replaces the room's edit or view capability (an empty hash keeps it), proven by the admin capability.
   * Answered by a `rotated` action with the same `name`, at once if the connection cannot ask now.
   * @param {string} name the caller's, to match the answer
   * @param {{adminCapability: string, editHash?: Uint8Array, viewHash?: Uint8Array}} rotation
   * @returns {Action[]}
   */
  rotate(name, { adminCapability, editHash = new Uint8Array(0), viewHash = new Uint8Array(0) }) {
    if (this.phase !== 'open' || this.rights !== 'admin') {
      const connected = this.phase === 'open' && this.rights !== null;
      return [{ type: 'rotated', name, error: connected ? SyncError.accessDenied('notAllowed') : SyncError.notConnected() }];
    }
    this.#requests.push({ kind: 'rotate', name });
    return [send({ type: 'rotateCapability', room: this.room, adminCapability, editHash, viewHash })];
  }

  /**
   * Subscribes again to a room the server did not know, on this connection (the shell calls it after the
   * backoff); nothing when the room was found since, or the connection ended (the next one subscribes).
   * @returns {Action[]}
   */
  resubscribe() {
    if (this.phase !== 'open' || !this.roomUnknown || this.#requests.some((request) => request.kind === 'subscribe')) return [];
    return this.#roomRequests();
  }

  /**
   * What this device holds for the room changed (another tab of it replaced a link): later connections
   * register and subscribe with these. A connection subscribed with another capability is closed, to
   * subscribe again with this one; a machine the server refused (notAllowed, capabilityRevoked) connects
   * again, with a capability it has not been refused for.
   * @param {{capability: string, create: CreationHashes | null}} credentials
   * @returns {Action[]}
   */
  changeCredentials({ capability, create }) {
    const before = this.capability;
    this.capability = capability;
    this.create = create;
    if (capability === before) return [];
    if (this.phase === 'failed') {
      if (this.failure?.code !== 'accessDenied' || this.failure.reason === 'viewOnly') return [];
      this.phase = 'offline';
      this.failure = null;
      return [{ type: 'reconnect' }];
    }
    if (this.#subscribedWith !== null && this.#subscribedWith !== capability) {
      return [{ type: 'disconnect', reason: 'this device holds a new link to the room' }];
    }
    return [];
  }

  // Progress

  /** Bytes of the packs in flight (estimated while a pack is being encoded). */
  get inFlightBytes() {
    return this.inFlight.reduce((sum, pack) => sum + (pack.bytes?.length ?? pack.estimate), 0);
  }

  /**
   * What an honest indicator shows, given the bytes of the changes queued and not yet in a pack.
   * @param {number} queuedBytes
   * @returns {{state: 'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting', bytesToUpload: number, bytesToDownload: number}}
   */
  status(queuedBytes) {
    const bytesToUpload = queuedBytes + this.inFlightBytes;
    const bytesToDownload = this.phase === 'open' ? this.bytesBehind : 0;
    /** @type {'synced' | 'uploading' | 'downloading' | 'offline' | 'connecting'} */
    let state;
    if (this.phase === 'offline' || this.phase === 'failed' || this.unfollowed) state = 'offline';
    else if (this.phase !== 'open' || this.rights === null) state = 'connecting';
    else if (!mayEdit(this.rights) && (bytesToDownload > 0 || !this.caughtUp || !this.cursor.isAtHead)) state = 'downloading';
    else if (!mayEdit(this.rights)) state = 'synced';
    else if (bytesToUpload > 0) state = 'uploading';
    else if (bytesToDownload > 0 || !this.caughtUp || !this.cursor.isAtHead) state = 'downloading';
    else state = 'synced';
    return { state, bytesToUpload, bytesToDownload };
  }

  // Internals

  #welcomed() {
    this.phase = 'open';
    this.rights = null;
    this.guarded = null;
    this.roomFull = false;
    this.unfollowed = false;
    return this.#roomRequests();
  }

  /** Registers the room if this device made it, then subscribes with the capability held now. */
  #roomRequests() {
    /** @type {Action[]} */
    const actions = [];
    // Registered before subscribing, on every connection: the answer is the same however often it is asked.
    if (this.create !== null) {
      this.#requests.push({ kind: 'create' });
      actions.push(send({ type: 'createRoom', room: this.room, ...this.create }));
    }
    const capability = this.capability;
    this.#requests.push({ kind: 'subscribe', capability });
    this.#subscribedWith = capability;
    const subscribe = { type: /** @type {'subscribe'} */ ('subscribe'), room: this.room, after: this.cursor.watermark };
    actions.push(send(capability === '' ? subscribe : { ...subscribe, capability }));
    return actions;
  }

  /**
   * The answer to the oldest room request: an `access` frame, or a room error.
   * @param {{rights: number, guarded: boolean} | null} access
   * @param {{code: number, message: string} | null} error
   * @returns {Action[]}
   */
  #answered(access, error) {
    const request = this.#requests.shift();
    // An answer to nothing asked: a server bug; the subscription is what matters, so it is read as one.
    if (request === undefined || request.kind === 'subscribe') {
      if (error === null) return this.#subscribed(/** @type {{rights: number, guarded: boolean}} */ (access));
      // Refused a capability this device has replaced since: the connection is being closed, to subscribe with the new one.
      if (request !== undefined && request.capability !== this.capability) return [];
      return this.#refused(error);
    }
    if (request.kind === 'rotate') {
      return [{ type: 'rotated', name: request.name, error: error === null ? null : SyncError.accessDenied('notAllowed', error.message) }];
    }
    // createRoom: registered (or registered already). Refused (roomExists: another device made a board
    // of this id), the subscription that follows says what this device may do there.
    return [];
  }

  /** The server said what this connection may do: once it may edit, what waited goes. */
  #subscribed({ rights, guarded }) {
    this.rights = RIGHTS[rights] ?? null;
    this.guarded = guarded;
    this.roomUnknown = false;
    /** @type {Action[]} */
    const actions = [{ type: 'access', rights: /** @type {Rights} */ (this.rights), guarded }];
    if (!mayEdit(this.rights)) return actions;
    for (const pack of this.inFlight) {
      if (pack.bytes !== null) actions.push(send({ type: 'push', room: this.room, pack: pack.bytes }));
    }
    actions.push({ type: 'plan' }, { type: 'joined' });
    return actions;
  }

  /**
   * The server refused the subscription: this link does not open the room; or the room is not there
   * yet, and the shell asks again later.
   * @param {{code: number, message: string}} error
   */
  #refused(error) {
    if (error.code === NO_SUCH_ROOM_ERROR) {
      this.rights = null;
      this.roomUnknown = true;
      return [{ type: 'roomUnknown' }];
    }
    this.roomUnknown = false;
    return [...this.#endRequests(SyncError.notConnected()), ...this.#fail(SyncError.accessDenied('notAllowed', error.message))];
  }

  /** Answers every request still waiting with `error`; none is left. @param {SyncError} error @returns {Action[]} */
  #endRequests(error) {
    const requests = this.#requests;
    this.#requests = [];
    this.rights = null;
    return requests.flatMap((request) => (request.kind === 'rotate' ? [{ type: 'rotated', name: request.name, error }] : []));
  }

  #acknowledged(hex, serverSeq, ownChangesStored) {
    const advanced = ownChangesStored && this.cursor.see(serverSeq);
    if (!advanced) this.cursor.learn(serverSeq);
    const watermark = advanced ? this.cursor.watermark : null;
    // A repeated ack (the pack was pushed again) has nothing left in flight.
    const index = this.inFlight.findIndex((pack) => pack.hex === hex);
    if (index < 0) return watermark === null ? [] : [{ type: 'persistWatermark', position: watermark }];
    const [pack] = this.inFlight.splice(index, 1);
    for (const key of pack.changeKeys) this.#inFlightKeys.delete(key);
    // The watermark goes with the acknowledgement, stored only once the pack is: a store that fails, or a
    // page that closes, between the two must not keep a watermark past the pack while its changes still
    // read as unacknowledged, or a snapshot made next would stand for its position without them.
    return [{ type: 'acknowledge', hex, changeKeys: pack.changeKeys, watermark }, { type: 'plan' }];
  }

  /** Gives up for good: reconnecting cannot help. @param {SyncError} error */
  #fail(error) {
    this.phase = 'failed';
    this.failure = error;
    return [{ type: 'fail', error }];
  }
}

/** The room errors that answer a room request (not fatal, naming the room). */
const ROOM_ERRORS = new Set([NO_SUCH_ROOM_ERROR, NOT_ALLOWED_ERROR, ROOM_EXISTS_ERROR]);

/** The wire's Rights values. @type {Record<number, Rights>} */
const RIGHTS = { 1: 'view', 2: 'edit', 3: 'admin' };

/** @param {ClientFrame} frame @returns {Action} */
function send(frame) {
  return { type: 'send', frame };
}
