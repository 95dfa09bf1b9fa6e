// The server's codes this client reacts to (Sources/InkwellWire/Sync/CloseCode.swift); other codes
// are handled by reconnecting.

/** Close code: the server does not speak this client's protocol version. Do not reconnect. */
export const UNSUPPORTED_VERSION_CLOSE = 4001;
/** Close code: a pushed pack's id is already stored with other bytes (a hash collision or a corrupt log). */
export const PACK_CONFLICT_CLOSE = 4002;
/** Error frame code of the same refusal, sent just before that close. */
export const UNSUPPORTED_VERSION_ERROR = 2;
/** Error frame code: a push was not stored; push it again later. */
export const STORAGE_FAILED_ERROR = 8;
/**
 * Error frame code, not fatal: a pushed change is stamped further ahead of the server's clock than
 * `SyncProtocol.maximumStampLeadMilliseconds`. Nothing was stored; push it again after the backoff.
 */
export const STAMP_AHEAD_ERROR = 11;
/** Error frame code, fatal (close 1007): a pushed pack's signature does not verify, or is missing. */
export const BAD_SIGNATURE_ERROR = 12;
/** Error frame code, fatal (close 1008): a pushed pack holds a change its signer does not own. */
export const FORGED_AUTHOR_ERROR = 13;
/** Error frame code, fatal (close 1008): a pushed pack was signed for another room. */
export const WRONG_ROOM_ERROR = 14;
/** Error frame code, fatal (close `PACK_CONFLICT_CLOSE`): a pushed pack's id is stored with other bytes. */
export const PACK_CONFLICT_ERROR = 15;
