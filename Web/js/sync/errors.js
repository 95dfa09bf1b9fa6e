// Why the sync session refused a request or gave up, as Swift's `SyncClientError`
// (Sources/InkwellClient/Client/SyncClientError.swift). Safe to log and to show: messages name codes and
// limits, never change content; the one message quoted is the server's own.

/**
 * @typedef {'unsupportedVersion' | 'invalidRoom' | 'invalidOptions' | 'closed' | 'storage'
 *   | 'replicaInUse' | 'seqConflict' | 'noWebSocket' | 'malformedFrame' | 'accessDenied' | 'notConnected'} SyncErrorCode
 * @typedef {'notAllowed' | 'capabilityRevoked' | 'viewOnly'} DeniedReason (a room the server does not know
 *   is not a refusal: the session asks again, unknown-room-retry.js)
 */

/** What the page says when a link does not open its board, in plain words. @type {Record<DeniedReason, string>} */
const DENIED = {
  notAllowed: 'This link no longer works: ask for a new one',
  capabilityRevoked: 'This link was replaced and no longer works: ask for a new one',
  viewOnly: 'This link only lets you look at the board, not change it',
};

/** The one error type of Web/js/sync. */
export class SyncError extends Error {
  /**
   * @param {SyncErrorCode} code
   * @param {string} message
   * @param {unknown} [cause]
   */
  constructor(code, message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'SyncError';
    /** @type {SyncErrorCode} */
    this.code = code;
  }

  /**
   * The server and this client speak no common protocol version (close code 4001): reconnecting cannot
   * help; the server's message says which side is older and needs updating, in plain words for the user.
   * @param {string} serverMessage
   */
  static unsupportedVersion(serverMessage) {
    const error = new SyncError(
      'unsupportedVersion',
      `the app and the server speak no common protocol version: ${serverMessage}`,
    );
    error.serverMessage = serverMessage;
    return error;
  }

  /**
   * The server does not let this link open the room (or no longer does): reconnecting with it cannot help.
   * The message is the page's, in plain words; `reason` says which refusal, `serverMessage` the server's.
   * @param {DeniedReason} reason
   * @param {string} [serverMessage]
   */
  static accessDenied(reason, serverMessage = '') {
    const error = new SyncError('accessDenied', DENIED[reason]);
    error.reason = reason;
    error.serverMessage = serverMessage;
    return error;
  }

  /** A request that needs the server (replacing a link) while not connected to it. */
  static notConnected() {
    return new SyncError('notConnected', 'not connected to the server: try again once synced');
  }

  /** A room name the protocol cannot carry: 1–128 of `A–Z a–z 0–9 . _ -`. */
  static invalidRoom() {
    return new SyncError('invalidRoom', 'room names are 1 to 128 of A-Z a-z 0-9 . _ -');
  }

  /** @param {string} what */
  static invalidOptions(what) {
    return new SyncError('invalidOptions', `invalid session option: ${what}`);
  }

  /** The session or store was closed. */
  static closed() {
    return new SyncError('closed', 'the sync session is closed');
  }

  /**
   * The local store failed (quota, a browser that forbids storage, a broken database).
   * @param {string} operation what was being done
   * @param {unknown} cause
   */
  static storage(operation, cause) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    return new SyncError('storage', `the local store could not ${operation} (${reason})`, cause);
  }

  /** Two writers tried to give out the same seq of one timeline; the later one was refused. */
  static seqConflict() {
    return new SyncError('seqConflict', 'another writer used this timeline: the change was not stored');
  }

  /** No WebSocket constructor: pass one, or run node with --experimental-websocket. */
  static noWebSocket() {
    return new SyncError('noWebSocket', 'no WebSocket implementation is available');
  }

  /** @param {string} reason */
  static malformedFrame(reason) {
    return new SyncError('malformedFrame', `the server sent a frame that does not decode: ${reason}`);
  }
}
