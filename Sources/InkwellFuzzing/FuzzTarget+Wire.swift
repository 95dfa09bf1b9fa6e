import InkwellBoard
import InkwellWire

/// The binary decoders: changes, packs, snapshots and sync frames.
extension FuzzTarget {
    static func checkChange(_ bytes: [UInt8]) -> FuzzVerdict {
        guard let change = try? ChangeCodec.decode(bytes, as: BoardEdit.self) else { return .rejected }
        if let failure = roundTripFailure(change) { return .failed("change \(FuzzVerdict.hex(bytes)): \(failure)") }
        return .decoded(roundTrips: 1)
    }

    static func checkPack(_ bytes: [UInt8]) -> FuzzVerdict {
        let changes: [[UInt8]]
        if let pack = try? PackCodec.decode(bytes) {
            changes = pack.changes
        } else if let part = try? PackCodec.decodeSnapshotPart(bytes) {
            changes = part.changes
        } else {
            return .rejected
        }
        // The header read without decoding the body names the same pack.
        guard (try? PackCodec.header(of: bytes)) != nil else {
            return .failed("pack \(FuzzVerdict.hex(bytes)) decodes but its header does not")
        }
        var roundTrips = 0
        for inner in changes {
            guard let change = try? ChangeCodec.decode(inner, as: BoardEdit.self) else { continue }
            if let failure = roundTripFailure(change) {
                return .failed("a change of pack \(FuzzVerdict.hex(bytes)): \(failure)")
            }
            roundTrips += 1
        }
        return .decoded(roundTrips: roundTrips)
    }

    static func checkSnapshot(_ bytes: [UInt8]) -> FuzzVerdict {
        guard let decoded = try? DocumentSnapshot(decoding: bytes) else { return .rejected }
        let encoded = decoded.encoded(compression: .none)
        guard let again = try? DocumentSnapshot(decoding: encoded) else {
            return .failed("snapshot \(FuzzVerdict.hex(bytes)) decodes, but not once encoded again")
        }
        let same =
            again.room == decoded.room && again.document == decoded.document && again.type == decoded.type
            && again.cut == decoded.cut && again.changes == decoded.changes
        guard same, again.encoded(compression: .none) == encoded else {
            return .failed("snapshot \(FuzzVerdict.hex(bytes)) reads otherwise once encoded again")
        }
        // Restoring a board from it may refuse it, never trap.
        _ = try? decoded.restore(as: BoardState.self)
        return .decoded(roundTrips: 1)
    }

    static func checkClientFrame(_ bytes: [UInt8]) -> FuzzVerdict {
        guard let message = try? SyncCodec.decodeClient(bytes) else { return .rejected }
        guard FuzzVerdict.roundTrips(message, encode: SyncCodec.encode, decode: { try? SyncCodec.decodeClient($0) })
        else {
            return .failed("client frame \(FuzzVerdict.hex(bytes)) reads otherwise once encoded again")
        }
        return .decoded(roundTrips: 1)
    }

    static func checkServerFrame(_ bytes: [UInt8]) -> FuzzVerdict {
        guard let message = try? SyncCodec.decodeServer(bytes) else { return .rejected }
        guard FuzzVerdict.roundTrips(message, encode: SyncCodec.encode, decode: { try? SyncCodec.decodeServer($0) })
        else {
            return .failed("server frame \(FuzzVerdict.hex(bytes)) reads otherwise once encoded again")
        }
        return .decoded(roundTrips: 1)
    }

    /// Why a decoded change does not survive being encoded and decoded again; nil when it does.
    static func roundTripFailure(_ change: BoardChange) -> String? {
        let survives = FuzzVerdict.roundTrips(
            change,
            encode: { ChangeCodec.encode($0) },
            decode: { try? ChangeCodec.decode($0, as: BoardEdit.self) }
        )
        return survives ? nil : "it reads otherwise once encoded again"
    }
}
