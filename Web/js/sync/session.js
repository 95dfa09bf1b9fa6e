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
//
// The user may pause sharing: the session then closes its connection and opens none until resumed, so
// nothing is sent (no push, no presence) and nothing is received, while edits are stored and queued as
// offline. Closing rather than holding an open connection is the simplest honest choice: the server
// keeps everything for the catch-up on resume (the watermark says from where), the others see this page
// leave instead of a presence that hears nothing, and no bytes are spent on packs that would wait.
//
// A room guarded by capabilities (access.js) is opened with what this device holds: the device that made
// the board registers it on every connection (so one made offline registers when it first connects),
// then subscribes with its strongest capability; nothing is pushed and no presence sent until the server
// says this link may edit, and never on a view link. A link the server refuses stops the session from
// reconnecting (the status says why), until another tab of this device hands it a link that works
// (`adoptAccess`). A room the server does not know yet (made offline by someone who has not connected
// since) keeps the connection and is asked for again after a backoff (unknown-room-retry.js); the status
// says it is waiting, and edits wait in the outbox as offline ones do. With the room's key, every pack
// pushed and every presence sent is sealed (seal.js), and what arrives is opened: a pack sealed with
// another key, altered, or not sealed at all is kept aside, like one that fails verification, and the
// status says so.
//
// Room snapshots (protocol 4): a snapshot's parts are gathered as they come in `packs` frames
// (snapshot-intake.js); once whole, the snapshot is held to what this page knows (snapshot-review.js, the
// trust rule of Swift's client): taken, its changes the page did not hold are stored and applied, and the
// page says so to the server with a check signed by its timeline's key, so the server may drop the packs it
// stands for; refused, it is counted (`diagnostics`, a `snapshot` event), and this page's own changes it
// left out go back to the outbox. A subscription from before the packs the server still keeps starts with
// such a snapshot (a `rebase` frame), checked as any other: taken, its changes the page did not hold are
// stored, what the page held that it leaves out stays (it stopped mattering: it changes nothing shown),
// and the watermark moves to the position it stands for; refused, the room is not followed on this
// connection, and the status says so. A page that holds the room's whole history and may edit it sends one
// too, by the rule of Swift's client (snapshot-policy.js: once enough has changed since the newest snapshot
// it heard of, after a random part of a delay, on the same connection; snapshot-maker.js: what it stands
// for and holds), and keeps the newest it heard of, sent or checked, in the store, so a reload does not
// send one too soon.
//
// The store is compacted by the board's rule (store-compaction.js), as a Swift device compacts its own: once
// enough changes were stored, a while after a sync settles and one tab at a time, the changes that stopped
// mattering are removed from it and the cut they were left out within is kept. What a rebase snapshot stood
// for is kept too (the room's `cover`): together they let a page that holds less than the room's whole
// history, having left the rest out or taken it on a snapshot's word, send the room's next snapshot. The
// board on screen keeps every change it applied; a reload builds it from what is left, and shows the same.
//
// Packs kept aside for later (a newer schema, or sealed before this page held the room's key) are opened
// again when the room is loaded (room-loader.js) and when this tab learns the room's key from another tab
// (`adoptAccess`), verified as on arrival; forged packs are never tried again.
//
// After a gap (offline or paused for `reviewAfter` or more), the catch-up's changes from other people
// are held for review (catch-up-review.js): stored, witnessed and counted as seen like every received
// change, so the watermark moves on as usual, but kept off `board` until `mergeHeld`. Each is marked in
// the store in the same transaction that stores it, so a reload holds them still.

import { timeline } from '../model/board-history.js';
import { Board } from '../model/board.js';
import { splitOperations } from '../model/change-parts.js';
import { compareStamps, ZERO_STAMP } from '../model/stamp.js';
import { toHex } from '../wire/bytes.js';
import { decodeChange, encodeChange } from '../wire/change.js';
import { SCHEMA_VERSION, WireLimits, isValidRoom } from '../wire/limits.js';
import { encodePack } from '../wire/pack.js';
import { packId } from '../wire/pack-id.js';
import { decodeFrame, encodeFrame } from '../wire/sync.js';
import { capabilityHash, mintCapability } from '../wire/capability.js';
import { openRoomKey } from '../wire/room-key.js';
import { openPresence, sealPresence } from '../wire/seal.js';
import { changeOrigin } from '../wire/change.js';
import { signSnapshotCheck } from '../wire/snapshot-check.js';
import { creationHashes, heldRights, sameAccess, subscribeCapability, withCapability, withStoredLinks } from './access.js';
import { Backoff } from './backoff.js';
import { changeKey, HeldChanges, holdsCatchUp, LIVE_HEARTBEAT, REVIEW_AFTER } from './catch-up-review.js';
import { Connector } from './connector.js';
import { countEdits, strokesContinued } from './edit-count.js';
import { SyncError } from './errors.js';
import { browserNetwork, syncURL } from './network.js';
import { entryBytes } from './outbox-planner.js';
import { Frontier } from './frontier.js';
import { isDue, isRefused, readChanges, readPacks, readRebase, reopenAside, reviewAhead, STAMP_AHEAD } from './pack-intake.js';
import { PresenceChannel } from './presence-channel.js';
import { seededRandom } from './random.js';
import { loadRoom } from './room-loader.js';
import { takeSnapshots } from './snapshot-intake.js';
import { keptForLater, makeSnapshot } from './snapshot-maker.js';
import { changesForNextSnapshot, isNewer, SNAPSHOT_DELAY, SNAPSHOT_THRESHOLD, SnapshotPlan } from './snapshot-policy.js';
import { readHeld } from './snapshot-review.js';
import { SnapshotTracker } from './snapshot-tracker.js';
import { ServerClock } from './server-clock.js';
import { sameStatus, syncStatus } from './status.js';
import { COMPACTION_THRESHOLD, compactRoom } from './store-compaction.js';
import { storedChange } from './store-records.js';
import { SyncMachine } from './sync-machine.js';
import { UnknownRoomRetry } from './unknown-room-retry.js';
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
 *   packLimits?: {maximumChanges: number, maximumBytes: number}, peerExpiry?: number,
 *   paused?: boolean, reviewAfter?: number, access?: import('./store-records.js').AccessRecord | null,
 *   unknownRoomBackoff?: {first?: number, longest?: number}, maximumSnapshotBytes?: number,
 *   snapshotThreshold?: number | null, snapshotDelay?: number, compactionThreshold?: number | null,
 *   compactionDelay?: number
 * }} SessionOptions `access`: what this device holds to open the room (its capabilities and key; null or
 *   absent for an open room); `storage` defaults to IndexedDB and `WebSocket` to the global one; `paused` opens the
 *   session with sharing paused; `reviewAfter` (ms, default REVIEW_AFTER; Infinity for never) is how long
 *   away before a catch-up is held for review; `network` (online state and events), `now`, `seed` (the
 *   backoff's jitter, and the part of its delay a snapshot waits), `unknownRoomBackoff` (ms, default 1 s to a minute), `maximumSnapshotBytes` (the
 *   bound on a room's unfinished snapshot parts) and the limits are for tests; `snapshotThreshold` (default
 *   SNAPSHOT_THRESHOLD changes; null never sends one) and `snapshotDelay` (ms, default SNAPSHOT_DELAY) are when
 *   this page sends a room snapshot (snapshot-policy.js), for tests too; so are `compactionThreshold` (default
 *   COMPACTION_THRESHOLD change records; null never compacts) and `compactionDelay` (ms, default
 *   COMPACTION_DELAY), when it compacts its store (store-compaction.js)
 */

/** The board every page edits: rooms hold one board for now (DESIGN §6: a room holds one or more). */
const BOARD = 'main';
/** What a real stamp may add to a change encoded with a zero one, measured against the byte limit. */
const STAMP_BYTES = 16;

/** How long after a sync settles (or the page opens) a compaction pass that is due waits, in ms: off the
 * drawing path, and after the frames and writes that come with a sync. */
export const COMPACTION_DELAY = 2_000;

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
  const access = options.access ?? null;
  let roomKey = null;
  let create = null;
  try {
    roomKey = access?.key ? await openRoomKey(access.key) : null;
    create = await creationHashes(access);
  } catch {
    if (ownsStore) store.close();
    throw SyncError.invalidOptions('access holds a key that is not a room key');
  }
  const clock = new ServerClock(options.now);
  let loaded;
  try {
    loaded = await loadRoom(store, room, { board: BOARD, now: () => clock.now(), roomKey });
    // For Benchmarks/web-load.py: when the store's changes were read and decoded.
    globalThis.performance?.mark?.('inkwell:room-loaded');
  } catch (error) {
    if (ownsStore) store.close();
    throw error instanceof SyncError ? error : SyncError.storage('read', error);
  }
  return new Session({ ...options, url, WebSocket: WebSocketClass, store, ownsStore, loaded, clock, access, roomKey, create });
}

/**
 * A room's sync session. Events: `change` {changes, delta, origin: 'local' | 'remote'}, `presence`
 * {device, peer | null}, `status` (a SyncStatus), `refused` {reasons}: received packs kept aside because
 * they failed verification (one reason each: `badSignature`, `forgedAuthor`, `wrongRoom`, `wrongKey`,
 * `tampered`, `unsealed`, …), `review` {count, authors}: the changes held for review, after each change of
 * them; `access` {rights, guarded}: what the server says this link may do, on each connection; `denied`
 * {reason, message}: the server refused the link, and the session stopped connecting; `links` (the
 * AccessRecord): a link was replaced, here or in another tab (`adoptAccess`); `snapshot` {position,
 * accepted, changes, fresh, reason}: a room snapshot's last part came, and it was taken (`fresh`: the
 * changes new here) or refused (`reason`, in plain words). Made by `openSession`.
 */
export class Session extends EventTarget {
  /** The board, holding every change made here or received. */
  board = new Board(BOARD);
  /**
   * What was received and not applied: packs refused (by reason) and changes waiting for the clock; room
   * snapshots checked and taken, refused (the last refusal's reason), and parts dropped unread (the last
   * one's reason); room snapshots this page sent, and why the last one planned was not made; compaction
   * passes of the store this page ran, the changes they removed, and why the last one failed.
   * @type {{packsRefused: number, refusedReasons: Record<string, number>, changesAhead: number,
   *   snapshotsChecked: number, snapshotsRefused: number, snapshotRefusal: string | null, snapshotPartsDropped: number,
   *   snapshotPartDropReason: string | null, snapshotsSent: number, snapshotNotMade: string | null,
   *   compactions: number, changesPruned: number, compactionFailure: string | null}}
   */
  diagnostics = {
    packsRefused: 0,
    refusedReasons: {},
    changesAhead: 0,
    snapshotsChecked: 0,
    snapshotsRefused: 0,
    snapshotRefusal: null,
    snapshotPartsDropped: 0,
    snapshotPartDropReason: null,
    snapshotsSent: 0,
    snapshotNotMade: null,
    compactions: 0,
    changesPruned: 0,
    compactionFailure: null,
  };

  #room;
  /** The sync endpoint, `ws(s)://…/sync`: blobs travel over HTTP beside it. */
  #url;
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
  /**
   * For each change to upload that only carries on strokes, the keys of the changes that began them
   * (edit-count.js); dropped once acknowledged.
   * @type {Map<string, string[]>}
   */
  #continuing = new Map();
  /**
   * What is left to upload, for the status published after every edit: the keys queued or in flight, how
   * many edits they are (edit-count.js), and the queue's bytes. Kept up as changes are recorded and packed,
   * since working it out is O(queue) and a page offline for long holds thousands; null when changes leave
   * or come back, and worked out again when next read.
   * @type {{keys: Set<string>, edits: number, queuedBytes: number} | null}
   */
  #uploads = null;
  /**
   * Packs being encoded and signed: `close` waits for them, so none is stored after it resolves (a later
   * session of the store would plan its changes again, and the stale pack would count as still to upload).
   * @type {Set<Promise<void>>}
   */
  #encodings = new Set();
  /** Local changes the store failed to keep: their acks must not move the watermark. @type {Set<string>} */
  #unsaved = new Set();
  #writes = new WriteQueue(() => this.#publish());
  /** Socket events, handled one after another. */
  #events = Promise.resolve();
  #closed = false;
  /** @type {SyncStatus} */
  #status = { state: 'offline', bytesToUpload: 0, bytesToDownload: 0, detail: 'opening', changesToUpload: 0, paused: false, held: 0 };
  /** Every change applied to `board`, in order: what a preview of the held changes starts from. @type {object[]} */
  #applied = [];
  /** Received changes kept off the board until the user merges them. */
  #held = new HeldChanges();
  /** This browser's timelines of the room: their changes are never held. @type {Set<string>} */
  #own;
  #paused;
  #reviewAfter;
  /** @type {() => number} */
  #now;
  /** The last time the room was live here (connected and caught up); null if never. @type {number | null} */
  #liveAt;
  /** Whether the session is live now. */
  #live = false;
  /** Whether this connection's catch-up, until it is caught up, is held for review. */
  #reviewing = false;
  #heartbeat;
  /** What this device holds to open the room; null for an open room. @type {import('./store-records.js').AccessRecord | null} */
  #access;
  /** The encrypted room's key; null for a plain room. @type {import('../wire/room-key.js').RoomKey | null} */
  #roomKey;
  /** Rotations waiting for the server's answer, by name. @type {Map<string, {resolve: (error: SyncError | null) => void}>} */
  #rotations = new Map();
  #rotationCount = 0;
  /** Sealing is asynchronous: presence is sealed and sent in the order it was set. */
  #presenceOut = Promise.resolve();
  /** When to subscribe again to a room the server does not know yet. @type {UnknownRoomRetry} */
  #unknownRoom;
  /** @type {Network} */
  #network;
  /** The network came back: its new connection subscribes at once, and the unknown room's count starts over. */
  #onOnline = () => this.#unknownRoom.reset();
  /** What this page holds of each timeline of the room (on the board or held for review). */
  #frontier = new Frontier();
  /** What this connection learned of the room's log for snapshots, from its first frame of packs; null before. @type {SnapshotTracker | null} */
  #snapshots = null;
  /** The bound on unfinished snapshot parts (for tests). @type {number | undefined} */
  #snapshotBytes;
  /** The newest room snapshot this page heard of, sent or checked; null for none. @type {import('./snapshot-policy.js').KnownSnapshot | null} */
  #knownSnapshot;
  /** Changes outside the newest snapshot known before this page sends one; null for never. @type {number | null} */
  #snapshotThreshold;
  /** The longest wait before sending a snapshot, in ms. @type {number} */
  #snapshotDelay;
  #snapshotPlan = new SnapshotPlan();
  /** Timers of planned snapshots, cleared on close. @type {Set<any>} */
  #snapshotTimers = new Set();
  /** Counts the connections welcomed: a snapshot planned on one is sent on that one only. */
  #connection = 0;
  /** @type {{now: () => number, setTimeout: (f: () => void, ms: number) => any, clearTimeout: (t: any) => void}} */
  #timers;
  /** @type {() => number} */
  #random;
  /** Change records before a pass of the store's compaction; null for never. @type {number | null} */
  #compactionThreshold;
  /** How long a due pass waits, in ms. @type {number} */
  #compactionDelay;
  /** Changes stored by this session since it last looked whether a pass is due. */
  #storedSinceLook = 0;
  /** The timer of the pass to come. @type {any} */
  #compactionTimer = null;
  /** The pass under way. @type {Promise<unknown> | null} */
  #compaction = null;

  /**
   * Use `openSession`.
   * @param {SessionOptions & {url: string, WebSocket: typeof WebSocket, store: Store, ownsStore: boolean,
   *   loaded: import('./room-loader.js').LoadedRoom, clock: ServerClock,
   *   roomKey: import('../wire/room-key.js').RoomKey | null,
   *   create: import('./sync-machine.js').CreationHashes | null}} options
   */
  constructor(options) {
    super();
    const { loaded } = options;
    this.#room = options.room;
    this.#url = options.url;
    this.#store = options.store;
    this.#ownsStore = options.ownsStore;
    this.#leases = loaded.leases;
    this.#signers = loaded.signers;
    this.#author = loaded.author;
    this.#clock = options.clock;
    this.#earliestAhead = loaded.ahead.earliestAhead;
    this.diagnostics.changesAhead = loaded.ahead.waiting;
    this.#queue = loaded.queue;
    // Which of the changes still to upload only carry on a stroke (edit-count.js), for the count shown.
    const toUpload = new Set([...loaded.queue.map((change) => change.key), ...loaded.packs.flatMap((pack) => pack.changeKeys)]);
    for (const change of loaded.changes) {
      const key = changeKey(change);
      if (toUpload.has(key)) this.#noteContinuing(key, change);
    }
    this.board.applyAll(loaded.changes);
    this.#applied.push(...loaded.changes);
    for (const change of loaded.held) this.#held.add(change);
    // What the store left out, or took on a snapshot's word, leaves no gap.
    for (const entry of [...loaded.cover, ...loaded.pruned]) this.#frontier.cover(entry.replica, entry.seq);
    for (const change of [...loaded.changes, ...loaded.held]) this.#frontier.add(change.id);
    this.#count(loaded.refused);
    this.#snapshotBytes = options.maximumSnapshotBytes;
    this.#knownSnapshot = loaded.heard;
    const threshold = options.snapshotThreshold === undefined ? SNAPSHOT_THRESHOLD : options.snapshotThreshold;
    this.#snapshotThreshold = threshold === null ? null : Math.max(threshold, 1);
    this.#snapshotDelay = options.snapshotDelay ?? SNAPSHOT_DELAY;
    const compaction = options.compactionThreshold === undefined ? COMPACTION_THRESHOLD : options.compactionThreshold;
    this.#compactionThreshold = compaction === null ? null : Math.max(compaction, 1);
    this.#compactionDelay = options.compactionDelay ?? COMPACTION_DELAY;
    // The first look is at the opening: a store may be due from before.
    this.#storedSinceLook = this.#compactionStep;
    this.#own = new Set(loaded.own);
    this.#liveAt = loaded.liveAt;
    this.#paused = options.paused === true;
    this.#reviewAfter = options.reviewAfter ?? REVIEW_AFTER;
    this.#now = options.now ?? (() => Date.now());
    this.#access = options.access ?? null;
    this.#roomKey = options.roomKey;
    this.#machine = new SyncMachine({
      room: this.#room,
      device: this.#author.replica,
      watermark: loaded.watermark,
      limits: options.packLimits,
      maximumPacksInFlight: options.maximumPacksInFlight,
      capability: subscribeCapability(this.#access),
      create: options.create,
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
    // Wrapped: a browser's timer functions refuse to be called as methods of another object.
    const timers = { now: () => performance.now(), setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
    const random = seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
    this.#timers = timers;
    this.#random = random;
    this.#network = options.network ?? browserNetwork();
    this.#unknownRoom = new UnknownRoomRetry({
      ask: () => this.#handle(() => this.#perform(this.#machine.resubscribe())),
      timers,
      random,
      backoff: options.unknownRoomBackoff,
    });
    this.#network.addEventListener('online', this.#onOnline);
    this.#connector = new Connector({
      url: options.url,
      WebSocket: options.WebSocket,
      network: this.#network,
      timers,
      random,
      backoff: new Backoff(options.backoff),
      paused: this.#paused,
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
    // While live, the time is noted now and then: a reload after a crash knows how long it was away.
    this.#heartbeat = setInterval(() => {
      if (this.#live) this.#noteLive();
    }, LIVE_HEARTBEAT);
    this.#heartbeat.unref?.();
    this.#considerCompaction();
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

  /** Whether the user paused sharing. */
  get paused() {
    return this.#paused;
  }

  /**
   * What this page may do in the room: what the server said on this connection, else what the link's
   * capability says (so a view link is read-only before it connects); null for an open room not yet
   * answered (it will be `edit`). @returns {'admin' | 'edit' | 'view' | null}
   */
  get rights() {
    return this.#machine.rights ?? heldRights(this.#access);
  }

  /** Whether the board is sealed with a room key. */
  get encrypted() {
    return this.#roomKey !== null;
  }

  /**
   * What moving the room's blobs (its images' bytes) over HTTP needs: the sync endpoint they sit beside,
   * the strongest capability held ('' for an open room) and the room key (null unless encrypted). Read it
   * for each transfer: a replaced link changes the capability.
   * @returns {import('../blobs/blob-transfer.js').BlobAccess}
   */
  get blobAccess() {
    return { syncUrl: this.#url, room: this.room, capability: subscribeCapability(this.#access), key: this.#roomKey };
  }

  /** What this device holds to open the room (a copy), null for an open room. */
  get access() {
    return this.#access === null ? null : { ...this.#access };
  }

  /**
   * Replaces the room's edit or view link with a new capability, which only this device (the one holding
   * the admin capability) can do. The server closes every connection that used the old one. Kept in the
   * store once the server has answered, and told as a `links` event.
   *
   * The board's other tabs may replace a link at the same moment: the rotation takes the room's turn in
   * the store (`exclusiveAccess`) from asking the server to keeping its answer, so the server and the
   * store see the tabs' rotations in the same order and the store keeps the one the server keeps; the new
   * capability goes over what the store holds then, read and written in one step (`updateAccess`).
   * @param {'edit' | 'view'} kind
   * @returns {Promise<import('./store-records.js').AccessRecord>} the new record
   * @throws {SyncError} `accessDenied` without the admin capability (or refused by the server),
   *   `notConnected` when the server cannot be asked now, `closed`
   */
  async replaceLink(kind) {
    this.#checkOpen();
    if (this.#access === null || !this.#access.admin) throw SyncError.accessDenied('notAllowed');
    const record = await this.#store.exclusiveAccess(this.#room, async () => {
      this.#checkOpen();
      const access = /** @type {import('./store-records.js').AccessRecord} */ (this.#access);
      const capability = mintCapability(kind);
      const hash = await capabilityHash(capability.text);
      const name = `rotation-${++this.#rotationCount}`;
      const answered = new Promise((resolve) => this.#rotations.set(name, { resolve }));
      this.#perform(this.#machine.rotate(name, { adminCapability: access.admin, [`${kind}Hash`]: hash }));
      const error = await answered;
      if (error !== null) throw error;
      return this.#writes.enqueue(async () => {
        const kept = await this.#store.updateAccess(this.#room, (stored) => {
          // Another tab of this device may have replaced the other link since this one read the store.
          const current = /** @type {import('./store-records.js').AccessRecord} */ (this.#access);
          return withCapability(withStoredLinks(current, stored) ?? current, capability);
        });
        this.#access = /** @type {import('./store-records.js').AccessRecord} */ (kept);
        return this.#access;
      });
    });
    this.#emit('links', { ...record });
    return { ...record };
  }

  /**
   * Takes the room's access as another tab of this device kept it in the store after replacing a link
   * (access.js `withStoredLinks`): the links shown, the hashes registered on each connection and the
   * capability subscribed with become the stored ones. A connection subscribed with a capability no longer
   * held subscribes again with the new one, and a session the server refused for a replaced link opens
   * again: the other tab is the same admin. A tab that held no key for the room takes the stored one: it
   * seals what it sends from then on, and opens the packs kept aside for want of it. Told as a `links` event.
   * @param {import('./store-records.js').AccessRecord | null} stored what the store holds for the room
   * @returns {Promise<boolean>} whether anything changed
   */
  async adoptAccess(stored) {
    for (;;) {
      const next = this.#closed ? null : withStoredLinks(this.#access, stored);
      if (next === null) return false;
      const create = await creationHashes(next);
      const learned = this.#roomKey === null && next.key ? await openRoomKey(next.key).catch(() => null) : null;
      // This tab may have replaced a link itself meanwhile: then start again from what it holds now.
      if (this.#closed || !sameAccess(withStoredLinks(this.#access, stored), next)) continue;
      this.#access = next;
      if (learned !== null) this.#roomKey = learned;
      this.#perform(this.#machine.changeCredentials({ capability: subscribeCapability(next), create }));
      this.#emit('links', { ...next });
      // Packs that came sealed before this tab held the key open now.
      if (learned !== null) await this.#reopenAside();
      return true;
    }
  }

  /**
   * Opens again the packs kept aside that read now (reopenAside), verified as on arrival: the changes of
   * those that open are stored in their place and applied; one that fails verification now is kept with
   * its reason, counted as refused, and never tried again.
   */
  async #reopenAside() {
    const now = this.#clock.now();
    const roomKey = this.#roomKey;
    let reopened;
    try {
      reopened = await this.#writes.enqueue(async () => {
        const items = await this.#store.loadAside(this.#room);
        const packs = await reopenAside(this.#room, items, { now }, { roomKey });
        for (const pack of packs) await this.#store.replaceAside(this.#room, pack.id, pack.changes.map((c) => c.stored), pack.aside);
        return packs;
      });
    } catch (error) {
      // They stay aside, and are opened again when the room is next loaded.
      this.#writes.failed('opening packs kept aside', error);
      return;
    }
    if (this.#closed) return;
    for (const pack of reopened) {
      this.diagnostics.changesAhead += pack.ahead;
      this.#earliestAhead = Math.min(this.#earliestAhead, pack.earliestAhead);
    }
    this.#applyRemote(reopened.flatMap((pack) => pack.changes.map((c) => c.change)), now);
    const refused = reopened.flatMap((pack) => (pack.refused === null ? [] : [pack.refused]));
    if (refused.length > 0) this.#refused(refused);
    this.#publish();
  }

  /**
   * The changes held for review: how many edits (a long stroke saved while drawn is one), and by whom (one
   * entry per timeline, most edits first).
   * @returns {{count: number, authors: import('./catch-up-review.js').HeldAuthor[]}}
   */
  get review() {
    return { count: this.#held.edits, authors: this.#held.authors() };
  }

  /** Whether this user has a change to undo, or an undo to redo, on the board. */
  get canUndo() {
    return this.#author.history(BOARD).canUndo;
  }

  /**
   * Whether undo has reached back as far as it goes while this user has older changes on the board:
   * ones past the 500 steps kept, or settled.
   */
  get undoReachedItsEnd() {
    const history = this.#author.history(BOARD);
    return !history.canUndo && (history.letGo || this.#author.unsettled(BOARD).through > 0);
  }

  get canRedo() {
    return this.#author.history(BOARD).canRedo;
  }

  /**
   * Makes a change of this user's: applied to the board now (a `change` event), stored with its place in
   * the outbox in one transaction, and pushed as soon as the connection allows. Works offline. Once enough
   * of this user's changes can no longer be undone, a change that settles them follows (`#settleIfDue`).
   * @param {object[]} operations in the JSON form of Conformance/board.json
   * @returns {object} the change: the first, for operations too large for one (`commitAll` gives every one)
   * @throws {SyncError} `closed`; a `TypeError` or `WireError` for operations that cannot be a change (then
   *   nothing is made and no seq is used up)
   */
  commit(operations) {
    return this.commitAll(operations)[0];
  }

  /**
   * As `commit`, returning every change made: operations too many or too large for one change are cut
   * into consecutive changes (js/model/change-parts.js, which renames what they add), one undo step.
   * @param {object[]} operations
   * @param {{continues?: boolean}} [options] `continues`: the edit finishes the action the previous change
   *   began (a stroke saved while it was drawn, then snapped to a shape), so it joins that undo step
   * @returns {object[]} the changes, in order
   * @throws as `commit`; a `RangeError` for one operation too large for any change
   */
  commitAll(operations, { continues = false } = {}) {
    this.#checkOpen();
    // Encoded before the author numbers them, so operations that cannot be a change use up no seq.
    const parts = splitOperations(operations, this.nextChange, (part, id) => {
      const bytes = encodeChange({ id, stamp: { wall: 0, counter: 0 }, board: BOARD, operations: part });
      return bytes.length + STAMP_BYTES <= WireLimits.maximumChangeBytes;
    });
    const changes = parts.map((part, i) => this.#record(this.#author.makeChange(this.board, part, i === 0 && !continues ? {} : { continues: true })));
    this.#settleIfDue();
    return changes;
  }

  /**
   * The id this user's next change will have, so that its operations can name the strokes it adds
   * (`<replica>-<seq>-<index>`, js/model/ids.js `strokeId`): a copy erases and moves its new strokes in
   * the change that adds them. Valid until the next change is made.
   * @returns {{replica: string, seq: number}}
   */
  get nextChange() {
    return { replica: this.device, seq: this.#author.seq + 1 };
  }

  /**
   * The board's changes this page holds, in the total order every replica agrees on: its history, as far
   * as it reaches here (js/model/board-history.js). Held changes waiting for review are not in it.
   * @returns {object[]}
   */
  history() {
    return timeline(this.#applied, BOARD);
  }

  /** Ends the burst of typing in progress: more typing into the same text box is another undo step. */
  endTyping() {
    this.#author.history(this.board).endBurst();
  }

  /** Undoes this user's latest change on the board. @returns {object | null} the change, or null if none */
  undo() {
    this.#checkOpen();
    return this.#recordMove(this.#author.undo(this.board));
  }

  /**
   * Takes back an action that was begun and then abandoned (a stroke saved while it was drawn, whose pen
   * was cancelled): undoes its undo step, if it is still the latest, so that redo cannot bring it back.
   * @param {{replica: string, seq: number}} change the action's first change
   * @returns {object | null} the undoing change, or null when the step is not the latest
   */
  withdraw(change) {
    this.#checkOpen();
    return this.#recordMove(this.#author.withdraw(this.board, change));
  }

  /** Redoes the change this user undid last. @returns {object | null} the change, or null if none */
  redo() {
    this.#checkOpen();
    return this.#recordMove(this.#author.redo(this.board));
  }

  /** Records a move in the history (an undo, redo or withdrawal), if there was one to make. */
  #recordMove(change) {
    if (change === null) return null;
    this.#record(change);
    this.#settleIfDue();
    return change;
  }

  /**
   * Tells the others in the room where this user is and what they are drawing: merged over what was said
   * before, sent at most ≈ 15 times a second (60 while it carries ink) and only while someone else is
   * here, never stored.
   * @param {PresenceInput} presence
   * @throws {TypeError} for a malformed colour, cursor or ink
   */
  setPresence(presence) {
    this.#checkOpen();
    this.#presence.set(presence);
  }

  /**
   * Pauses sharing: closes the connection and opens none until `resume`. Edits go on being stored and
   * queued, as offline; nothing is sent (presence neither) and nothing is received meanwhile.
   * @throws {SyncError} `closed`
   */
  pause() {
    this.#checkOpen();
    if (this.#paused) return;
    this.#paused = true;
    this.#connector.pause();
    this.#publish();
  }

  /**
   * Resumes sharing: connects now, pushes what waited and catches up (held for review if it was long).
   * @throws {SyncError} `closed`
   */
  resume() {
    this.#checkOpen();
    if (!this.#paused) return;
    this.#paused = false;
    this.#connector.resume();
    this.#publish();
  }

  /**
   * Merges the changes held for review into the board (a `change` event, origin `remote`), and forgets
   * their marks in the store.
   * @returns {number} how many edits were merged, counted as `review` counts them
   * @throws {SyncError} `closed`
   */
  mergeHeld() {
    this.#checkOpen();
    if (this.#held.size === 0) return 0;
    const edits = this.#held.edits;
    const held = this.#held.take();
    const keys = held.map(changeKey);
    // If this write fails they are held again after a reload: shown twice, never lost.
    this.#writes.write('merging the changes held for review', () => this.#store.releaseHeld(this.#room, keys));
    this.#apply(held.filter((change) => !this.board.contains(change.id)), 'remote');
    this.#emitReview();
    this.#publish();
    return edits;
  }

  /**
   * A new board holding what `board` holds and the changes held for review: what merging would show.
   * It is the caller's to keep up to date (apply later `change` events to it too).
   * @returns {Board}
   * - Complexity: O(every change applied so far): build it when asked for, not on each change.
   */
  previewBoard() {
    const board = new Board(BOARD);
    board.applyAll(this.#applied);
    board.applyAll(this.#held.changes());
    return board;
  }

  /** The changes held for review, oldest first. @returns {object[]} */
  heldChanges() {
    return this.#held.changes();
  }

  /**
   * Closes the connection and stops. Resolves once the store writes asked for so far are done.
   * @returns {Promise<void>}
   */
  async close() {
    if (this.#closed) return this.#writes.drained();
    clearInterval(this.#heartbeat);
    for (const timer of this.#snapshotTimers) this.#timers.clearTimeout(timer);
    this.#snapshotTimers.clear();
    if (this.#compactionTimer !== null) this.#timers.clearTimeout(this.#compactionTimer);
    this.#compactionTimer = null;
    if (this.#live) this.#noteLive();
    this.#closed = true;
    this.#unknownRoom.cancel();
    this.#network.removeEventListener('online', this.#onOnline);
    this.#connector.stop();
    this.#presence.close();
    for (const rotation of this.#rotations.values()) rotation.resolve(SyncError.closed());
    this.#rotations.clear();
    this.#publish();
    // A pass under way ends before the store closes: it removes all it planned or nothing.
    await this.#compaction;
    await Promise.all(this.#encodings);
    await this.#writes.drained();
    for (const lease of this.#leases) lease.release();
    if (this.#ownsStore) this.#store.close();
  }

  // Local changes

  /**
   * Notes which strokes a change to upload only carries on, if it does: the count of changes to upload
   * shown counts a long stroke saved while drawn as one edit (edit-count.js).
   * @param {string} key @param {object} change
   */
  #noteContinuing(key, change) {
    const begun = strokesContinued(/** @type {any} */ (change));
    if (begun !== null) this.#continuing.set(key, begun);
  }

  /** Applies, stores and queues a change this page made. */
  #record(change) {
    const bytes = encodeChange(change);
    const delta = this.board.apply(change);
    this.#applied.push(change);
    this.#frontier.add(change.id);
    const stored = storedChange(this.#room, change, bytes, SCHEMA_VERSION);
    const entry = { key: stored.key, room: this.#room, id: change.id, bytes };
    this.#queue.push(entry);
    this.#noteContinuing(stored.key, change);
    if (this.#uploads !== null) {
      // The newest change: no other change to upload carries on a stroke it begins.
      const { keys } = this.#uploads;
      const begun = this.#continuing.get(stored.key);
      if (!(begun !== undefined && begun.every((key) => keys.has(key)))) this.#uploads.edits += 1;
      keys.add(stored.key);
      this.#uploads.queuedBytes += entryBytes(entry);
    }
    this.#writes.write('storing a change', () => this.#store.recordLocal(stored), () => this.#unsaved.add(stored.key));
    this.#storedSinceLook += 1;
    // Planned after the write above, so a pack never names a change the store does not hold yet.
    this.#writes.after(() => this.#pump());
    this.#emit('change', { changes: [change], delta, origin: 'local' });
    this.#publish();
    return change;
  }

  /**
   * After a change of this user's: settles the changes the undo and redo stacks no longer reach, once
   * enough have gathered (docs/ARCHITECTURE.md, "Settling"), in a change recorded like any other.
   */
  #settleIfDue() {
    const settle = this.#author.settle(this.board);
    if (settle !== null) this.#record(settle);
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
    this.#queue = this.#queue.filter((change) => {
      if (!keys.has(change.key)) return true;
      if (this.#uploads !== null) this.#uploads.queuedBytes -= entryBytes(change);
      return false;
    });
    let bytes;
    let hex;
    try {
      const signer = this.#signers.get(pack.replica);
      if (signer === undefined) throw new Error('no key for the timeline of a queued change');
      bytes = await encodePack({ room: this.#room, changes: pack.changes.map((change) => change.bytes) }, signer, { roomKey: this.#roomKey });
      hex = toHex(await packId(bytes));
    } catch (error) {
      // Stored changes always encode; should one not, it waits in the queue rather than being lost.
      this.#machine.abandon(pack.name);
      this.#queue.unshift(...pack.changes);
      this.#uploads = null;
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
      // Not followed on this connection (a refused rebase): nothing more of the room is taken until the next.
      if (frame.room === this.#room && !this.#machine.unfollowed) await this.#receivePacks(frame);
      return;
    }
    if (frame.type === 'presences' || frame.type === 'presence') {
      // A batch is several presence frames that piled up for this connection: each is handled as one.
      for (const one of frame.type === 'presences' ? frame.presences : [frame]) {
        const readable = await this.#readablePresence(one);
        if (readable !== null && !this.#closed) this.#perform(this.#machine.received(readable));
      }
      return;
    }
    if (frame.type === 'welcome') {
      this.#connector.welcomed();
      // A new connection: what it learns of the log for snapshots starts from what is held now, and the
      // snapshots planned on the last are not sent.
      this.#snapshots = null;
      this.#connection += 1;
      this.#snapshotPlan.reset();
      this.#clock.learn(frame.serverTime);
      // Away long enough: what the catch-up brings of the others' is held until the user merges it.
      this.#reviewing = holdsCatchUp({ liveAt: this.#liveAt, now: this.#now(), after: this.#reviewAfter });
    }
    let ownChangesStored = true;
    if (frame.type === 'ack') {
      const pack = this.#machine.inFlight.find((known) => known.hex === toHex(frame.packId));
      ownChangesStored = pack === undefined || pack.changeKeys.every((key) => !this.#unsaved.has(key));
      // Stored at that position: a snapshot standing for it must hold these changes.
      if (pack !== undefined && frame.room === this.#room && this.#snapshots !== null) {
        for (const key of pack.changeKeys) {
          const [replica, seq] = key.split('-');
          this.#snapshots.received(frame.serverSeq, replica, Number(seq));
        }
      }
    }
    this.#perform(this.#machine.received(frame, { ownChangesStored }));
    // A page that only draws hears of its room through acks: once its pushes are all stored.
    if (frame.type === 'progress' || (frame.type === 'ack' && this.#machine.inFlight.length === 0)) {
      this.#considerSnapshot();
      this.#considerCompaction();
    }
    // A reconnection: the server's clock is known afresh, and what waited for it may be due.
    if (frame.type === 'welcome') await this.#applyDueAhead();
  }

  /**
   * Stores a frame's packs in one transaction, applies their new changes (or holds them, in a catch-up
   * after a gap), then lets the cursor see them. Packs that fail verification and changes stamped too
   * far ahead are stored aside, and count as seen; so do held changes, which are stored. Snapshot parts
   * are gathered; a snapshot whose last part came is reviewed, and the changes of one taken that this page
   * did not hold are stored with the frame's. A `rebase` frame's positions count as seen only once its
   * snapshot is taken; refused, the room is not followed on this connection.
   */
  async #receivePacks(frame) {
    const now = this.#clock.now();
    const rebase = frame.rebase ?? null;
    const keys = { roomKey: this.#roomKey };
    const intake = rebase === null ? await readPacks(this.#room, frame.packs, { now }, keys) : await readRebase(this.#room, frame.packs, keys);
    const tracker = this.#tracker();
    let taken;
    try {
      taken = await takeSnapshots(intake, {
        tracker,
        rebase,
        held: (wanted) => this.#heldBytes(wanted, intake),
        holdings: () => this.#holdings(intake),
        own: this.#own,
        acknowledged: new Set(this.#signers.keys()),
        ownMade: () => this.#ownMade(),
      });
    } catch (error) {
      // The store could not be read: not taken, not seen; the packs come again after the reconnection.
      this.#writes.failed('reading changes to check a snapshot', error);
      this.#connector.drop('the local store failed');
      return;
    }
    const { outcomes, dropped } = taken;
    this.diagnostics.snapshotPartsDropped += dropped.length;
    if (dropped.length > 0) this.diagnostics.snapshotPartDropReason = dropped[dropped.length - 1].reason;
    const known = new Set(intake.changes.map((c) => c.stored.key));
    for (const outcome of outcomes) {
      if (!outcome.verdict.accepted || outcome.snapshot === null) continue;
      const fresh = outcome.verdict.fresh.filter((change) => !known.has(change.key));
      for (const change of fresh) known.add(change.key);
      const read = readChanges(this.#room, fresh.map((change) => change.bytes), outcome.snapshot.schemaVersion, { now });
      intake.changes.push(...read.changes);
      intake.aside.push(...read.aside);
      intake.ahead += read.ahead;
      intake.earliestAhead = Math.min(intake.earliestAhead, read.earliestAhead);
      intake.rejected += read.rejected;
    }
    // Frames are handled one at a time, so a catch-up's frames all come before the progress ending it.
    const hold =
      this.#reviewing && !this.#machine.caughtUp
        ? intake.changes.filter(({ change }) => !this.#own.has(change.id.replica) && !this.board.contains(change.id)).map((c) => c.stored.key)
        : [];
    let inserted;
    try {
      inserted = await this.#writes.enqueue(() =>
        this.#store.storeRemote(
          this.#room,
          intake.changes.map((c) => c.stored),
          intake.aside,
          hold,
        ),
      );
    } catch (error) {
      // Not stored, so not seen: the packs come again after the reconnection.
      this.#writes.failed('storing received changes', error);
      this.#connector.drop('the local store failed');
      return;
    }
    if (this.#closed) return;
    // Held only if this store took them now: one another tab stored first is on its board already.
    const stored = new Set(inserted);
    this.#storedSinceLook += inserted.length;
    this.#applyRemote(intake.changes.map((c) => c.change), now, new Set(hold.filter((key) => stored.has(key))));
    this.diagnostics.changesAhead += intake.ahead;
    const waitedBefore = this.#earliestAhead;
    this.#earliestAhead = Math.min(this.#earliestAhead, intake.earliestAhead);
    if (intake.refused.length > 0) this.#refused(intake.refused);
    // Kept before the watermark moves past the rebase: a page that held it and not this would never be
    // given the snapshot again.
    for (const outcome of outcomes) {
      if (rebase === null || outcome.position !== rebase || !outcome.verdict.accepted || outcome.snapshot === null) continue;
      this.#standFor(outcome.snapshot.cut);
    }
    for (const outcome of outcomes) this.#took(outcome);
    if (rebase === null) {
      this.#perform(this.#machine.stored(intake.positions, intake.packBytes, frame.head));
    } else {
      for (const outcome of outcomes) {
        if (outcome.position !== rebase) continue;
        // Packs the server no longer keeps cannot come any other way: the room waits for a snapshot this
        // page can take, on a later connection.
        if (!outcome.verdict.accepted) this.#perform(this.#machine.unfollow());
        else this.#perform(this.#machine.rebased(rebase, outcome.positions, intake.packBytes, frame.head));
      }
    }
    if (waitedBefore !== Infinity) await this.#applyDueAhead();
    if (rebase === null) this.#considerSnapshot();
    this.#considerCompaction();
  }

  /**
   * What this connection learned of the room's log for snapshots, started at its first frame of packs
   * from what the page holds then: every timeline as far as held without a gap, but this page's own, as
   * far as the server acknowledged those it pushes (another tab's, not at all: this one cannot tell).
   */
  #tracker() {
    if (this.#snapshots !== null) return this.#snapshots;
    const base = this.#frontier.vector();
    for (const replica of this.#own) base.delete(replica);
    /** The first seq of each leased timeline not acknowledged yet. @type {Map<string, number>} */
    const waiting = new Map();
    const note = (/** @type {string} */ replica, /** @type {number} */ seq) => waiting.set(replica, Math.min(waiting.get(replica) ?? Infinity, seq));
    for (const change of this.#queue) note(change.id.replica, change.id.seq);
    for (const pack of this.#machine.inFlight) {
      for (const key of pack.changeKeys) {
        const [replica, seq] = key.split('-');
        note(replica, Number(seq));
      }
    }
    for (const replica of this.#signers.keys()) {
      const acknowledged = waiting.has(replica) ? /** @type {number} */ (waiting.get(replica)) - 1 : this.#frontier.through(replica);
      if (acknowledged > 0) base.set(replica, acknowledged);
    }
    this.#snapshots = new SnapshotTracker(base, this.#machine.cursor.watermark, { maximumPendingBytes: this.#snapshotBytes });
    return this.#snapshots;
  }

  /**
   * This page's bytes of the changes it holds among `keys`: stored, kept aside (a newer schema, another
   * type, a stamp ahead), or read in the frame under way and not stored yet.
   * @param {string[]} keys
   * @param {import('./pack-intake.js').Intake} intake
   * @returns {Promise<Map<string, Uint8Array>>}
   */
  async #heldBytes(keys, intake) {
    const wanted = new Set(keys);
    const held = new Map();
    const note = (/** @type {Uint8Array} */ bytes) => {
      try {
        const { replica, seq } = changeOrigin(bytes);
        const key = `${replica}-${seq}`;
        if (wanted.has(key) && !held.has(key)) held.set(key, bytes);
      } catch {
        // Not a change: nothing held.
      }
    };
    for (const { stored } of intake.changes) if (wanted.has(stored.key)) held.set(stored.key, stored.bytes);
    for (const item of intake.aside) if (item.kind === 'change') note(item.bytes);
    const missing = keys.filter((key) => !held.has(key));
    const [stored, aside] = await this.#writes.enqueue(() => Promise.all([this.#store.loadChanges(this.#room, missing), this.#store.loadAside(this.#room)]));
    missing.forEach((key, index) => {
      if (stored[index] !== undefined) held.set(key, stored[index]);
    });
    for (const item of aside) if (item.kind === 'change') note(item.bytes);
    return held;
  }

  /**
   * Every change this page holds of the room, for a snapshot's review: on the board or held for review,
   * read in the frame under way, kept aside (a newer schema, another type, a stamp ahead), or stored by
   * another tab of the room and not received here yet.
   * @param {import('./pack-intake.js').Intake} intake
   * @returns {Promise<Map<string, import('./snapshot-review.js').Held>>}
   * - Complexity: O(changes held), plus decoding those kept aside or stored by another tab.
   */
  async #holdings(intake) {
    /** @type {Map<string, import('./snapshot-review.js').Held>} */
    const holdings = new Map();
    const take = (/** @type {any} */ change) => holdings.set(changeKey(change), { change, board: change.board });
    for (const change of this.#applied) take(change);
    for (const change of this.#held.changes()) take(change);
    for (const { change } of intake.changes) take(change);
    const [keys, aside] = await this.#writes.enqueue(() =>
      Promise.all([this.#store.loadKeys(this.#room), this.#store.loadAside(this.#room)]),
    );
    const note = (/** @type {Uint8Array} */ bytes) => {
      try {
        const { replica, seq } = changeOrigin(bytes);
        const key = `${replica}-${seq}`;
        if (!holdings.has(key)) holdings.set(key, readHeld(bytes));
      } catch {
        // Not a change: nothing held.
      }
    };
    for (const item of [...aside, ...intake.aside]) if (item.kind === 'change') note(item.bytes);
    const missing = keys.filter((key) => !holdings.has(key));
    if (missing.length > 0) {
      const stored = await this.#writes.enqueue(() => this.#store.loadChanges(this.#room, missing));
      for (const bytes of stored) if (bytes !== undefined) note(bytes);
    }
    return holdings;
  }

  /**
   * What became of a snapshot whose last part came (its changes, if taken, are stored and applied): a
   * taken one is checked, signed, to the server; a refused one is counted, and this page's own changes
   * it left out go back to the outbox, so the server holds them whatever the snapshot says.
   * @param {import('./snapshot-intake.js').SnapshotOutcome} outcome
   */
  #took(outcome) {
    const { verdict, position } = outcome;
    const changes = outcome.snapshot?.changes.length ?? 0;
    if (verdict.accepted) {
      this.diagnostics.snapshotsChecked += 1;
      this.#emit('snapshot', { position, accepted: true, changes, fresh: verdict.fresh.length, reason: null });
      const snapshot = /** @type {import('../wire/snapshot-assembly.js').RoomSnapshot} */ (outcome.snapshot);
      let stands = 0;
      for (const { seq } of snapshot.cut.values()) stands += seq;
      this.#hearSnapshot({ position, changes: stands, held: changes });
      void this.#sendCheck(outcome.id);
      return;
    }
    this.diagnostics.snapshotsRefused += 1;
    this.diagnostics.snapshotRefusal = verdict.reason;
    this.#emit('snapshot', { position, accepted: false, changes, fresh: 0, reason: verdict.reason });
    if (verdict.missingOwn.length > 0) void this.#requeue(verdict.missingOwn);
  }

  /**
   * Says to the server that this page checked and holds a snapshot, signed by its timeline's key. Not
   * while it keeps aside packs of the room it cannot read: what it cannot read, it cannot check; nor while
   * it holds a change past a gap, which the snapshot may stand for without holding.
   * @param {Uint8Array} snapshot the snapshot's id
   */
  async #sendCheck(snapshot) {
    const signer = this.#signers.get(this.#author.replica);
    if (signer === undefined || this.#frontier.hasGap) return;
    try {
      const aside = await this.#writes.enqueue(() => this.#store.loadAside(this.#room));
      if (aside.some((item) => item.kind === 'pack' && !isRefused(item))) return;
      const check = await signSnapshotCheck(this.#room, snapshot, signer);
      if (!this.#closed) this.#perform(this.#machine.snapshotChecked(check));
    } catch {
      // Unchecked, the server keeps the packs the snapshot stands for a while longer: nothing is lost.
    }
  }

  /** Puts this page's changes a refused snapshot left out back in the outbox. @param {string[]} keys */
  async #requeue(keys) {
    let queued;
    try {
      queued = await this.#writes.enqueue(() => this.#store.requeue(this.#room, keys));
    } catch (error) {
      this.#writes.failed('queueing again the changes a snapshot left out', error);
      return;
    }
    const known = new Set(this.#queue.map((change) => change.key));
    for (const stored of queued) {
      if (known.has(stored.key) || this.#machine.isInFlight(stored.key)) continue;
      this.#queue.push({ key: stored.key, room: this.#room, id: { replica: stored.replica, seq: stored.seq }, bytes: stored.bytes });
      // Counted with its stroke, as when it was first queued (edit-count.js); bytes that no longer decode
      // count as an edit of their own.
      try {
        this.#noteContinuing(stored.key, decodeChange(stored.bytes));
      } catch {
        this.#continuing.delete(stored.key);
      }
    }
    // Each timeline's changes in seq order, timelines in the order of their first queued change.
    const order = [...new Set(this.#queue.map((change) => change.id.replica))];
    this.#queue.sort((a, b) => order.indexOf(a.id.replica) - order.indexOf(b.id.replica) || a.id.seq - b.id.seq);
    this.#uploads = null;
    this.#pump();
    this.#publish();
  }

  /**
   * Notes the newest room snapshot heard of (sent, or checked), here and in the store, unless a newer one
   * was: the next one waits for enough changes after it, after a reload too.
   * @param {import('./snapshot-policy.js').KnownSnapshot} snapshot
   */
  #hearSnapshot(snapshot) {
    if (!isNewer(this.#knownSnapshot, snapshot)) return;
    this.#knownSnapshot = snapshot;
    // If it fails, a reload may send a snapshot sooner than due: bytes, nothing lost.
    this.#writes.write('keeping the newest snapshot heard of', () => this.#store.hearSnapshot(this.#room, snapshot));
  }

  /**
   * Plans a snapshot of the room once this page may send one (snapshot-policy.js), made and sent after a
   * random part of the delay if the same connection is still open.
   */
  #considerSnapshot() {
    if (this.#closed) return;
    const machine = this.#machine;
    let held = 0;
    for (const seq of this.#frontier.vector().values()) held += seq;
    const plan = this.#snapshotPlan.consider({
      caughtUp: machine.caughtUp,
      atHead: machine.cursor.isAtHead,
      takesPushes: machine.mayPush,
      held,
      known: this.#knownSnapshot,
      threshold: this.#snapshotThreshold,
    });
    if (plan === null) return;
    const connection = this.#connection;
    const timer = this.#timers.setTimeout(() => {
      this.#snapshotTimers.delete(timer);
      this.#handle(() => this.#sendSnapshot(plan, connection));
    }, this.#snapshotDelay * this.#random());
    this.#snapshotTimers.add(timer);
  }

  /**
   * Makes and sends a planned snapshot, between the frames of the connection it was planned on (so what
   * it reads of the room stands still), if that connection is still open and the page still holds the
   * room's whole history; then considers another, if one was asked for meanwhile.
   * @param {number} plan @param {number} connection
   */
  async #sendSnapshot(plan, connection) {
    try {
      const position = this.#machine.cursor.watermark;
      const made = await this.#makeSnapshot(connection, position);
      if (made === null) return;
      if (!made.made) {
        this.diagnostics.snapshotNotMade = made.reason;
        return;
      }
      if (this.#closed || connection !== this.#connection || !this.#machine.mayPush) return;
      this.#hearSnapshot({ position, changes: made.changes, held: made.held });
      this.diagnostics.snapshotsSent += 1;
      this.diagnostics.snapshotNotMade = null;
      this.#perform(made.parts.map((pack) => ({ type: 'send', frame: { type: 'push', room: this.#room, pack } })));
    } catch (error) {
      // Not sent (the store could not be read, say): the next frame that finds it due plans it again.
      this.diagnostics.snapshotNotMade = `it could not be made: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      if (this.#snapshotPlan.done(plan)) this.#considerSnapshot();
    }
  }

  /**
   * The room's snapshot standing for `position` (snapshot-maker.js), or null when it is no longer due on
   * `connection`: closed or replaced, not caught up, or a snapshot as new heard of meanwhile.
   * @param {number} connection @param {number} position
   * @returns {Promise<import('./snapshot-maker.js').Made | null>}
   */
  async #makeSnapshot(connection, position) {
    const machine = this.#machine;
    const threshold = this.#snapshotThreshold;
    if (this.#closed || connection !== this.#connection || threshold === null) return null;
    if (!machine.caughtUp || !machine.cursor.isAtHead || !machine.mayPush) return null;
    if (position < 1 || !isNewer(this.#knownSnapshot, { position, changes: 0, held: 0 })) return null;
    const signer = this.#signers.get(this.#author.replica);
    if (signer === undefined) return null;
    // What a receiver caught up to the position holds: so it can check what the snapshot leaves out.
    const within = this.#tracker().required(position);
    // The changes not yet stored at a position: those waiting now, which land past `position` even if
    // their acks come in while the store is read, and, read after the store, those made meanwhile (a
    // change is queued before it is stored).
    const waiting = new Set();
    const noteWaiting = () => {
      for (const change of this.#queue) waiting.add(change.key);
      for (const pack of machine.inFlight) for (const key of pack.changeKeys) waiting.add(key);
    };
    noteWaiting();
    const { held, aside, cover, pruned } = await this.#roomHeld();
    noteWaiting();
    return makeSnapshot({
      room: this.#room,
      position,
      within,
      needed: changesForNextSnapshot(this.#knownSnapshot, threshold),
      held,
      aside,
      author: this.#author.replica,
      own: this.#own,
      leased: new Set(this.#signers.keys()),
      waiting,
      signer,
      cover,
      pruned,
      roomKey: this.#roomKey,
    });
  }

  /**
   * Every change this page holds of the room with its bytes, for a snapshot of it: stored (by this tab or
   * another), or kept aside as another type's; and what is kept aside.
   * With them, what the store stands for without holding them, read last: a change another tab's pass
   * removed meanwhile is then stood for, never missing.
   * @returns {Promise<{held: Map<string, import('./snapshot-maker.js').HeldChange>,
   *   aside: (import('./store-records.js').AsideItem & {id: number})[], cover: import('./store-records.js').CutEntry[],
   *   pruned: import('./store-records.js').CutEntry[]}>}
   * - Complexity: O(changes held), plus decoding those this tab has not applied.
   */
  async #roomHeld() {
    const [keys, aside] = await this.#writes.enqueue(() => Promise.all([this.#store.loadKeys(this.#room), this.#store.loadAside(this.#room)]));
    const stored = await this.#writes.enqueue(() => this.#store.loadChanges(this.#room, keys));
    const { cover, pruned } = await this.#writes.enqueue(() => this.#store.loadStanding(this.#room));
    const decoded = new Map();
    for (const change of [...this.#applied, ...this.#held.changes()]) decoded.set(changeKey(change), change);
    /** @type {Map<string, import('./snapshot-maker.js').HeldChange>} */
    const held = new Map();
    keys.forEach((key, index) => {
      const bytes = stored[index];
      if (bytes === undefined) return;
      const change = decoded.get(key);
      held.set(key, change === undefined ? { bytes, ...readHeld(bytes) } : { bytes, change, board: change.board });
    });
    for (const item of aside) {
      if (item.kind !== 'change' || isRefused(item) || keptForLater(item)) continue;
      try {
        const { replica, seq } = changeOrigin(item.bytes);
        const key = `${replica}-${seq}`;
        if (!held.has(key)) held.set(key, { bytes: item.bytes, ...readHeld(item.bytes) });
      } catch {
        // Not a change: nothing held.
      }
    }
    return { held, aside, cover, pruned };
  }

  /**
   * The last seq made on each of this browser's timelines of the room: a change of one of them that a
   * snapshot holds and this page does not, its compaction left out (snapshot-review.js).
   * @returns {Promise<Map<string, number>>}
   */
  async #ownMade() {
    const records = await this.#writes.enqueue(() => this.#store.loadReplicas(this.#room));
    const made = new Map(records.map((record) => [record.replica, record.lastSeq]));
    // Ahead of the store while its last write is under way.
    made.set(this.#author.replica, Math.max(made.get(this.#author.replica) ?? 0, this.#author.seq));
    return made;
  }

  /**
   * A rebase snapshot was taken in place of packs this page never received: the room's store stands for its
   * cut, this browser's timelines aside (it holds them whole), so the changes it left out leave no gap and
   * the page may send the room's next snapshot. Each timeline keeps the stamp of the latest change of it
   * the page holds within the cut, not the snapshot's, as Swift's `Store.standFor`: a stamp known only on
   * the snapshot's word may be wrong.
   * @param {import('../wire/snapshot-cover.js').Cut} cut
   */
  #standFor(cut) {
    /** @type {Map<string, import('../model/stamp.js').Stamp>} */
    const latest = new Map();
    for (const change of [...this.#applied, ...this.#held.changes()]) {
      const { replica, seq } = change.id;
      if (seq > (cut.get(replica)?.seq ?? 0)) continue;
      const known = latest.get(replica);
      if (known === undefined || compareStamps(known, change.stamp) < 0) latest.set(replica, change.stamp);
    }
    /** @type {import('./store-records.js').CutEntry[]} */
    const entries = [];
    for (const [replica, { seq }] of cut) {
      if (this.#own.has(replica)) continue;
      const stamp = latest.get(replica) ?? ZERO_STAMP;
      entries.push({ replica, seq, stamp: { wall: stamp.wall, counter: stamp.counter } });
      this.#frontier.cover(replica, seq);
    }
    this.#writes.write('keeping what a room snapshot stands for', () => this.#store.standFor(this.#room, entries));
  }

  /** Looks every tenth of the threshold's changes stored whether a compaction pass is due. */
  get #compactionStep() {
    return Math.max(1, Math.floor((this.#compactionThreshold ?? 1) / 10));
  }

  /**
   * Plans a compaction pass once enough changes were stored since the last look: after `compactionDelay`,
   * once the sync has settled (a sync settling, or the page opening, asks again).
   */
  #considerCompaction() {
    if (this.#closed || this.#compactionThreshold === null || this.#compactionTimer !== null || this.#compaction !== null) return;
    if (this.#storedSinceLook < this.#compactionStep || !this.#syncSettled) return;
    this.#compactionTimer = this.#timers.setTimeout(() => {
      this.#compactionTimer = null;
      if (this.#closed || !this.#syncSettled) return;
      this.#compaction = this.#compact().finally(() => {
        this.#compaction = null;
      });
    }, this.#compactionDelay);
  }

  /**
   * Whether the sync has settled: no catch-up under way (its frames and writes are still coming), and
   * nothing of this tab's queued or in flight. A pass can leave out none of this tab's changes until the
   * server has acknowledged them: it waits for that.
   */
  get #syncSettled() {
    if (this.#queue.length > 0 || this.#machine.inFlight.length > 0) return false;
    return !(this.#machine.phase === 'open' && !this.#machine.caughtUp);
  }

  /** Runs a compaction pass of the room's store, if one is due (store-compaction.js). */
  async #compact() {
    this.#storedSinceLook = 0;
    try {
      const done = await compactRoom(this.#store, this.#room, {
        threshold: /** @type {number} */ (this.#compactionThreshold),
        run: (work) => this.#writes.enqueue(work),
      });
      if (done === null) return;
      this.diagnostics.compactions += 1;
      this.diagnostics.changesPruned += done.removed.length;
      this.diagnostics.compactionFailure = null;
    } catch (error) {
      // Nothing removed: the pass is one transaction. The next look tries again.
      this.diagnostics.compactionFailure = error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * Witnesses received changes, stored already, and applies them, but those to hold for review.
   * @param {object[]} received @param {number} now @param {Set<string>} [hold] keys of changes to hold
   */
  #applyRemote(received, now, hold = new Set()) {
    for (const change of received) {
      this.#author.witness(change.stamp, now);
      this.#frontier.add(change.id);
    }
    // New to the board, not to the store: another tab of this room may have stored them first. One held
    // already stays held, should it come again.
    const fresh = received.filter((change) => !this.board.contains(change.id) && !this.#held.has(changeKey(change)));
    let held = 0;
    for (const change of fresh) if (hold.has(changeKey(change)) && this.#held.add(change)) held += 1;
    this.#apply(
      fresh.filter((change) => !hold.has(changeKey(change))),
      'remote',
    );
    if (held > 0) this.#emitReview();
  }

  /** Applies changes to the board and says so. @param {object[]} changes @param {'local' | 'remote'} origin */
  #apply(changes, origin) {
    if (changes.length === 0) return;
    const delta = this.board.applyAll(changes);
    this.#applied.push(...changes);
    this.#emit('change', { changes, delta, origin });
  }

  #emitReview() {
    this.#emit('review', this.review);
  }

  /** Notes that the room is live now (or was until now), here and in the store. */
  #noteLive() {
    const time = this.#now();
    this.#liveAt = time;
    // If it fails, a reload may take a short gap for a long one: a review more, nothing lost.
    this.#writes.write('noting the time of the last sync', () => this.#store.noteLive(this.#room, time));
  }

  /** Follows the session in and out of live (connected and caught up). */
  #followLiveness() {
    const live = this.#machine.phase === 'open' && this.#machine.caughtUp;
    if (live === this.#live) return;
    this.#live = live;
    if (live) this.#reviewing = false;
    this.#noteLive();
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
    this.#count(reasons);
    this.#emit('refused', { reasons });
  }

  /** Counts received packs kept aside because they failed verification. @param {string[]} reasons */
  #count(reasons) {
    this.diagnostics.packsRefused += reasons.length;
    for (const reason of reasons) this.diagnostics.refusedReasons[reason] = (this.diagnostics.refusedReasons[reason] ?? 0) + 1;
  }

  /**
   * A presence as this room reads it: opened with the room's key in an encrypted room, where a plain one
   * is dropped (the server could name anyone in it) but for the server's note that someone left (an empty
   * name, no cursor, no ink); a sealed one is dropped in a plain room, or when it does not open.
   * @param {import('../wire/sync.js').PresenceFrame} frame
   * @returns {Promise<import('../wire/sync.js').PresenceFrame | null>}
   */
  async #readablePresence(frame) {
    const sealed = frame.sealed !== undefined && frame.sealed.length > 0;
    const leaving = !sealed && frame.name === '' && !frame.hasCursor && frame.ink === null;
    if (this.#roomKey === null) return sealed ? null : frame;
    if (!sealed) return leaving ? frame : null;
    try {
      return await openPresence(frame, this.#roomKey);
    } catch {
      return null;
    }
  }

  #disconnected(code, reason) {
    // The next connection subscribes on its own.
    this.#unknownRoom.cancel();
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
        case 'encode': {
          const encoding = this.#encode(action.pack);
          this.#encodings.add(encoding);
          void encoding.finally(() => this.#encodings.delete(encoding));
          break;
        }
        case 'acknowledge': {
          for (const key of action.changeKeys) {
            this.#unsaved.delete(key);
            this.#continuing.delete(key);
          }
          this.#uploads = null;

          const { hex, watermark } = action;
          this.#writes.write('clearing an acknowledged pack', async () => {
            await this.#store.acknowledgePack(this.#room, hex);
            // Only once the pack is off the queue (sync-machine.js `#acknowledged`).
            if (watermark !== null && watermark !== undefined) await this.#store.setWatermark(this.#room, watermark);
          });
          break;
        }
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
          if (action.error.code === 'accessDenied') {
            this.#emit('denied', { reason: action.error.reason, message: action.error.message });
          }
          break;
        case 'access':
          this.#unknownRoom.granted();
          this.#emit('access', { rights: action.rights, guarded: action.guarded });
          break;
        case 'roomUnknown':
          this.#unknownRoom.refused();
          break;
        case 'reconnect':
          this.#connector.restart();
          break;
        case 'rotated': {
          const rotation = this.#rotations.get(action.name);
          this.#rotations.delete(action.name);
          rotation?.resolve(action.error);
          break;
        }
      }
    }
    if (!this.#closed) this.#followLiveness();
    this.#publish();
  }

  /**
   * Sends this page's presence, sealed in an encrypted room (in order: sealing takes a moment).
   * @param {import('../wire/sync.js').PresenceFrame} frame
   * @returns {boolean} whether it may go: connected with edit rights
   */
  #sendPresence(frame) {
    if (this.#closed || !this.#machine.mayEdit) return false;
    const key = this.#roomKey;
    this.#presenceOut = this.#presenceOut
      .then(async () => {
        const ready = key === null ? frame : await sealPresence(frame, key);
        if (this.#closed) return;
        for (const action of this.#machine.presence(ready)) if (action.type === 'send') this.#connector.send(encodeFrame(action.frame));
      })
      .catch(() => {
        // Presence is a courtesy: one that cannot be sealed is dropped, as one sent while offline is.
      });
    return true;
  }

  // Plumbing

  /** Handles a socket event after those before it. @param {() => unknown} body */
  #handle(body) {
    this.#events = this.#events.then(body).catch(() => {});
  }

  /** What is left to upload (`#uploads`), worked out again if it was dropped. */
  #uploadsLeft() {
    if (this.#uploads === null) {
      const keys = new Set([...this.#queue.map((change) => change.key), ...this.#machine.inFlight.flatMap((pack) => pack.changeKeys)]);
      this.#uploads = {
        keys,
        edits: countEdits(keys, (key) => this.#continuing.get(key)),
        queuedBytes: this.#queue.reduce((sum, change) => sum + entryBytes(change), 0),
      };
    }
    return this.#uploads;
  }

  #publish() {
    if (this.#connector === undefined) return;
    const uploads = this.#uploadsLeft();
    const status = syncStatus({
      progress: this.#machine.status(uploads.queuedBytes),
      failure: this.#machine.failure,
      closed: this.#closed,
      onLine: this.#connector.onLine,
      unreachable: this.#connector.unreachable,
      changesToUpload: uploads.edits,
      storageProblem: this.#writes.problem,
      paused: this.#paused,
      held: this.#held.edits,
      rights: this.rights,
      refused: this.diagnostics.refusedReasons,
      roomUnknown: this.#machine.roomUnknown,
      roomFull: this.#machine.roomFull,
      unfollowed: this.#machine.unfollowed,
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
