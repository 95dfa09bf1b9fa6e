// Versions and sizes shared with Swift, from the generated protocol.js (Swift's WireLimits, WireSchema and
// SyncProtocol are their one definition). Checked before anything is allocated, so hostile input costs
// bounded memory.

import { SCHEMA_VERSION, SYNC_PROTOCOL, WIRE_LIMITS } from './protocol.js';

export { SCHEMA_VERSION };
export const WireLimits = WIRE_LIMITS;
export const SyncProtocol = SYNC_PROTOCOL;

/**
 * Whether `room` is a valid room name: 1–128 of `A–Z a–z 0–9 . _ -`, so names are safe in URLs, file
 * names and logs.
 * @param {string} room
 */
export function isValidRoom(room) {
  return typeof room === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(room);
}
