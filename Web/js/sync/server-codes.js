// The server's codes this client reacts to (Sources/InkwellServer/Session/CloseCode.swift); other codes
// are handled by reconnecting.

/** Close code: the server does not speak this client's protocol version. Do not reconnect. */
export const UNSUPPORTED_VERSION_CLOSE = 4001;
/** Error frame code of the same refusal, sent just before that close. */
export const UNSUPPORTED_VERSION_ERROR = 2;
/** Error frame code: a push was not stored; push it again later. */
export const STORAGE_FAILED_ERROR = 8;
