import Foundation
import InkwellClient
import InkwellModel
import InkwellStore
import InkwellSync
import InkwellTesting
import Testing

/// A model as an app declares it: plain fields, each merging as its CRDT does.
struct Day: Model, Equatable {
    @CounterMap var foods: [String: Int64]
    @Counter var glassesOfWater: Int64
    @Register var note: String?
    @Members var tags: Set<String>
}

/// A type with a plain property, which a model cannot store.
struct NotAModel: Model {
    var title = ""
}

@Suite struct ModelAPITests {
    static let room = "models"

    /// What each device writes is a difference, so edits made apart add up instead of overwriting.
    @Test func editsMadeApartMergeFieldByField() throws {
        let empty = try Day(ModelDocument(document: "2026-11-25"))
        #expect(empty == Day(), "a document never written reads as the empty model")
        var alice = empty
        alice.foods["rice"] = 2
        alice.glassesOfWater = 3
        alice.note = "Alice's note"
        alice.tags = ["home"]
        var bob = empty
        bob.foods["rice"] = 1
        bob.foods["tea"] = 1
        bob.glassesOfWater = 1
        bob.note = "Bob's note"
        bob.tags = ["work"]
        let a = ReplicaID(high: 1, low: 1)
        let b = ReplicaID(high: 2, low: 2)
        let changes = [
            Change(
                id: ChangeID(replica: a, seq: 1),
                stamp: Stamp(wallMilliseconds: 10),
                payload: ModelEdit(document: "2026-11-25", operations: try alice.operations(since: empty))
            ),
            Change(
                id: ChangeID(replica: b, seq: 1),
                stamp: Stamp(wallMilliseconds: 20),
                payload: ModelEdit(document: "2026-11-25", operations: try bob.operations(since: empty))
            ),
        ]
        var one = ModelDocument(document: "2026-11-25")
        _ = one.apply(contentsOf: changes)
        var other = ModelDocument(document: "2026-11-25")
        _ = other.apply(contentsOf: changes.reversed())
        #expect(one.fingerprint == other.fingerprint)
        let merged = try Day(one)
        #expect(merged.foods == ["rice": 3, "tea": 1], "counters add")
        #expect(merged.glassesOfWater == 4)
        #expect(merged.note == "Bob's note", "the later write holds")
        #expect(merged.tags == ["home", "work"], "members added apart are both in")
    }

    @Test func anUnchangedModelWritesNothingAndRemovalsAreWrites() throws {
        var day = Day()
        day.note = "x"
        day.tags = ["a", "b"]
        day.foods = ["rice": 1]
        #expect(try day.operations(since: day).isEmpty)
        var later = day
        later.note = nil
        later.tags = ["b"]
        later.foods = [:]
        let operations = try later.operations(since: day)
        #expect(operations.contains(.remove(field: "note")))
        #expect(operations.contains(.remove(field: "tags/\"a\"")))
        #expect(operations.contains(.increment(field: "foods/rice", by: -1)))
        #expect(operations.count == 3)
    }

    @Test func whatAModelCannotStoreIsRefusedNotDropped() throws {
        #expect(throws: ModelError.unsupportedProperty("title")) {
            try NotAModel(title: "b").operations(since: NotAModel())
        }
        var day = Day()
        day.note = String(repeating: "x", count: ModelOperation.maximumValueBytes + 1)
        #expect(throws: ModelError.tooLarge("note")) { try day.operations(since: Day()) }
        var tagged = Day()
        tagged.tags = [String(repeating: "t", count: ModelOperation.maximumFieldBytes)]
        #expect(throws: ModelError.self) { try tagged.operations(since: Day()) }
    }

    /// Counters stay exact at the ends of `Int64`: a difference that does not fit is written in steps.
    @Test func counterDifferencesBeyondInt64AreWrittenInSteps() throws {
        var low = Day()
        low.glassesOfWater = .min
        var high = Day()
        high.glassesOfWater = .max
        let operations = try high.operations(since: low)
        #expect(operations.count == 3, "2⁶⁴ − 1 is two increments of Int64.max and one of 1")
        var document = ModelDocument(document: "d")
        let id = ChangeID(replica: ReplicaID(high: 1, low: 1), seq: 1)
        _ = document.apply(contentsOf: [
            Change(
                id: id,
                stamp: Stamp(wallMilliseconds: 1),
                payload: ModelEdit(document: "d", operations: try low.operations(since: Day()) + operations)
            )
        ])
        #expect(try Day(document).glassesOfWater == .max)
    }

    /// Random edits on three devices, merged in random orders: every order gives the same model, and
    /// each counter is the sum of what the devices added.
    @Test func randomEditsOnThreeDevicesConvergeToTheSums() throws {
        let seed = seed("randomEditsOnThreeDevicesConvergeToTheSums")
        var random = SeededGenerator(seed: seed)
        let foods = ["rice", "tea", "bread", "apple"]
        var expected: [String: Int64] = [:]
        var changes: [Change<ModelEdit>] = []
        for device in 0..<3 {
            let replica = ReplicaID(high: UInt64(device + 1), low: 7)
            var seen = Day()
            for seq in 1...20 as ClosedRange<UInt64> {
                var next = seen
                let food = foods[Int.random(in: 0..<foods.count, using: &random)]
                let amount = Int64.random(in: -3...5, using: &random)
                next.foods[food, default: 0] += amount
                expected[food, default: 0] += amount
                let stamp = Stamp(wallMilliseconds: UInt64.random(in: 1...1_000, using: &random))
                changes.append(
                    Change(
                        id: ChangeID(replica: replica, seq: seq),
                        stamp: stamp,
                        payload: ModelEdit(document: "d", operations: try next.operations(since: seen))
                    )
                )
                seen = next
            }
        }
        var reference: String?
        for _ in 0..<20 {
            var document = ModelDocument(document: "d")
            var shuffled = changes.shuffled(using: &random)
            shuffled += shuffled.prefix(5)  // duplicates change nothing
            _ = document.apply(contentsOf: shuffled)
            #expect(reference == nil || reference == document.fingerprint, "seed \(seed)")
            reference = document.fingerprint
            #expect(try Day(document).foods == expected.filter { $0.value != 0 }, "seed \(seed)")
        }
    }

    /// Through a replica: an update is one change, stored and applied at once; a query finds the days
    /// in a range through the store's index of documents.
    @Test func aReplicaUpdatesReadsAndQueriesModels() async throws {
        let replica = try await Replica(store: try Store.inMemory(), documentTypes: DocumentTypes([ModelEdit.self]))
        for (day, food) in [
            ("2026-11-24", "tea"), ("2026-11-25", "rice"), ("2026-11-25", "rice"), ("2026-12-01", "soup"),
        ] {
            try await replica.update(Day.self, room: Self.room, document: day) { $0.foods[food, default: 0] += 1 }
        }
        let updated = try await replica.update(Day.self, room: Self.room, document: "2026-11-25") { $0.note = "busy" }
        #expect(updated.foods == ["rice": 2] && updated.note == "busy")
        #expect(try replica.changesToUpload() == 5, "one change per update")
        #expect(try await replica.read(Day.self, room: Self.room, document: "2026-11-25") == updated)
        let november = try await replica.models(Day.self, room: Self.room, names: "2026-11-01"..."2026-11-30")
        #expect(november.map(\.document) == ["2026-11-24", "2026-11-25"])
        #expect(november.map(\.model.foods) == [["tea": 1], ["rice": 2]])
        await replica.stop()
    }
}
