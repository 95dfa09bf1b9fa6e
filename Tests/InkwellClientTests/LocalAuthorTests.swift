import Foundation
import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@Suite struct LocalAuthorTests {
    /// Store tests run on both kinds of database (STYLE 15).
    enum Kind: CaseIterable { case inMemory, onDisk }

    static func withStore(_ kind: Kind, _ body: (Store, String?) throws -> Void) throws {
        switch kind {
        case .inMemory:
            try body(try Store.inMemory(), nil)
        case .onDisk:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-author-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("store.sqlite").path
            try body(try Store(path: path), path)
        }
    }

    /// Every replica refuses a change of more operations than the wire allows: making one would leave it on
    /// this device alone, so the author refuses it first, and uses up nothing.
    @Test func anEditNoPeerCouldReadIsRefusedAndNothingIsStored() throws {
        var random = SeededGenerator(seed: seed("anEditNoPeerCouldReadIsRefusedAndNothingIsStored"))
        let store = try Store.inMemory()
        var author = try LocalAuthor(store: store, wallClock: SteppingClock())
        let dots = (0...WireLimits.maximumOperationsPerChange).map { index in
            BoardOperation.addStroke(
                StrokeStyle(colour: .black, width: 2),
                points: [Point(Double(index), 0)],
                pressures: nil
            )
        }
        #expect(throws: WireError.tooLarge("operations")) {
            try author.record(BoardEdit(board: "main", operations: dots), room: "room")
        }
        #expect(try store.outboxSize().changes == 0)
        let next = try author.record(randomStroke(using: &random), room: "room")
        #expect(next.id.seq == 1, "no seq was used up")
        _ = try author.record(BoardEdit(board: "main", operations: Array(dots.dropLast())), room: "room")
    }

    @Test(arguments: Kind.allCases)
    func recordingStoresAndQueuesUnderTheRoomsReplica(kind: Kind) throws {
        var random = SeededGenerator(seed: seed("recordingStoresAndQueuesUnderTheRoomsReplica"))
        try Self.withStore(kind) { store, _ in
            var author = try LocalAuthor(store: store, wallClock: SteppingClock())
            var recorded: [BoardChange] = []
            for index in 0..<20 {
                let room = index % 2 == 0 ? "alpha" : "beta"
                recorded.append(try author.record(randomStroke(using: &random), room: room))
            }
            let alpha = try store.replica(for: "alpha")
            let beta = try store.replica(for: "beta")
            #expect(alpha != beta && alpha != store.replica)
            #expect(recorded.filter { $0.id.replica == alpha }.map(\.id.seq) == Array(1...10))
            #expect(recorded.filter { $0.id.replica == beta }.map(\.id.seq) == Array(1...10))
            #expect(zip(recorded, recorded.dropFirst()).allSatisfy { $0.stamp < $1.stamp })
            let queued = try store.outbox()
            #expect(queued.map(\.id) == recorded.map(\.id))
            #expect(try queued.map { try $0.decoded(as: BoardEdit.self) } == recorded)
            #expect(queued.map(\.room) == (0..<20).map { $0 % 2 == 0 ? "alpha" : "beta" })
            try store.checkInvariants()
        }
    }

    @Test(arguments: Kind.allCases)
    func aNewAuthorResumesSeqAndClockFromTheStore(kind: Kind) throws {
        var random = SeededGenerator(seed: seed("aNewAuthorResumesSeqAndClockFromTheStore"))
        try Self.withStore(kind) { store, path in
            var first = try LocalAuthor(store: store, wallClock: SteppingClock())
            let before = try (0..<5).map { _ in try first.record(randomStroke(using: &random), room: "room") }
            // A wall clock far behind: the clock must still move past what is stored.
            let reopened = try path.map { try Store(path: $0) } ?? store
            var second = try LocalAuthor(store: reopened, wallClock: SteppingClock(start: 1_000))
            let after = try second.record(randomStroke(using: &random), room: "room")
            #expect(after.id == ChangeID(replica: before[0].id.replica, seq: 6))
            #expect(after.stamp > before.last!.stamp)
        }
    }

    /// Acknowledged and folded into a snapshot, a timeline's rows are gone; its next change still
    /// takes the next seq and a later stamp.
    @Test(arguments: Kind.allCases)
    func aNewAuthorContinuesATimelineWhoseRowsWentWithCompaction(kind: Kind) throws {
        var random = SeededGenerator(seed: seed("aNewAuthorContinuesATimelineWhoseRowsWentWithCompaction"))
        try Self.withStore(kind) { store, path in
            var first = try LocalAuthor(store: store, wallClock: SteppingClock())
            let before = try (0..<40).map { _ in try first.record(randomStroke(using: &random), room: "room") }
            try store.acknowledge(before.map(\.id))
            #expect(try store.snapshotIfNeeded(room: "room", document: "main", policy: .init(tailThreshold: 1)))
            #expect(try store.change(before[39].id)?.payload == ChangeCodec.encode(before[39]))
            let reopened = try path.map { try Store(path: $0) } ?? store
            var second = try LocalAuthor(store: reopened, wallClock: SteppingClock(start: 1_000))
            let after = try second.record(randomStroke(using: &random), room: "room")
            #expect(after.id == ChangeID(replica: before[0].id.replica, seq: 41))
            #expect(after.stamp > before.last!.stamp)
            #expect(try reopened.changes(room: "room", document: "main").map(\.id.seq) == Array(1...41))
            try reopened.checkInvariants()
        }
    }

    @Test func witnessedStampsComeBeforeTheNextLocalChange() throws {
        var random = SeededGenerator(seed: seed("witnessedStampsComeBeforeTheNextLocalChange"))
        let store = try Store.inMemory()
        var author = try LocalAuthor(store: store, wallClock: SteppingClock())
        // Four minutes ahead: within the lead, so adopted, and reported as skew.
        let remote = Stamp(wallMilliseconds: 1_800_000_000_000 + 4 * 60_000, counter: 7)
        let skew = author.witness(remote)
        #expect(skew?.adopted == true, "a stamp minutes ahead is reported as skew")
        let change = try author.record(randomStroke(using: &random), room: "room")
        #expect(change.stamp > remote)
        // A day ahead: past the lead; reported, not adopted (its change waits aside).
        let far = Stamp(wallMilliseconds: 1_900_000_000_000, counter: 7)
        #expect(author.witness(far)?.adopted == false)
        #expect(try author.record(randomStroke(using: &random), room: "room").stamp < far)
    }

    @Test func aRefusedEditStoresNothing() throws {
        let store = try Store.inMemory()
        var author = try LocalAuthor(store: store, wallClock: SteppingClock())
        #expect(throws: WireError.invalidField("change.document"), "no peer reads a change of no board") {
            try author.record(BoardEdit(board: "", operations: [.clear]), room: "room")
        }
        #expect(try store.outboxSize().changes == 0)
        let change = try author.record(BoardEdit(board: "main", operations: [.clear]), room: "room")
        #expect(change.id.seq == 1)
    }
}
