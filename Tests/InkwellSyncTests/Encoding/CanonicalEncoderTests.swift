import InkwellSync
import Testing

@Suite struct CanonicalEncoderTests {
    @Test func varintsAreLEB128AndSignedOnesZigZag() {
        var encoder = CanonicalEncoder()
        encoder.writeVarint(300)
        encoder.writeSignedVarint(-1)
        encoder.writeSignedVarint(1)
        encoder.writeVarint(.max)
        #expect(encoder.bytes == [0xAC, 0x02, 0x01, 0x02] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
    }

    @Test func dictionariesEncodeTheSameWhateverTheirInsertionOrder() {
        var generator = SplitMix64(seed: 5)
        let pairs = (0..<500).map { ("key\($0)", Int.random(in: -1_000...1_000, using: &generator)) }
        let forward = Dictionary(uniqueKeysWithValues: pairs)
        var backward: [String: Int] = [:]
        backward.reserveCapacity(2_000)
        for (key, value) in pairs.shuffled(using: &generator) { backward[key] = value }
        #expect(forward.canonicalBytes == backward.canonicalBytes)
        #expect(Set(pairs.map(\.0)).canonicalBytes == Set(pairs.map(\.0).reversed()).canonicalBytes)
    }

    @Test func doublesAreNormalised() {
        #expect((-0.0 as Double).canonicalBytes == (0.0 as Double).canonicalBytes)
        #expect(Double.nan.canonicalBytes == (-Double.nan).canonicalBytes)
        #expect(Double.signalingNaN.canonicalBytes == Double.nan.canonicalBytes)
        #expect((1.5 as Double).canonicalBytes != (1.25 as Double).canonicalBytes)
    }

    @Test func differentStatesEncodeDifferently() {
        var left = ORSet<Int>()
        left.insert(1, tag: Pool.opStamp(1))
        var right = left
        right.remove(1)
        #expect(left.canonicalBytes != right.canonicalBytes)
        #expect([1, 2].canonicalBytes != [2, 1].canonicalBytes, "arrays keep their order")
        #expect(Optional<Int>.none.canonicalBytes != Optional(0).canonicalBytes)
    }
}
