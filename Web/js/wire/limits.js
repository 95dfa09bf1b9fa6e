// Versions and sizes shared with Swift (Sources/InkwellWire/WireLimits.swift, WireError.swift's
// WireSchema, Sync/SyncProtocol.swift). Checked before anything is allocated, so hostile input costs
// bounded memory.

/** The schema version this code writes and fully understands. */
export const SCHEMA_VERSION = 1;

export const WireLimits = Object.freeze({
  /** One encoded change. */
  maximumChangeBytes: 4 << 20,
  /** Operations in one change. */
  maximumOperationsPerChange: 10_000,
  /** Points in one operation (as the board accepts). */
  maximumPointsPerOperation: 100_000,
  /** A pack's body once decompressed. */
  maximumPackBodyBytes: 64 << 20,
  /** Changes in one pack. */
  maximumEntriesPerPack: 200_000,
  /** A room or board name, in UTF-8 bytes. */
  maximumNameBytes: 256,
});

export const SyncProtocol = Object.freeze({
  /** The protocol version this code speaks. 2: packs are signed by their author's key and named by the
   * SHA-256 of their bytes. */
  version: 2,
  /** The oldest version this code still speaks. */
  minimumVersion: 2,
  /** One frame as received: larger ones are refused before they are parsed. */
  maximumFrameBytes: (64 << 20) + (1 << 20),
  /**
   * How far ahead of the receiver's clock a change's stamp may be: the server refuses a push stamped later
   * than its clock plus this, and a client keeps such a change aside until its clock catches up, so no
   * stamp near the end of time can freeze a clock or win every write.
   */
  maximumStampLeadMilliseconds: 300_000,
  /** A presence payload (in-progress ink). */
  maximumPresenceBytes: 64 << 10,
  /** A server error's message, in UTF-8 bytes. */
  maximumErrorMessageBytes: 4_096,
});

/**
 * Whether `room` is a valid room name: 1–128 of `A–Z a–z 0–9 . _ -`, so names are safe in URLs, file
 * names and logs.
 * @param {string} room
 */
export function isValidRoom(room) {
  return typeof room === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(room);
}
