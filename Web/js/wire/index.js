// The browser's wire codec: the same bytes as Swift's InkwellWire, both ways.

export { WireError } from './errors.js';
export { SCHEMA_VERSION, SyncProtocol, WireLimits, isValidRoom } from './limits.js';
export { fromHex, toHex } from './bytes.js';
export { changeHeader, changeOrigin, decodeChange, encodeChange } from './change.js';
export { decodePoints, encodePoints } from './points.js';
export { decodePack, encodePack, unverifiedPackHeader } from './pack.js';
export { packId } from './pack-id.js';
export { generateAuthorKey, packSigner, replicaOfKey } from './author-key.js';
export { signPack } from './pack-signature.js';
export { decodeSnapshotPart, encodeSnapshot, encodeSnapshotPart } from './snapshot-part.js';
export { SnapshotAssembly } from './snapshot-assembly.js';
export { signSnapshotCheck, snapshotCheckInput, snapshotCheckSigner } from './snapshot-check.js';
export {
  decodeClientFrame,
  decodeFrame,
  decodeServerFrame,
  encodeClientFrame,
  encodeFrame,
  encodeServerFrame,
} from './sync.js';
