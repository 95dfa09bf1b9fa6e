import Foundation
import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellWire

/// The shared folder's file format: what a reader takes from a file cut, damaged, preallocated, of
/// another format or of a newer version.
@Suite struct FolderLogTests {
    static let replica = ReplicaID(high: 0xA1A2_A3A4_A5A6_A7A8, low: 0xB1B2_B3B4_B5B6_B7B8)

    /// A file of a header and `count` packs of assorted sizes (a pack record's bytes are opaque here).
    static func file(packs count: Int, generator: inout SeededGenerator) -> (bytes: [UInt8], packs: [[UInt8]]) {
        let packs = (0..<count).map { index in
            (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                + [UInt8(index)]
        }
        return (
            FolderLog.fileStart(room: "room-1", replica: replica) + packs.flatMap { FolderLog.encode(.pack($0)) }, packs
        )
    }

    static func packs(_ chunk: FolderLogReader.Chunk) -> [[UInt8]] {
        chunk.entries.compactMap { if case .pack(let bytes) = $0.record { bytes } else { nil } }
    }

    @Test func aWholeFileReadsAsItsHeaderAndItsPacksInOrder() {
        var generator = SeededGenerator(seed: 1)
        let (bytes, packs) = Self.file(packs: 5, generator: &generator)
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        #expect(chunk.stop == .end)
        #expect(chunk.next == bytes.count)
        #expect(chunk.entries.first?.record == .header(room: "room-1", replica: Self.replica))
        #expect(chunk.entries.first?.offset == FolderLog.fileHeaderBytes)
        #expect(Self.packs(chunk) == packs)
    }

    /// Every cut of a file, as a copy in progress or a torn append leaves it, reads as the whole records
    /// before the cut, and says it stopped in one (unless the cut falls between two): never damage, never
    /// a record that is not whole.
    @Test func everyCutReadsAsTheWholeRecordsBeforeIt() {
        let seed = SeededGenerator.seedFromEnvironment()
        print("folder cuts: INKWELL_SEED=\(seed)")
        var generator = SeededGenerator(seed: seed)
        let (bytes, packs) = Self.file(packs: 6, generator: &generator)
        let whole = FolderLogReader.read(bytes[...], at: 0)
        // Where each record ends: where the next starts, and the last at the end of the file.
        let ends = whole.entries.dropFirst().map(\.offset) + [bytes.count]
        var wrong: [Int] = []
        for cut in 0..<bytes.count {
            let chunk = FolderLogReader.read(bytes[..<cut], at: 0)
            let whole = ends.filter { $0 <= cut }
            let expectedPacks = Array(packs.prefix(max(whole.count - 1, 0)))
            let stop: FolderLogReader.Stop = whole.last == cut ? .end : .incomplete
            if chunk.stop != stop || Self.packs(chunk) != expectedPacks || chunk.next != (whole.last ?? 0) {
                wrong.append(cut)
            }
        }
        #expect(wrong.isEmpty, "cuts read wrongly at \(wrong.prefix(10)), seed \(seed)")
    }

    /// Reading on from where the last read stopped, as a poll of a growing file does, finds the same records
    /// as reading the whole file at once.
    @Test func readingAGrowingFileOnFromWhereItStoppedFindsEveryRecordOnce() {
        let seed = SeededGenerator.seedFromEnvironment()
        print("folder growth: INKWELL_SEED=\(seed)")
        var generator = SeededGenerator(seed: seed)
        let (bytes, packs) = Self.file(packs: 20, generator: &generator)
        var read: [[UInt8]] = []
        var next = 0
        var size = 0
        while size < bytes.count {
            size = min(bytes.count, size + Int.random(in: 1...200, using: &generator))
            let chunk = FolderLogReader.read(bytes[next..<size], at: next)
            read += Self.packs(chunk)
            next = chunk.next
        }
        #expect(read == packs, "seed \(seed)")
        #expect(next == bytes.count)
    }

    @Test func aDamagedRecordStopsTheFileThereAndTheRecordsBeforeItCount() {
        var generator = SeededGenerator(seed: 2)
        let (bytes, packs) = Self.file(packs: 4, generator: &generator)
        let third = FolderLogReader.read(bytes[...], at: 0).entries[3]
        var damaged = bytes
        damaged[third.offset + FolderLog.recordHeaderBytes + 1] ^= 0x01
        let chunk = FolderLogReader.read(damaged[...], at: 0)
        #expect(chunk.stop == .damaged("a record whose checksum does not hold"))
        #expect(Self.packs(chunk) == Array(packs.prefix(2)))
        #expect(chunk.next == third.offset)
    }

    /// Some copies preallocate a file and fill it in: zeros where a record will be are a gap to wait for.
    @Test func zerosWhereARecordWillBeAreAGapNotDamage() {
        var generator = SeededGenerator(seed: 3)
        let (bytes, packs) = Self.file(packs: 2, generator: &generator)
        let chunk = FolderLogReader.read((bytes + [UInt8](repeating: 0, count: 64))[...], at: 0)
        #expect(chunk.stop == .incomplete)
        #expect(Self.packs(chunk) == packs)
        #expect(chunk.next == bytes.count)
    }

    @Test func aLengthOverTheLimitIsDamageAndNothingIsAllocatedForIt() {
        var bytes = FolderLog.fileStart(room: "room-1", replica: Self.replica)
        bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        #expect(chunk.stop == .damaged("a record of 4294967295 bytes, over the limit"))
        #expect(chunk.entries.count == 1)
    }

    @Test func otherFilesAndNewerVersionsAreNotRead() {
        #expect(
            FolderLogReader.read(Array("hello, world, this is text".utf8)[...], at: 0).stop
                == .damaged("not an Inkwell folder file")
        )
        #expect(FolderLogReader.read(Array(FolderLog.signature.prefix(5))[...], at: 0).stop == .incomplete)
        var newer = FolderLog.fileStart(room: "room-1", replica: Self.replica)
        newer[FolderLog.signature.count] = 2
        let chunk = FolderLogReader.read(newer[...], at: 0)
        #expect(chunk.stop == .newerVersion(2))
        #expect(chunk.entries.isEmpty && chunk.next == 0)
    }

    @Test func theFirstRecordIsTheHeaderAndTheOnlyOne() {
        let start = FolderLog.fileStart(room: "room-1", replica: Self.replica)
        let noHeader = Array(start.prefix(FolderLog.fileHeaderBytes)) + FolderLog.encode(.pack([1, 2, 3]))
        #expect(
            FolderLogReader.read(noHeader[...], at: 0).stop == .damaged("a file whose first record is not its header")
        )
        let twice = start + FolderLog.encode(.header(room: "room-2", replica: Self.replica))
        let chunk = FolderLogReader.read(twice[...], at: 0)
        #expect(chunk.stop == .damaged("a second header record"))
        #expect(chunk.next == start.count)
    }

    @Test func aRecordOfAKindNotKnownYetIsKeptAndSkippedByReaders() {
        let start = FolderLog.fileStart(room: "room-1", replica: Self.replica)
        let bytes = start + FolderLog.encode(.unknown(kind: 200, bytes: [7, 7])) + FolderLog.encode(.pack([9]))
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        #expect(chunk.stop == .end)
        #expect(
            chunk.entries.map(\.record) == [
                .header(room: "room-1", replica: Self.replica), .unknown(kind: 200, bytes: [7, 7]), .pack([9]),
            ]
        )
    }

    /// The checksum is the common CRC-32, so other tools can check a file: the standard check value.
    @Test func theChecksumIsCRC32() {
        #expect(FolderLog.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
