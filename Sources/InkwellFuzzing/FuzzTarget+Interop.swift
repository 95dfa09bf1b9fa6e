import InkwellBoard
import InkwellSync
import InkwellWire

/// The JSON stroke protocol: what an app sends becomes board changes, which must encode, decode and
/// apply like any other, and become messages again for the other apps.
extension FuzzTarget {
    static func checkInterop(_ bytes: [UInt8]) -> FuzzVerdict {
        var session = InteropSession(replica: ReplicaID(high: 1, low: 1), board: "main")
        var board = BoardState(board: "main")
        var decoded = 0
        var roundTrips = 0
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            guard let message = try? InteropMessage(json: line) else { continue }
            decoded += 1
            for change in session.receive(message, wallMilliseconds: 1_000 + UInt64(index)) {
                if let failure = roundTripFailure(change) {
                    return .failed("a change made from interop line \(index) of \(FuzzVerdict.hex(bytes)): \(failure)")
                }
                roundTrips += 1
                _ = board.apply(change)
                _ = session.messages(for: change, in: board)
            }
        }
        return decoded == 0 ? .rejected : .decoded(roundTrips: roundTrips)
    }
}
