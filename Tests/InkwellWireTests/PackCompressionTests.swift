import CompressNIO
import InkwellSync
import NIOCore
import Testing

@testable import InkwellWire

/// Deflate as packs and snapshots use it (libdeflate): a body goes deflated only when that saves a fifth,
/// streams from another deflater read back, and the pooled compressors hold up under concurrent use.
@Suite struct PackCompressionTests {
    /// `count` seeded random bytes: nothing for deflate to find.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func aBodyGoesDeflatedOnlyWhenThatSavesAFifth() throws {
        let repetitive = [UInt8](repeating: 7, count: 4_000)
        let (small, deflated) = PackCodec.compress(repetitive, .deflate)
        #expect(deflated && small.count * 5 < repetitive.count)
        #expect(try PackCodec.inflate(small, size: repetitive.count) == repetitive)
        // Random bytes do not shrink; bytes 85 % random shrink by less than a fifth.
        for body in [Self.noise(4_000, seed: 1), Self.noise(3_400, seed: 2) + [UInt8](repeating: 0, count: 600)] {
            let deflatedBody = PackCodec.deflate(body, .deflate)
            #expect(deflatedBody.count * 5 > body.count * 4, "the case is one deflate barely shrinks")
            let (bytes, isDeflated) = PackCodec.compress(body, .deflate)
            #expect(!isDeflated && bytes == body)
        }
        // Half random and half zeros shrinks by more than a fifth, so it goes deflated.
        let half = Self.noise(2_000, seed: 3) + [UInt8](repeating: 0, count: 2_000)
        let (halfBytes, halfDeflated) = PackCodec.compress(half, .deflate)
        #expect(halfDeflated && halfBytes.count * 5 <= half.count * 4)
        #expect(PackCodec.compress([], .deflate) == ([], false))
        #expect(PackCodec.compress(repetitive, .none) == (repetitive, false))
    }

    @Test func zlibsStreamsReadBackAndAWrongSizeOrTrailingBytesAreRefused() throws {
        let plain = Self.noise(3_000, seed: 4) + [UInt8](repeating: 9, count: 5_000)
        var buffer = ByteBuffer(bytes: plain)
        let zlib = Array(try buffer.compress(with: .deflate()).readableBytesView)
        #expect(try PackCodec.inflate(zlib, size: plain.count) == plain)
        #expect(throws: WireError.invalidField("pack.body_size")) { try PackCodec.inflate(zlib, size: plain.count - 1) }
        #expect(throws: WireError.invalidField("pack.body_size")) { try PackCodec.inflate(zlib, size: plain.count + 1) }
        #expect(throws: WireError.invalidField("pack.body_size")) {
            try PackCodec.inflate(zlib + [0], size: plain.count)
        }
        #expect(throws: WireError.malformed("pack body compression")) {
            try PackCodec.inflate(Array(zlib.dropLast(zlib.count / 2)), size: plain.count)
        }
        #expect(throws: WireError.malformed("pack body compression")) { try PackCodec.inflate([], size: 0) }
    }

    @Test func pooledCompressorsGiveEveryConcurrentCallerItsOwnBytes() async throws {
        let bodies = (0..<32).map {
            Self.noise(500 + $0 * 97, seed: UInt64($0)) + [UInt8](repeating: UInt8($0), count: 3_000)
        }
        let expected = bodies.map { PackCodec.deflate($0, .deflate) }
        let results = try await withThrowingTaskGroup(of: (Int, Int32, [UInt8], [UInt8]).self) { group in
            for round in 0..<8 {
                for (index, body) in bodies.enumerated() {
                    group.addTask {
                        let level: Int32 = round % 2 == 0 ? 1 : 6
                        let deflated = PackCodec.deflate(body, .deflate(level: level))
                        return (index, level, deflated, try PackCodec.inflate(deflated, size: body.count))
                    }
                }
            }
            var all: [(Int, Int32, [UInt8], [UInt8])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8 * bodies.count)
        for (index, level, deflated, inflated) in results {
            #expect(inflated == bodies[index], "body \(index)")
            // A compressor taken from the pool, whatever it did before, writes what a fresh one writes.
            if level == 1 { #expect(deflated == expected[index], "body \(index)") }
        }
    }
}
