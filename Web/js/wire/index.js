// The browser's wire codec: the same bytes as Swift's InkwellWire, both ways.

export { WireError } from './errors.js';
export { SCHEMA_VERSION, SyncProtocol, WireLimits, isValidRoom } from './limits.js';
export { fromHex, toHex } from './bytes.js';
export { changeHeader, decodeChange, encodeChange } from './change.js';
export { decodePoints, encodePoints } from './points.js';
export { decodePack, decodePackSync, encodePack, packHeader } from './pack.js';
export { packId } from './pack-id.js';
export {
  decodeClientFrame,
  decodeFrame,
  decodeServerFrame,
  encodeClientFrame,
  encodeFrame,
  encodeServerFrame,
} from './sync.js';
