/// How a connection ends: WebSocket close codes, documented for clients and operators.
public struct CloseCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The server is shutting down.
    public static let goingAway = CloseCode(rawValue: 1001)
    /// Frames out of order, such as anything before `hello`.
    public static let protocolError = CloseCode(rawValue: 1002)
    /// A frame or pack that does not decode.
    public static let invalidPayload = CloseCode(rawValue: 1007)
    /// Acting for another device, or over a rate limit.
    public static let policyViolation = CloseCode(rawValue: 1008)
    /// A frame over the size limit.
    public static let tooBig = CloseCode(rawValue: 1009)
    /// The server could not read what the connection asked for: its storage failed. The client reconnects
    /// after its backoff and asks again.
    public static let internalError = CloseCode(rawValue: 1011)
    /// The client's protocol version is one this server does not speak.
    public static let unsupportedVersion = CloseCode(rawValue: 4001)
    /// A pushed pack's id is already stored with other bytes: the log keeps what it has.
    public static let packConflict = CloseCode(rawValue: 4002)
    /// A push or presence on a view-only capability: the connection may only read.
    public static let viewOnly = CloseCode(rawValue: 4003)
    /// The capability the connection subscribed with was rotated by the room's admin: the link no longer works.
    public static let capabilityRevoked = CloseCode(rawValue: 4004)

    /// Every code above by name, for documentation and for the page's copy (`Web/js/wire/protocol.js`,
    /// generated from this list by `ProtocolFactsTests`).
    public static let documented: KeyValuePairs<String, CloseCode> = [
        "goingAway": goingAway, "protocolError": protocolError, "invalidPayload": invalidPayload,
        "policyViolation": policyViolation, "tooBig": tooBig, "internalError": internalError,
        "unsupportedVersion": unsupportedVersion,
        "packConflict": packConflict, "viewOnly": viewOnly, "capabilityRevoked": capabilityRevoked,
    ]
}

/// Stable codes of error frames, so clients can react without parsing the message.
public enum ErrorCode: UInt32, Sendable, CaseIterable {
    case malformedFrame = 1
    case unsupportedVersion = 2
    case helloRequired = 3
    case malformedPack = 4
    case notAMember = 5
    case impersonation = 6
    case tooBig = 7
    case storageFailed = 8
    case rateLimited = 9
    /// No hello within the deadline, or a text frame where the protocol has only binary ones.
    case timeout = 10
    /// A change stamped further ahead of the server's clock than ``SyncProtocol/maximumStampLeadMilliseconds``:
    /// the pack is not stored; the client keeps it and pushes it again later.
    case stampAhead = 11
    /// A pack whose signature does not verify, or is missing.
    case badSignature = 12
    /// A pack holding a change of a replica its signer does not own.
    case forgedAuthor = 13
    /// A pack signed for another room than the one it was pushed to.
    case wrongRoom = 14
    /// A pack whose id is already stored with other bytes.
    case packConflict = 15
    /// The server keeps no room of that name (and makes none on subscribe). Not fatal.
    case noSuchRoom = 16
    /// The capability matches none of the room's, or the admin capability of a rotation is wrong. Not fatal.
    case notAllowed = 17
    /// A push or presence on view-only rights. Fatal, close code 4003.
    case viewOnly = 18
    /// The capability this connection subscribed with was rotated. Fatal, close code 4004.
    case capabilityRevoked = 19
    /// A room of that id exists with another admin. Not fatal.
    case roomExists = 20
    /// The room holds as many bytes as the server allows one room: the push is not stored, and the
    /// client keeps it. Not fatal.
    case roomFull = 21
    /// More rooms on one connection than the server allows. Fatal.
    case tooManyRooms = 22
    /// The room's early history is kept only as a snapshot, which this client's protocol version cannot
    /// take: it subscribed from before it. Not fatal; the app needs an update.
    case historyCompacted = 23
    /// A snapshot part the server does not keep: it stands for no more than the room's newest snapshot,
    /// came too soon after it, or claims a position the room has not reached. Not fatal; nothing is stored.
    case snapshotRefused = 24
}
