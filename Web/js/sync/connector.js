// The socket side of a session: opens the WebSocket, reopens it after a jittered exponential backoff
// (Swift's `SyncClient.run`), stays down while the browser says it is offline or the user has paused
// sharing, and paces pushes.
//
// It knows nothing of the protocol: the session hears of each opening, message and close, and decides.

import { Backoff } from './backoff.js';
import { PushPacer } from './push-pacer.js';

/**
 * @typedef {import('./network.js').Network} Network
 * @typedef {{now: () => number, setTimeout: (f: () => void, ms: number) => any, clearTimeout: (t: any) => void}} Timers
 * @typedef {{
 *   onConnecting: () => void,
 *   onOpen: () => void,
 *   onMessage: (bytes: Uint8Array) => void,
 *   onClose: (code: number | null, reason: string) => void
 * }} ConnectorEvents
 */

/** A browser may close with 1000 or 3000–4999 only. */
const NORMAL_CLOSURE = 1000;
const OPEN = 1;
const CLOSED = 3;

export class Connector {
  #url;
  #WebSocket;
  #events;
  #network;
  #timers;
  #backoff;
  #random;
  #stableAfter;
  #pacer;
  /** @type {WebSocket | null} */
  #socket = null;
  #retry = null;
  #attempts = 0;
  #openedAt = 0;
  #welcomed = false;
  #stopped = false;
  /** The user paused sharing: no connection until `resume`. */
  #paused = false;
  #onOnline = () => this.#networkCameBack();
  #onOffline = () => this.#networkWentAway();

  /**
   * @param {{
   *   url: string, WebSocket: typeof WebSocket, events: ConnectorEvents, network: Network, timers: Timers,
   *   random: () => number, backoff?: Backoff, stableAfter?: number, pushesPerSecond?: number, paused?: boolean
   * }} options `stableAfter`: a connection that lasted this long (ms) resets the backoff; `paused`: start
   *   paused (see `pause`)
   */
  constructor({ url, WebSocket, events, network, timers, random, backoff = new Backoff(), stableAfter = 10_000, pushesPerSecond = 100, paused = false }) {
    this.#url = url;
    this.#WebSocket = WebSocket;
    this.#events = events;
    this.#network = network;
    this.#timers = timers;
    this.#random = random;
    this.#backoff = backoff;
    this.#stableAfter = stableAfter;
    this.#paused = paused;
    this.#pacer = new PushPacer({ rate: pushesPerSecond, burst: Math.max(pushesPerSecond / 5, 1), now: timers.now() });
    /** Whether the last connection ended before the server welcomed it: the server is out of reach. */
    this.unreachable = false;
  }

  /** Connects now, if the browser is online and sharing is not paused; and follows the network from now on. */
  start() {
    this.#network.addEventListener('online', this.#onOnline);
    this.#network.addEventListener('offline', this.#onOffline);
    if (this.#network.onLine) this.#connect();
  }

  /** Whether sharing is paused. */
  get paused() {
    return this.#paused;
  }

  /**
   * Closes the connection now and opens none until `resume`, whatever the network does: the user paused
   * sharing. The close is reported at once, as going offline is.
   */
  pause() {
    if (this.#stopped || this.#paused) return;
    this.#paused = true;
    this.#cancelRetry();
    this.#detach('paused');
  }

  /** Connects again now (if the browser is online), with the backoff reset. */
  resume() {
    if (this.#stopped || !this.#paused) return;
    this.#paused = false;
    this.#attempts = 0;
    this.unreachable = false;
    if (this.#network.onLine) this.#connect();
  }

  /** Whether the browser says the network is there. */
  get onLine() {
    return this.#network.onLine;
  }

  /** The server welcomed this connection: once it has lasted `stableAfter`, it resets the backoff. */
  welcomed() {
    this.#welcomed = true;
    this.unreachable = false;
  }

  /**
   * Sends one binary message if connected.
   * @param {Uint8Array} bytes
   * @returns {boolean} whether it went
   */
  send(bytes) {
    if (this.#socket === null || this.#socket.readyState !== OPEN) return false;
    this.#socket.send(bytes);
    return true;
  }

  /**
   * Sends a push, after the pacer's delay: a burst of edits never trips the server's rate limit. A push
   * whose connection is gone by then is dropped: the next welcome pushes every unacknowledged pack again.
   * @param {Uint8Array} bytes
   */
  sendPush(bytes) {
    const socket = this.#socket;
    const delay = this.#pacer.delay(this.#timers.now());
    if (delay === 0) {
      this.send(bytes);
      return;
    }
    this.#timers.setTimeout(() => {
      if (this.#socket === socket) this.send(bytes);
    }, delay);
  }

  /**
   * Closes the connection; the next one follows after the backoff (unless stopped or offline).
   * @param {string} reason
   */
  drop(reason) {
    this.#socket?.close(NORMAL_CLOSURE, reason.slice(0, 120));
  }

  /**
   * Connects again after `stop`, with the backoff reset: the session was refused for a link it has since
   * replaced with one that works (another tab of this device replaced it).
   */
  restart() {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#attempts = 0;
    this.unreachable = false;
    this.start();
  }

  /** Closes (until `restart`). */
  stop() {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#cancelRetry();
    this.#network.removeEventListener('online', this.#onOnline);
    this.#network.removeEventListener('offline', this.#onOffline);
    this.#detach('closing');
  }

  /** Closes the socket and reports it closed now, without waiting for the close handshake. */
  #detach(reason) {
    const socket = this.#socket;
    if (socket === null) return;
    this.#socket = null;
    socket.close(NORMAL_CLOSURE, reason);
    this.#events.onClose(null, reason);
  }

  #connect() {
    if (this.#stopped || this.#paused || this.#socket !== null) return;
    this.#cancelRetry();
    let socket;
    try {
      socket = new this.#WebSocket(this.#url);
    } catch {
      // A malformed URL or a refused scheme fails now, not in `close`: retry like any failure.
      this.#scheduleRetry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.#socket = socket;
    this.#welcomed = false;
    this.#events.onConnecting();
    socket.onopen = () => {
      opened = true;
      if (this.#socket !== socket) return;
      this.#openedAt = this.#timers.now();
      this.#events.onOpen();
    };
    socket.onmessage = (event) => {
      if (this.#socket !== socket) return;
      // Text frames are not part of the protocol: passed on as bytes that do not decode.
      const data = event.data instanceof ArrayBuffer ? new Uint8Array(event.data) : new TextEncoder().encode(String(event.data));
      this.#events.onMessage(data);
    };
    let opened = false;
    socket.onerror = () => {
      // Browsers fire `close` next; Node 20's WebSocket fires only `error` for a refused connection, and
      // leaves it CONNECTING for ever. A connection that never opened has ended either way.
      if (!opened || socket.readyState === CLOSED) this.#ended(socket, null, '');
    };
    socket.onclose = (event) => {
      this.#ended(socket, event.code === 1005 || event.code === 1006 ? null : event.code, event.reason ?? '');
    };
  }

  /** @param {WebSocket} socket @param {number | null} code @param {string} reason */
  #ended(socket, code, reason) {
    if (this.#socket !== socket) return;
    this.#socket = null;
    const lasted = this.#timers.now() - this.#openedAt;
    if (this.#welcomed && lasted >= this.#stableAfter) this.#attempts = 0;
    if (!this.#welcomed) this.unreachable = true;
    this.#events.onClose(code, reason);
    this.#scheduleRetry();
  }

  #scheduleRetry() {
    if (this.#stopped || this.#paused || !this.#network.onLine || this.#retry !== null) return;
    const delay = this.#backoff.delay(this.#attempts, this.#random);
    this.#attempts += 1;
    this.#retry = this.#timers.setTimeout(() => {
      this.#retry = null;
      this.#connect();
    }, delay);
  }

  #cancelRetry() {
    if (this.#retry !== null) this.#timers.clearTimeout(this.#retry);
    this.#retry = null;
  }

  #networkWentAway() {
    this.#cancelRetry();
    // The socket may take minutes to notice on its own; edits wait in the outbox meanwhile.
    this.#detach('offline');
  }

  #networkCameBack() {
    if (this.#stopped || this.#paused) return;
    this.#attempts = 0;
    this.unreachable = false;
    this.#connect();
  }
}
