import InkwellBoard
import InkwellSync
import Testing

@Suite struct StrokeIDTests {
    /// The hex digits of one word, as `String(_:radix:)` writes them, padded to 16.
    static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Descriptions are written into one buffer; they must read as the interpolated text would.
    @Test func descriptionsAreTheReplicaSeqAndIndexAndParseBack() throws {
        var generator = SplitMix64(seed: 21)
        var ids: [StrokeID] = [
            StrokeID(change: ChangeID(replica: ReplicaID(high: 0, low: 0), seq: 1), index: 0),
            StrokeID(change: ChangeID(replica: ReplicaID(high: .max, low: .max), seq: .max), index: .max),
            StrokeID(change: ChangeID(replica: ReplicaID(high: 0xF, low: 1 << 63), seq: 10), index: 9),
        ]
        for _ in 0..<500 {
            let seq = generator.next() >> (generator.next() % 64)
            ids.append(
                StrokeID(
                    change: ChangeID(replica: ReplicaID(using: &generator), seq: max(1, seq)),
                    index: UInt32(truncatingIfNeeded: generator.next() >> (generator.next() % 64))
                )
            )
        }
        for id in ids {
            let replica = Self.hex(id.change.replica.high) + Self.hex(id.change.replica.low)
            #expect(id.change.replica.description == replica)
            #expect(id.description == "\(replica)-\(id.change.seq)-\(id.index)")
            #expect(StrokeID(id.description) == id)
        }
    }
}
