// The parts of a room snapshot to and from bytes, as Sources/InkwellWire/Snapshot/PackCodec+Snapshot.swift.
//
// A part is a pack whose envelope also carries a cover (snapshot-cover.js): signed by one author like any
// pack, sealed with the room's key in an encrypted room, but holding changes of any replica of the room,
// each of which the cover's cut must name. It is verified exactly as a pack is (pack.js: the envelope,
// the author, the signature last, the room, the signature itself), then the cover, the schema, the seal
// and the body. Whether the parts together hold exactly the cut is snapshot-assembly.js's to check.

import { WireError } from './errors.js';
import { replicaOfKey, packSigner } from './author-key.js';
import { changeOrigin } from './change.js';
import { SCHEMA_VERSION, WireLimits } from './limits.js';
import { openedEntries, signedEnvelope, verifiedEnvelope } from './pack.js';
import { packId } from './pack-id.js';
import { coverMessage, cutSeq, readCover, SnapshotLimits } from './snapshot-cover.js';

/**
 * @typedef {import('./snapshot-cover.js').SnapshotCover} SnapshotCover
 * @typedef {import('./snapshot-cover.js').Cut} Cut
 * @typedef {import('./author-key.js').SigningKey} SigningKey
 * @typedef {import('./room-key.js').RoomKey} RoomKey
 * @typedef {{
 *   id: Uint8Array, room: string, author: Uint8Array, replica: string, schemaVersion: number,
 *   cover: SnapshotCover, changes: Uint8Array[], sealed: boolean
 * }} SnapshotPart a part as decoded and verified: `id` is the SHA-256 of its bytes, `author` the signer's
 *   public key and `replica` the replica it owns, `changes` still encoded, each named by the cover's cut
 */

/**
 * Decodes and verifies a snapshot part as `decodePack` does a pack, but that its changes may be any
 * replica's, each inside the cover's cut.
 * @param {Uint8Array} bytes
 * @param {{room?: string | null, schema?: number, roomKey?: RoomKey | null}} [options] as `decodePack`'s
 * @returns {Promise<SnapshotPart>}
 * @throws {WireError} what `decodePack` throws up to the signature; then `notSnapshot` for a pack that is
 *   no part of a snapshot, `invalidField('snapshot.…')` for a cover that does not hold, `futureSchema`,
 *   the seal's errors, and `invalidSnapshot` for a change its cut does not name
 * - Complexity: O(bytes), plus one signature verification.
 */
export async function decodeSnapshotPart(bytes, { room = null, schema: understood = SCHEMA_VERSION, roomKey = null } = {}) {
  const wire = await verifiedEnvelope(bytes, room);
  if (wire.snapshot === null) throw WireError.notSnapshot();
  const cover = readCover(wire.snapshot);
  if (wire.schemaVersion > understood) throw WireError.futureSchema(wire.schemaVersion);
  const entries = await openedEntries(wire, roomKey, 'snapshot part body');
  if (entries.length > WireLimits.maximumEntriesPerPack) throw WireError.tooLarge('snapshot part entries');
  const changes = entries.map((entry) => {
    if (entry.room !== '' && entry.room !== wire.room) throw WireError.invalidField('pack.entry.room');
    checkInside(changeOrigin(entry.change), cover.cut);
    return entry.change;
  });
  return {
    id: await packId(bytes),
    room: wire.room,
    author: wire.author,
    replica: await replicaOfKey(wire.author),
    schemaVersion: wire.schemaVersion,
    cover,
    changes,
    sealed: wire.encryption !== null,
  };
}

/**
 * A room snapshot as parts, each a pack signed by `key` (and sealed with `roomKey` in an encrypted room)
 * whose envelope carries the cover: `changes` (encoded) are every change inside `cut`, each once, standing
 * for every pack stored in the room through `position`. Each part's plain body is cut to about
 * `partBodyBytes`.
 * @param {{room: string, position: number, cut: Cut, changes: Uint8Array[], id: Uint8Array,
 *   schemaVersion?: number}} snapshot `id`: 16 random bytes
 * @param {SigningKey} key
 * @param {{roomKey?: RoomKey | null, partBodyBytes?: number, compression?: 'deflate' | 'none', nonce?: Uint8Array}} [options]
 * @returns {Promise<Uint8Array[]>}
 * - Complexity: O(size of the changes), plus one signature per part.
 */
export async function encodeSnapshot({ room, position, cut, changes, id, schemaVersion = SCHEMA_VERSION }, key, options = {}) {
  const { partBodyBytes = SnapshotLimits.partBodyBytes, ...rest } = options;
  /** @type {Uint8Array[][]} */
  const groups = [[]];
  let size = 0;
  for (const change of changes) {
    const entry = change.length + 12;
    if (size + entry > partBodyBytes && groups[groups.length - 1].length > 0) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push(change);
    size += entry;
  }
  const parts = [];
  for (const [part, group] of groups.entries()) {
    const cover = { id, position, cut, part, parts: groups.length };
    parts.push(await encodeSnapshotPart({ room, cover, changes: group, schemaVersion }, key, rest));
  }
  return parts;
}

/**
 * One part: a pack whose envelope carries `cover`. Nothing about the cover is checked here, so tests make
 * parts no honest author would.
 * @param {{room: string, cover: SnapshotCover, changes: Uint8Array[], schemaVersion?: number}} part
 * @param {SigningKey} key
 * @param {{roomKey?: RoomKey | null, compression?: 'deflate' | 'none', nonce?: Uint8Array}} [options]
 * @returns {Promise<Uint8Array>}
 */
export async function encodeSnapshotPart({ room, cover, changes, schemaVersion = SCHEMA_VERSION }, key, options = {}) {
  const entries = changes.map((change) => ({ room: '', change }));
  return signedEnvelope({ room, entries, schemaVersion, snapshot: coverMessage(cover) }, await packSigner(key), options);
}

/**
 * A change must be named by the snapshot's cut.
 * @param {{replica: string, seq: number | bigint}} origin @param {Cut} cut
 * @throws {WireError} `invalidSnapshot`
 */
function checkInside({ replica, seq }, cut) {
  if (!(seq >= 1 && seq <= cutSeq(cut, replica))) throw WireError.invalidSnapshot('it holds a change its cut does not name');
}
