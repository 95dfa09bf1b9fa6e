import ArgumentParser
import Foundation
import InkwellStore
import InkwellSync

extension Inkwell {
    /// The child process of the store's crash test: it writes until killed, then checks what survived.
    ///
    /// Hidden: it exists for `StoreDurabilityTests`, not for users.
    struct StoreWriter: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store-writer",
            abstract: "Append changes to a store until killed (durability testing).",
            discussion: """
                Appends one change per transaction with a random payload size, queues some for upload and \
                acknowledges some, and prints each committed change's id (`<replica hex>:<seq>`) on its own \
                line right after the commit. With --verify, checks the store instead and prints every stored \
                change's id.
                """,
            shouldDisplay: false
        )

        @Option(help: "The store file.")
        var path: String

        @Option(help: "Seed for payload sizes and outbox choices.")
        var seed: UInt64 = 1

        @Option(help: "Stop after this many changes (default: never).")
        var count: Int?

        @Flag(help: "Check the store's invariants (SQLite's integrity check included) and list its change ids.")
        var verify = false

        @Flag(help: "Write through the crash VFS, so that a SIGKILL leaves the store as a power cut would.")
        var crashVFS = false

        func run() throws {
            if crashVFS { try CrashVFS.arm(URL(fileURLWithPath: path).deletingLastPathComponent().path) }
            let store = try Store(path: path)
            if verify {
                try Self.verify(store)
            } else {
                try write(to: store)
            }
        }

        private func write(to store: Store) throws {
            var random = SplitMix64(seed: seed)
            var clock = HybridLogicalClock(latest: try store.latestStamp)
            var seq = try store.lastSeq(of: store.replica)
            var written = 0
            while count.map({ written < $0 }) ?? true {
                seq += 1
                let wall = UInt64(Date().timeIntervalSince1970 * 1000)
                let size = Int.random(in: 0...16_384, using: &random)
                let change = StoredChange(
                    id: ChangeID(replica: store.replica, seq: seq),
                    stamp: clock.next(wallMilliseconds: wall),
                    room: "durability",
                    document: "board-\(seq % 3)",
                    schemaVersion: 1,
                    payload: Self.payload(seq: seq, size: size),
                    entities: ["stroke-\(seq)"]
                )
                try store.append([change], enqueue: Bool.random(using: &random))
                // Unbuffered: the line is out as soon as the commit is, so a kill cannot hide it.
                FileHandle.standardOutput.write(Data("\(store.replica):\(seq)\n".utf8))
                if Int.random(in: 0..<8, using: &random) == 0 {
                    try store.acknowledge(try store.outbox(limit: 3).map(\.id))
                }
                written += 1
            }
        }

        /// A payload that --verify can recognise: byte i is `i + seq`, modulo 256.
        private static func payload(seq: UInt64, size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: UInt64($0) &+ seq) }
        }

        private static func verify(_ store: Store) throws {
            try store.checkInvariants()
            let settings = try store.writerSettings()
            guard settings.journalMode == "wal", settings.synchronous == 2 else {
                throw ValidationError("store is not durable: \(settings)")
            }
            print("integrity ok")
            for board in 0..<3 {
                for change in try store.changes(room: "durability", document: "board-\(board)") {
                    guard change.payload == payload(seq: change.id.seq, size: change.payload.count) else {
                        throw ValidationError("payload of \(change.id) differs from what was written")
                    }
                    print("\(change.id.replica):\(change.id.seq)")
                }
            }
        }
    }
}
