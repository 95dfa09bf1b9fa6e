// The server's codes this client reacts to, from the generated protocol.js (Swift's CloseCode and
// ErrorCode are their one definition); other codes are handled by reconnecting.

import { CLOSE_CODES, ERROR_CODES } from '../wire/protocol.js';

/** Close code: the server does not speak this client's protocol version. Do not reconnect. */
export const UNSUPPORTED_VERSION_CLOSE = CLOSE_CODES.unsupportedVersion;
/** Close code: a pushed pack's id is already stored with other bytes (a hash collision or a corrupt log). */
export const PACK_CONFLICT_CLOSE = CLOSE_CODES.packConflict;
/** Error frame code of the same refusal, sent just before that close. */
export const UNSUPPORTED_VERSION_ERROR = ERROR_CODES.unsupportedVersion;
/** Error frame code: a push was not stored; push it again later. */
export const STORAGE_FAILED_ERROR = ERROR_CODES.storageFailed;
/**
 * Error frame code, not fatal: a pushed change is stamped further ahead of the server's clock than
 * `SyncProtocol.maximumStampLeadMilliseconds`. Nothing was stored; push it again after the backoff.
 */
export const STAMP_AHEAD_ERROR = ERROR_CODES.stampAhead;
/** Error frame code, fatal (close 1007): a pushed pack's signature does not verify, or is missing. */
export const BAD_SIGNATURE_ERROR = ERROR_CODES.badSignature;
/** Error frame code, fatal (close 1008): a pushed pack holds a change its signer does not own. */
export const FORGED_AUTHOR_ERROR = ERROR_CODES.forgedAuthor;
/** Error frame code, fatal (close 1008): a pushed pack was signed for another room. */
export const WRONG_ROOM_ERROR = ERROR_CODES.wrongRoom;
/** Error frame code, fatal (close `PACK_CONFLICT_CLOSE`): a pushed pack's id is stored with other bytes. */
export const PACK_CONFLICT_ERROR = ERROR_CODES.packConflict;
/** Close code: the connection pushed or sent presence on view rights. Do not reconnect with the same link. */
export const VIEW_ONLY_CLOSE = CLOSE_CODES.viewOnly;
/** Close code: the room's admin replaced the capability this connection subscribed with. Do not reconnect. */
export const CAPABILITY_REVOKED_CLOSE = CLOSE_CODES.capabilityRevoked;
/** Error frame code, not fatal: no room of that name (on a server without open rooms). Answers a subscribe. */
export const NO_SUCH_ROOM_ERROR = ERROR_CODES.noSuchRoom;
/** Error frame code, not fatal: the capability opens nothing in the room (or is not its admin's, to rotate). */
export const NOT_ALLOWED_ERROR = ERROR_CODES.notAllowed;
/** Error frame code, not fatal: createRoom for a room that exists with another admin. */
export const ROOM_EXISTS_ERROR = ERROR_CODES.roomExists;
/**
 * Error frame code, not fatal: the room holds as many bytes as the server allows one room. The push was
 * not stored; its changes stay on this device, and this connection pushes no more to the room.
 */
export const ROOM_FULL_ERROR = ERROR_CODES.roomFull;
