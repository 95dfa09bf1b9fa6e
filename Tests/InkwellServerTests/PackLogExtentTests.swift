import Foundation
import GRDB
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@testable import InkwellServer

/// Where each pack ends in its room's bytes: what a subscriber's progress and a room's quota read,
/// in two lookups whatever the room's size.
@Suite struct PackLogExtentTests {
    typealias Folder = PackLogTests.Folder

    @Test(arguments: StoreKind.allCases) func progressIsTheBytesStoredAfterThePosition(_ kind: StoreKind) async throws {
        try await TestStore.with(kind) { (log: any PackStore) async throws in
            var random = SeededGenerator(seed: 11)
            let sizes = (0..<40).map { _ in Int.random(in: 1...3_000, using: &random) }
            for (index, size) in sizes.enumerated() {
                _ = try await log.append([PackLogTests.push("a", UInt64(index), size: size)])
                if index % 3 == 0 { _ = try await log.append([PackLogTests.push("b", UInt64(1_000 + index), size: 7)]) }
            }
            for after in [0, 1, 2, 17, 39, 40] {
                let progress = try await log.progress(room: "a", after: UInt64(after))
                #expect(progress.head == 40)
                #expect(progress.bytesAfter == UInt64(sizes[after...].reduce(0, +)), "after \(after)")
            }
            // A follower ahead of the log (a server restored from a backup) has nothing left to download.
            #expect(try await log.progress(room: "a", after: 99) == (40, 0))
            #expect(try await log.progress(room: "none", after: 0) == (0, 0))
            #expect(try await log.bytes(room: "a") == UInt64(sizes.reduce(0, +)))
            #expect(try await log.bytes(room: "b") == 14 * 7)
        }
    }

    @Test(arguments: StoreKind.allCases) func aRoomTakesNoPushPastItsQuotaAndOtherRoomsGoOn(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind, maximumRoomBytes: 100) { (log: any PackStore) async throws in
            let (first, second, third) = (
                PackLogTests.push("a", 1, size: 40), PackLogTests.push("a", 2, size: 40),
                PackLogTests.push("a", 3, size: 40)
            )
            #expect(
                try await log.append([first, second, third, PackLogTests.push("b", 4, size: 40)]) == [
                    .stored(1), .stored(2), .roomFull, .stored(1),
                ]
            )
            #expect(try await log.bytes(room: "a") == 80)
            // A pack already stored is still acknowledged at its position; one that fits exactly is stored.
            #expect(try await log.append([first, PackLogTests.push("a", 5, size: 20)]) == [.stored(1), .stored(3)])
            #expect(try await log.append([PackLogTests.push("a", 6, size: 1)]) == [.roomFull])
            #expect(try await log.packs(room: "a", after: 0).map(\.serverSeq) == [1, 2, 3])
            #expect(try await log.progress(room: "a", after: 0) == (3, 100))
        }
    }

    /// A room refused a push from one connection for being full: a smaller push behind it on the same
    /// connection (its author's next change) is refused too, or every device would hold that change past a
    /// gap in its author's timeline; another connection's push that fits is stored.
    @Test(arguments: StoreKind.allCases) func aRoomRefusesTheRestOfAConnectionsPushesAfterRefusingOneAsFull(
        _ kind: StoreKind
    ) async throws {
        try await TestStore.with(kind, maximumRoomBytes: 100) { (log: any PackStore) async throws in
            func push(_ id: UInt64, size: Int, origin: UInt64) -> PackLog.Push {
                var push = PackLogTests.push("a", id, size: size)
                push.origin = origin
                return push
            }
            let outcomes = try await log.append([
                push(1, size: 70, origin: 7), push(2, size: 40, origin: 7), push(3, size: 10, origin: 7),
                push(4, size: 10, origin: 8), push(5, size: 10, origin: 7),
            ])
            #expect(outcomes == [.stored(1), .roomFull, .roomFull, .stored(2), .roomFull])
            // A new commit judges the connection afresh (its session refuses on its own, see ServerSessionTests).
            #expect(try await log.append([push(3, size: 10, origin: 7)]) == [.stored(3)])
        }
    }

    @Test func openingALogOfAnEarlierVersionFillsTheExtentsOfItsPacks() async throws {
        let folder = try Folder()
        do {
            let pool = try DatabasePool(path: folder.file)
            try PackLog.migrator.migrate(pool, upTo: "v4")
            try await pool.write { db in
                for (room, position, size) in [("a", 1, 10), ("a", 2, 25), ("b", 1, 3), ("a", 3, 5)] {
                    try db.execute(
                        sql: "INSERT INTO pack (room, position, pack_id, bytes) VALUES (?, ?, ?, ?)",
                        arguments: [
                            room, position, Data(repeating: UInt8(position), count: 32),
                            Data(count: size),
                        ]
                    )
                }
            }
        }
        let log = try PackLog(path: folder.file)
        #expect(try await log.progress(room: "a", after: 0) == (3, 40))
        #expect(try await log.progress(room: "a", after: 1) == (3, 30))
        #expect(try await log.progress(room: "a", after: 2) == (3, 5))
        #expect(try await log.progress(room: "b", after: 0) == (1, 3))
        #expect(try await log.append([PackLogTests.push("a", 9, size: 4)]) == [.stored(4)])
        #expect(try await log.progress(room: "a", after: 3) == (4, 4))
    }
}
