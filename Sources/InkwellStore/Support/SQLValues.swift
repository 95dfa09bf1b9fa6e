import Foundation
import InkwellSync

/// How ids, stamps and counters map onto SQLite's signed 64-bit integers and blobs.
///
/// Stamps use the whole unsigned range, so they are stored with the top bit flipped: signed order of the
/// stored value is then unsigned order of the stamp, and indexes and `max()` stay correct.
enum SQLValues {
    static func stamp(_ stamp: Stamp) -> Int64 {
        Int64(bitPattern: stamp.rawValue ^ 0x8000_0000_0000_0000)
    }

    static func stamp(stored: Int64) -> Stamp {
        Stamp(rawValue: UInt64(bitPattern: stored) ^ 0x8000_0000_0000_0000)
    }

    static func replica(_ replica: ReplicaID) -> Data {
        Data(replica.bytes)
    }

    static func replica(stored: Data?) -> ReplicaID? {
        stored.flatMap { ReplicaID(bytes: $0) }
    }

    /// A sequence number or server position; `nil` when it does not fit.
    static func integer(_ value: UInt64) -> Int64? {
        Int64(exactly: value)
    }

    static func unsigned(stored: Int64) -> UInt64? {
        UInt64(exactly: stored)
    }
}
