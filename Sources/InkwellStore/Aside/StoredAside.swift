public import Foundation

/// Bytes from a newer schema than this code decodes, kept to be decoded after an upgrade (DESIGN §6).
public struct StoredAside: Hashable, Sendable, Identifiable {
    /// Assigned by the store, increasing in arrival order.
    public let id: Int64
    /// The room the bytes came from.
    public let room: String
    public let schemaVersion: UInt32
    public let bytes: [UInt8]
    public let receivedAt: Date
}
