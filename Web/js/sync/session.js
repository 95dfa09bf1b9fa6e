// The browser's sync session for one room: the page's replica of the board, kept in the local store and
// in step with the server. The port of Swift's `SyncClient` (Sources/InkwellClient/Client/): the protocol
// rules live in SyncMachine, which does no I/O; this is the shell that stores, sends and tells the page.
//
// Local-first: the board is loaded from the store before any network, edits are stored (with their place
// in the outbox) before they are pushed, and a reload while offline shows everything made or received.
//
// Every pack it pushes is signed by the key of the timeline it holds (replica-key.js); every pack it
// receives is verified against the room it came for, and one that fails is kept aside with its reason,
// never applied (a `refused` event says so). A change stamped further ahead of the server's time than the
// protocol's lead waits aside too, neither applied nor witnessed, until a later intake or reconnection
// finds the clock has caught up.

import { Board } from '../model/board.js';
import { toHex } from '../wire/bytes.js';
import { encodeChange } from '../wire/change.js';
import { SCHEMA_VERSION, isValidRoom } from '../wire/limits.js';
import { encodePack } from '../wire/pack.js';
import { packId } from '../wire/pack-id.js';
import { decodeFrame, encodeFrame } from '../wire/sync.js';
import { Backoff } from './backoff.js';
import { Connector } from './connector.js';
import { SyncError } from './errors.js';
import { browserNetwork, syncURL } from './network.js';
import { entryBytes } from './outbox-planner.js';
import { isDue, readPacks, reviewAhead, STAMP_AHEAD } from './pack-intake.js';
import { PresenceChannel } from './presence-channel.js';
import { seededRandom } from './random.js';
import { loadRoom } from './room-loader.js';
import { ServerClock } from './server-clock.js';
import { sameStatus, syncStatus } from './status.js';
import { storedChange } from './store-records.js';
import { SyncMachine } from './sync-machine.js';
import { WriteQueue } from './write-queue.js';

/**
 * @typedef {import('./store-records.js').Store} Store
 * @typedef {import('./outbox-planner.js').QueuedChange} QueuedChange
 * @typedef {import('./outbox-planner.js').PlannedPack} PlannedPack
 * @typedef {import('./sync-machine.js').Action} Action
 * @typedef {import('./status.js').SyncStatus} SyncStatus
 * @typedef {import('./peers.js').Peer} Peer
 * @typedef {import('./presence-frame.js').PresenceInput} PresenceInput
 * @typedef {import('./network.js').Network} Network
 * @typedef {{
 *   room: string, serverURL: string, name?: string, colour?: number | string, storage?: Store,
 *   WebSocket?: typeof WebSocket, network?: Network, now?: () => number, seed?: number,
 *   backoff?: {minimum?: number, maximum?: number}, maximumPacksInFlight?: number,
 *   packLimits?: {maximumChanges: number, maximumBytes: number}, peerExpiry?: number
 * }} SessionOptions `storage` defaults to IndexedDB and `WebSocket` to the global one; `network` (online
 *   state and events), `now`, `seed` (the backoff's jitter) and the limits are for tests
 */

/** The board every page edits: rooms hold one board for now (DESIGN §6: a room holds one or more). */
const BOARD = 'main';

/**
 * Opens a session: loads the room's board from the store, then connects.
 * @param {SessionOptions} options
 * @returns {Promise<Session>}
 * @throws {SyncError} `invalidRoom`, `invalidOptions`, `noWebSocket`, or `storage` if the store cannot be read
 */
export async function openSession(options) {
  const { room, serverURL } = options ?? {};
  if (!isValidRoom(room)) throw SyncError.invalidRoom();
  let url;
  try {
    url = syncURL(serverURL);
  } catch {
    throw SyncError.invalidOptions('serverURL must be an http(s) URL');
  }
  const WebSocketClass = options.WebSocket ?? globalThis.WebSocket;
  if (typeof WebSocketClass !== 'function') throw SyncError.noWebSocket();
  let store = options.storage;
  const ownsStore = store === undefined;
  if (store === undefined) {
    const { openIndexedDBStore } = await import('./store-indexeddb.js');
    store = await openIndexedDBStore();
  }
  const clock = new ServerClock(options.now);
  let loaded;
  try {
    loaded = await loadRoom(store, room, { board: BOARD, now: () => clock.now() });
  } catch (error) {
    if (ownsStore) store.close();
    throw error instanceof SyncError ? error : SyncError.storage('read', error);
  }
  return new Session({ ...options, url, WebSocket: WebSocketClass, store, ownsStore, loaded, clock });
}

/**
 * A room's sync session. Events: `change` {changes, delta, origin: 'local' | 'remote'}, `presence`
 * {device, peer | null}, `status` (a SyncStatus), `refused` {reasons}: received packs kept aside because
 * they failed verification (one reason each: `badSignature`, `forgedAuthor`, `wrongRoom`, …). Made by
 * `openSession`.
 */
export class Session extends EventTarget {
  /** The board, holding every change made here or received. */
  board = new Board(BOARD);
  /**
   * What was received and not applied: packs refused (by reason) and changes waiting for the clock.
   * @type {{packsRefused: number, refusedReasons: Record<string, number>, changesAhead: number}}
   */
  diagnostics = { packsRefused: 0, refusedReasons: {}, changesAhead: 0 };

  #room;
  /** @type {Store} */
  #store;
  #ownsStore;
  #leases;
  /** The key of each leased timeline, by replica. @type {Map<string, import('../wire/author-key.js').PackSigner>} */
  #signers;
  #author;
  /** @type {ServerClock} */
  #clock;
  /** The smallest wall time of a change kept aside for its stamp (Infinity for none). */
  #earliestAhead;
  #machine;
  #connector;
  #presence;
  /** Changes waiting for a pack, oldest first. @type {QueuedChange[]} */
  #queue;
  /** Local changes the store failed to keep: their acks must not move the watermark. @type {Set<string>} */
  #unsaved = new Set();
  #writes = new WriteQueue(() => this.#publish());
  /** Socket events, handled one after another. */
  #events = Promise.resolve();
  #closed = false;
  /** @type {SyncStatus} */
  #status = { state: 'offline', bytesToUpload: 0, bytesToDownload: 0, detail: 'opening' };

  /**
   * Use `openSession`.
   * @param {SessionOptions & {url: string, WebSocket: typeof WebSocket, store: Store, ownsStore: boolean,
   *   loaded: import('./room-loader.js').LoadedRoom, clock: ServerClock}} options
   */
  constructor(options) {
    super();
    const { loaded } = options;
    this.#room = options.room;
    this.#store = options.store;
    this.#ownsStore = options.ownsStore;
    this.#leases = loaded.leases;
    this.#signers = loaded.signers;
    this.#author = loaded.author;
    this.#clock = options.clock;
    this.#earliestAhead = loaded.ahead.earliestAhead;
    this.diagnostics.changesAhead = loaded.ahead.waiting;
    this.#queue = loaded.queue;
    this.board.applyAll(loaded.changes);
    this.#machine = new SyncMachine({
      room: this.#room,
      device: this.#author.replica,
      watermark: loaded.watermark,
      limits: options.packLimits,
      maximumPacksInFlight: options.maximumPacksInFlight,
    });
    this.#machine.restore(loaded.packs);
    this.#presence = new PresenceChannel({
      room: this.#room,
      device: this.#machine.deviceBytes,
      board: BOARD,
      initial: { name: options.name, colour: options.colour ?? 0x000000ff, cursor: null, ink: null },
      expiry: options.peerExpiry,
      now: options.now ?? (() => Date.now()),
      send: (frame) => this.#sendPresence(frame),
      emit: (device, peer) => this.#emit('presence', { device, peer }),
    });
    this.#connector = new Connector({
      url: options.url,
      WebSocket: options.WebSocket,
      network: options.network ?? browserNetwork(),
      // Wrapped: a browser's timer functions refuse to be called as methods of another object.
      timers: { now: () => performance.now(), setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) },
      random: seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32)),
      backoff: new Backoff(options.backoff),
      // One queue for every socket event, so a frame of a closed connection is handled before the close,
      // and the close before the next connection's hello.
      events: {
        onConnecting: () => this.#handle(() => this.#perform(this.#machine.connecting())),
        onOpen: () => this.#handle(() => this.#perform(this.#machine.connected())),
        onMessage: (bytes) => this.#handle(() => this.#receive(bytes)),
        onClose: (code, reason) => this.#handle(() => this.#disconnected(code, reason)),
      },
    });
    this.#connector.start();
    this.#publish();
  }

  /** The room. */
  get room() {
    return this.#room;
  }

  /** This page's replica id (hex): its timeline of changes, and the device it says hello as. */
  get device() {
    return this.#author.replica;
  }

  /** Other devices in the room now: device (hex) → {name, colour, cursor, ink, lastSeen}. @returns {Map<string, Peer>} */
  get peers() {
    return this.#presence.peers;
  }

  /** What the sync indicator shows now. @returns {SyncStatus} */
  get status() {
    return { ...this.#status };
  }

  /** Whether this user has a change to undo, or an undo to redo, on the board. */
  get canUndo() {
    return this.#author.history(BOARD).canUndo;
  }

  get canRedo() {
    return this.#author.history(BOARD).canRedo;
  }

  /**
   * Makes a change of this user's: applied to the board now (a `change` event), stored with its place in
   * the outbox in one transaction, and pushed as soon as the connection allows. Works offline.
   * @param {object[]} operations in the JSON form of Conformance/board.json
   * @returns {object} the change
   * @throws {SyncError} `closed`; a `TypeError` or `WireError` for operations that cannot be a change (then
   *   nothing is made and no seq is used up)
   */
  commit(operations) {
    this.#checkOpen();
    // Encoded once before the author numbers it, so a change that cannot be encoded uses up no seq.
    encodeChange({ id: { replica: this.device, seq: this.#author.seq + 1 }, stamp: { wall: 0, counter: 0 }, board: BOARD, operations });
    return this.#record(this.#author.makeChange(this.board, operations));
  }

  /** Undoes this user's latest change on the board. @returns {object | null} the change, or null if none */
  undo() {
    this.#checkOpen();
    const change = this.#author.undo(this.board);
    return change === null ? null : this.#record(change);
  }

  /** Redoes the change this user undid last. @returns {object | null} the change, or null if none */
  redo() {
    this.#checkOpen();
    const change = this.#author.redo(this.board);
    return change === null ? null : this.#record(change);
  }

  /**
   * Tells the others in the room where this user is and what they are drawing: merged over what was said
   * before, sent at most ≈ 15 times a second and only while someone else is here, never stored.
   * @param {PresenceInput} presence
   * @throws {TypeError} for a malformed colour, cursor or ink
   */
  setPresence(presence) {
    this.#checkOpen();
    this.#presence.set(presence);
  }

  /**
   * Closes the connection and stops. Resolves once the store writes asked for so far are done.
   * @returns {Promise<void>}
   */
  async close() {
    if (this.#closed) return this.#writes.drained();
    this.#closed = true;
    this.#connector.stop();
    this.#presence.close();
    this.#publish();
    await this.#writes.drained();
    for (const lease of this.#leases) lease.release();
    if (this.#ownsStore) this.#store.close();
  }

  // Local changes

  /** Applies, stores and queues a change this page made. */
  #record(change) {
    const bytes = encodeChange(change);
    const delta = this.board.apply(change);
    const stored = storedChange(this.#room, change, bytes, SCHEMA_VERSION);
    this.#queue.push({ key: stored.key, room: this.#room, id: change.id, bytes });
    this.#writes.write('storing a change', () => this.#store.recordLocal(stored), () => this.#unsaved.add(stored.key));
    // Planned after the write above, so a pack never names a change the store does not hold yet.
    this.#writes.after(() => this.#pump());
    this.#emit('change', { changes: [change], delta, origin: 'local' });
    this.#publish();
    return change;
  }

  /** Plans packs for the queue if there is room in flight. */
  #pump() {
    if (!this.#closed) this.#perform(this.#machine.plan(this.#queue));
  }

  /**
   * Encodes a planned pack and signs it with its timeline's key, stores it as waiting for its ack, then
   * pushes it. @param {PlannedPack} pack
   */
  async #encode(pack) {
    const keys = new Set(pack.changes.map((change) => change.key));
    this.#queue = this.#queue.filter((change) => !keys.has(change.key));
    let bytes;
    let hex;
    try {
      const signer = this.#signers.get(pack.replica);
      if (signer === undefined) throw new Error('no key for the timeline of a queued change');
      bytes = await encodePack({ room: this.#room, changes: pack.changes.map((change) => change.bytes) }, signer);
      hex = toHex(await packId(bytes));
    } catch (error) {
      // Stored changes always encode; should one not, it waits in the queue rather than being lost.
      this.#machine.abandon(pack.name);
      this.#queue.unshift(...pack.changes);
      this.#writes.failed('encoding a pack', error);
      return;
    }
    const record = { hex, room: this.#room, replica: pack.replica, changeKeys: [...keys], bytes };
    // Stored before it is pushed, so a reload pushes the very same bytes (the server keeps a pack once).
    this.#writes.write('keeping a pack', () => this.#store.packPlanned(record));
    this.#writes.after(() => {
      if (!this.#closed) this.#perform(this.#machine.encoded(pack.name, bytes, hex));
    });
  }

  // Receiving

  /** Handles one frame from the server. @param {Uint8Array} bytes */
  async #receive(bytes) {
    if (this.#closed) return;
    let frame;
    try {
      frame = decodeFrame(bytes);
    } catch {
      // As Swift does: drop the connection and open another.
      this.#connector.drop('malformed frame');
      return;
    }
    if (frame.type === 'packs') {
      if (frame.room === this.#room) await this.#receivePacks(frame);
      return;
    }
    if (frame.type === 'welcome') {
      this.#connector.welcomed();
      this.#clock.learn(frame.serverTime);
    }
    let ownChangesStored = true;
    if (frame.type === 'ack') {
      const pack = this.#machine.inFlight.find((known) => known.hex === toHex(frame.packId));
      ownChangesStored = pack === undefined || pack.changeKeys.every((key) => !this.#unsaved.has(key));
    }
    this.#perform(this.#machine.received(frame, { ownChangesStored }));
    // A reconnection: the server's clock is known afresh, and what waited for it may be due.
    if (frame.type === 'welcome') await this.#applyDueAhead();
  }

  /**
   * Stores a frame's packs in one transaction, applies their new changes, then lets the cursor see them.
   * Packs that fail verification and changes stamped too far ahead are stored aside, and count as seen.
   */
  async #receivePacks(frame) {
    const now = this.#clock.now();
    const intake = await readPacks(this.#room, frame.packs, { now });
    try {
      await this.#writes.enqueue(() =>
        this.#store.storeRemote(
          this.#room,
          intake.changes.map((c) => c.stored),
          intake.aside,
        ),
      );
    } catch (error) {
      // Not stored, so not seen: the packs come again after the reconnection.
      this.#writes.failed('storing received changes', error);
      this.#connector.drop('the local store failed');
      return;
    }
    if (this.#closed) return;
    this.#applyRemote(intake.changes.map((c) => c.change), now);
    this.diagnostics.changesAhead += intake.ahead;
    const waitedBefore = this.#earliestAhead;
    this.#earliestAhead = Math.min(this.#earliestAhead, intake.earliestAhead);
    if (intake.refused.length > 0) this.#refused(intake.refused);
    this.#perform(this.#machine.stored(intake.positions, intake.packBytes, frame.head));
    if (waitedBefore !== Infinity) await this.#applyDueAhead();
  }

  /** Witnesses and applies received changes, stored already. @param {object[]} received @param {number} now */
  #applyRemote(received, now) {
    for (const change of received) this.#author.witness(change.stamp, now);
    // New to the board, not to the store: another tab of this room may have stored them first.
    const changes = received.filter((change) => !this.board.contains(change.id));
    if (changes.length === 0) return;
    const delta = this.board.applyAll(changes);
    this.#emit('change', { changes, delta, origin: 'remote' });
  }

  /** Applies the changes kept aside for their stamp that the server's time has now caught up with. */
  async #applyDueAhead() {
    const now = this.#clock.now();
    if (this.#closed || this.#earliestAhead === Infinity || !isDue({ wall: this.#earliestAhead }, now)) return;
    let review;
    try {
      review = await this.#writes.enqueue(async () => {
        const items = (await this.#store.loadAside(this.#room)).filter((item) => item.reason === STAMP_AHEAD);
        const found = reviewAhead(this.#room, items, { now });
        for (const entry of found.due) await this.#store.promoteAside(this.#room, entry.id, [entry.stored]);
        return found;
      });
    } catch (error) {
      // They stay aside, and are looked at again next time.
      this.#writes.failed('applying changes that waited for the clock', error);
      return;
    }
    this.#earliestAhead = review.earliestAhead;
    this.diagnostics.changesAhead = review.waiting;
    if (!this.#closed) this.#applyRemote(review.due.map((entry) => entry.change), now);
  }

  /** Counts and reports received packs kept aside because they failed verification. @param {string[]} reasons */
  #refused(reasons) {
    this.diagnostics.packsRefused += reasons.length;
    for (const reason of reasons) this.diagnostics.refusedReasons[reason] = (this.diagnostics.refusedReasons[reason] ?? 0) + 1;
    this.#emit('refused', { reasons });
  }

  #disconnected(code, reason) {
    this.#perform(this.#machine.disconnected(code, reason));
    this.#presence.disconnected();
  }

  // Actions

  /** Carries out the machine's actions, then publishes the status. @param {Action[]} actions */
  #perform(actions) {
    for (const action of actions) {
      switch (action.type) {
        case 'send': {
          const bytes = encodeFrame(action.frame);
          if (action.frame.type === 'push') this.#connector.sendPush(bytes);
          else this.#connector.send(bytes);
          break;
        }
        case 'persistWatermark': {
          const position = action.position;
          // If it fails, the next catch-up is only longer.
          this.#writes.write('storing the watermark', () => this.#store.setWatermark(this.#room, position));
          break;
        }
        case 'encode':
          void this.#encode(action.pack);
          break;
        case 'acknowledge':
          for (const key of action.changeKeys) this.#unsaved.delete(key);
          this.#writes.write('clearing an acknowledged pack', () => this.#store.acknowledgePack(this.#room, action.hex));
          break;
        case 'plan':
          this.#pump();
          break;
        case 'joined':
          this.#presence.joined();
          break;
        case 'deliver':
          this.#presence.receive(action.presence);
          break;
        case 'disconnect':
          this.#connector.drop(action.reason);
          break;
        case 'fail':
          this.#connector.stop();
          break;
      }
    }
    this.#publish();
  }

  /** @param {import('../wire/sync.js').PresenceFrame} frame @returns {boolean} whether it went */
  #sendPresence(frame) {
    if (this.#closed) return false;
    const actions = this.#machine.presence(frame);
    for (const action of actions) if (action.type === 'send') this.#connector.send(encodeFrame(action.frame));
    return actions.length > 0;
  }

  // Plumbing

  /** Handles a socket event after those before it. @param {() => unknown} body */
  #handle(body) {
    this.#events = this.#events.then(body).catch(() => {});
  }

  #publish() {
    if (this.#connector === undefined) return;
    const status = syncStatus({
      progress: this.#machine.status(this.#queue.reduce((sum, change) => sum + entryBytes(change), 0)),
      failure: this.#machine.failure,
      closed: this.#closed,
      onLine: this.#connector.onLine,
      unreachable: this.#connector.unreachable,
      changesToUpload: this.#queue.length + this.#machine.inFlight.reduce((sum, pack) => sum + pack.changeKeys.length, 0),
      storageProblem: this.#writes.problem,
    });
    if (sameStatus(status, this.#status)) return;
    this.#status = status;
    this.#emit('status', { ...status });
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  #checkOpen() {
    if (this.#closed) throw SyncError.closed();
  }
}
