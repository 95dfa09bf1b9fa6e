/// Why bytes could not be decoded. Safe to log: it names what was wrong, never the content.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case malformed(String)
        case tooLarge(String)
        case missingField(String)
        case invalidField(String)
        case unsupportedCompression
        case encrypted
        case unsupportedEncryption
        case wrongKey
        case tampered
        case unsealed
        case futureSchema(UInt32)
        case badSignature
        case forgedAuthor
        case wrongRoom
        case otherType(String)
        case snapshotPart
        case notSnapshot
        case invalidSnapshot(String)
    }

    let code: Code

    /// Not a valid encoding of the expected message (truncated, garbage, wrong wire types).
    public static func malformed(_ what: String) -> WireError { WireError(code: .malformed(what)) }
    /// Over a documented limit; nothing larger than the limit was allocated.
    public static func tooLarge(_ what: String) -> WireError { WireError(code: .tooLarge(what)) }
    public static func missingField(_ name: String) -> WireError { WireError(code: .missingField(name)) }
    public static func invalidField(_ name: String) -> WireError { WireError(code: .invalidField(name)) }
    public static let unsupportedCompression = WireError(code: .unsupportedCompression)
    /// The pack is encrypted, and this reader holds no key for it.
    public static let encrypted = WireError(code: .encrypted)
    /// Sealed by a scheme this code does not know: only AES-256-GCM (`aes-256-gcm`) is read.
    public static let unsupportedEncryption = WireError(code: .unsupportedEncryption)
    /// Sealed with a room key other than the reader's: the key ids differ, so nothing was tried.
    public static let wrongKey = WireError(code: .wrongKey)
    /// Sealed bytes that do not authenticate with the reader's key: altered, cut short, moved into another
    /// room's or author's envelope, or sealed with another key under a forged key id.
    public static let tampered = WireError(code: .tampered)
    /// Plain bytes where the room is encrypted: only someone without the key (the relay, say) would
    /// send them, so they are refused rather than shown beside the room's sealed content.
    public static let unsealed = WireError(code: .unsealed)
    /// Written by a newer schema than this code knows: keep the bytes aside and decode after an upgrade.
    public static func futureSchema(_ version: UInt32) -> WireError { WireError(code: .futureSchema(version)) }

    /// A pack whose signature does not verify against the key it names.
    public static let badSignature = WireError(code: .badSignature)
    /// A pack holding a change of a replica other than its signer's.
    public static let forgedAuthor = WireError(code: .forgedAuthor)
    /// A pack signed for another room than the one it arrived for.
    public static let wrongRoom = WireError(code: .wrongRoom)
    /// A part of a room snapshot where a pack of changes was expected.
    public static let snapshotPart = WireError(code: .snapshotPart)
    /// A pack of changes where a part of a room snapshot was expected.
    public static let notSnapshot = WireError(code: .notSnapshot)
    /// A room snapshot whose parts do not hold what their cover claims.
    public static func invalidSnapshot(_ why: String) -> WireError { WireError(code: .invalidSnapshot(why)) }

    /// A change of another document type than the one asked for: the caller reads it as its own
    /// type, or keeps it as it is.
    public static func otherType(_ type: String) -> WireError { WireError(code: .otherType(type)) }

    /// Whether the change is of another document type than the one asked for.
    public var isOtherType: Bool {
        if case .otherType = code { true } else { false }
    }

    /// The schema version, when the bytes come from a newer schema.
    public var futureSchemaVersion: UInt32? {
        if case .futureSchema(let version) = code { version } else { nil }
    }

    public var description: String {
        switch code {
        case .malformed(let what): "malformed \(what)"
        case .tooLarge(let what): "\(what) exceeds its size limit"
        case .missingField(let name): "required field \(name) is missing"
        case .invalidField(let name): "field \(name) is out of range"
        case .unsupportedCompression: "unsupported compression"
        case .encrypted: "the pack is encrypted and no key is available"
        case .unsupportedEncryption: "unsupported encryption scheme"
        case .wrongKey: "sealed with another room key"
        case .tampered: "the sealed bytes do not authenticate with the room key"
        case .unsealed: "not sealed, though the room is encrypted"
        case .futureSchema(let version): "written by schema \(version), newer than this version reads"
        case .badSignature: "the pack's signature does not verify"
        case .forgedAuthor: "the pack holds a change of a replica its signer does not own"
        case .wrongRoom: "the pack was signed for another room"
        case .otherType(let type): "the change is of another document type (\(type.prefix(64)))"
        case .snapshotPart: "the pack is a part of a room snapshot"
        case .notSnapshot: "the pack is not a part of a room snapshot"
        case .invalidSnapshot(let why): "the snapshot is not what it claims: \(why)"
        }
    }
}

/// The schema version this code writes and fully understands.
public enum WireSchema {
    public static let current: UInt32 = 1
}
