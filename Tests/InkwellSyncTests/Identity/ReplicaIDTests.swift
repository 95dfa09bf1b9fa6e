import InkwellSync
import Testing

@Suite struct ReplicaIDTests {
    @Test func bytesAndHexRoundTrip() throws {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<100 {
            let id = ReplicaID(using: &generator)
            #expect(ReplicaID(bytes: id.bytes) == id)
            #expect(ReplicaID(hex: id.description) == id)
            #expect(id.description.count == 32)
        }
    }

    @Test func byteOrderAndComparisonAgree() {
        var generator = SplitMix64(seed: 4)
        let ids = (0..<200).map { _ in ReplicaID(using: &generator) }
        #expect(ids.sorted().map(\.bytes) == ids.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func malformedInputIsRejected() {
        #expect(ReplicaID(bytes: [UInt8](repeating: 1, count: 15)) == nil)
        #expect(ReplicaID(bytes: [UInt8](repeating: 1, count: 17)) == nil)
        #expect(ReplicaID(hex: "xyz") == nil)
        #expect(ReplicaID(hex: String(repeating: "g", count: 32)) == nil)
    }

    @Test func randomIdsDiffer() {
        #expect(ReplicaID.random() != ReplicaID.random())
    }

    @Test func changeIDsStartAtOneAndPrintTheirTimeline() {
        let id = ChangeID(replica: ReplicaID(high: 0xABCD_EF01_2345_6789, low: 0), seq: 6)
        #expect(id.description == "abcdef01:6")
    }
}
