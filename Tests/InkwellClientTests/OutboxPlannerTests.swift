import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

@Suite struct OutboxPlannerTests {
    /// A queue of changes over a few rooms, interleaved, with sizes from tiny to over a quarter of a pack.
    static func queue(_ count: Int, rooms: [String], using random: inout SeededGenerator) -> [StoredChange] {
        let replicas = Dictionary(uniqueKeysWithValues: rooms.map { ($0, ReplicaID(using: &random)) })
        var seqs: [String: UInt64] = [:]
        return (0..<count).map { _ in
            let room = rooms.randomElement(using: &random)!
            seqs[room, default: 0] += 1
            let size =
                Bool.random(using: &random)
                ? Int.random(in: 1...200, using: &random) : Int.random(in: 1...150_000, using: &random)
            return queuedChange(
                room: room,
                replica: replicas[room]!,
                seq: seqs[room]!,
                payloadBytes: size,
                using: &random
            )
        }
    }

    @Test func packsKeepEveryChangeOnceWithinTheLimits() throws {
        var random = SeededGenerator(seed: seed("packsKeepEveryChangeOnceWithinTheLimits"))
        let planner = OutboxPlanner()
        for round in 0..<4 {
            let rooms = ["a", "b", "c"].prefix(1 + round % 3).map { $0 }
            // Incompressible payloads: the encoded size is the worst case for the byte limit.
            var queued = Self.queue(round.isMultiple(of: 2) ? 300 : 60, rooms: rooms, using: &random)
            queued += (0..<700).map { index in
                queuedChange(
                    room: "small",
                    replica: ReplicaID(high: 9, low: 9),
                    seq: UInt64(index + 1),
                    payloadBytes: 20,
                    using: &random
                )
            }
            let plan = planner.plan(queued)
            #expect(plan.unsendable.isEmpty)
            #expect(plan.packs.flatMap(\.changes).count == queued.count)
            for room in Set(queued.map(\.room)) {
                #expect(
                    plan.packs.filter { $0.room == room }.flatMap(\.changes) == queued.filter { $0.room == room },
                    "each room's changes in queue order"
                )
            }
            let roomOrder = plan.packs.map(\.room).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(roomOrder == queued.map(\.room).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } })
            let key = AuthorKey(using: &random)
            for pack in plan.packs {
                #expect(pack.changes.allSatisfy { $0.room == pack.room && $0.id.replica == pack.author })
                #expect(pack.changes.count <= 512)
                let encoded = PackCodec.encode(pack.pack, signedBy: key)
                #expect(encoded.count <= 512 << 10, "encoded pack of \(encoded.count) bytes")
                let contents = try packContents(encoded)
                #expect(contents.room == pack.room)
                #expect(contents.changes == pack.changes.map(\.payload))
            }
            // 700 changes of 20 bytes: the change limit cuts them, not the byte limit.
            #expect(plan.packs.filter { $0.room == "small" }.map(\.changes.count) == [512, 188])
            #expect(planner.plan(queued) == plan, "planning is deterministic")
        }
    }

    @Test func packsArePackedGreedily() {
        var random = SeededGenerator(seed: seed("packsArePackedGreedily"))
        let planner = OutboxPlanner(limits: .init(maximumChanges: 512, maximumBytes: 10_000))
        let replica = ReplicaID(using: &random)
        let queued = (1...300).map { seq in
            queuedChange(
                room: "x",
                replica: replica,
                seq: UInt64(seq),
                payloadBytes: Int.random(in: 1...4_000, using: &random),
                using: &random
            )
        }
        let packs = planner.plan(queued).packs
        let budget = 10_000 - OutboxPlanner.envelopeReserve
        for (pack, next) in zip(packs, packs.dropFirst()) {
            let bytes = pack.changes.map(OutboxPlanner.entryBytes).reduce(0, +)
            #expect(bytes <= budget)
            #expect(
                bytes + OutboxPlanner.entryBytes(next.changes[0]) > budget,
                "a pack is cut only when the next change does not fit"
            )
        }
    }

    @Test func planningAgainAfterSomeAcksRebuildsTheSamePacks() {
        var random = SeededGenerator(seed: seed("planningAgainAfterSomeAcksRebuildsTheSamePacks"))
        let planner = OutboxPlanner()
        let queued = Self.queue(600, rooms: ["a", "b"], using: &random)
        let first = planner.plan(queued).packs
        #expect(first.count > 4)
        // Acks remove whole packs; the ones left are planned again after a reconnection.
        let acked = Set(first.prefix(3).flatMap(\.changes).map(\.id))
        let again = planner.plan(queued.filter { !acked.contains($0.id) }).packs
        #expect(Set(again) == Set(first.dropFirst(3)))
    }

    @Test func aChangeLargerThanAPackTravelsAlone() {
        var random = SeededGenerator(seed: seed("aChangeLargerThanAPackTravelsAlone"))
        let replica = ReplicaID(using: &random)
        let queued = [
            queuedChange(room: "r", replica: replica, seq: 1, payloadBytes: 10, using: &random),
            queuedChange(room: "r", replica: replica, seq: 2, payloadBytes: 600_000, using: &random),
            queuedChange(room: "r", replica: replica, seq: 3, payloadBytes: 10, using: &random),
        ]
        #expect(OutboxPlanner().plan(queued).packs.map { $0.changes.map(\.id.seq) } == [[1], [2], [3]])
    }

    @Test func roomsTheProtocolCannotCarryStayBehind() {
        var random = SeededGenerator(seed: seed("roomsTheProtocolCannotCarryStayBehind"))
        let replica = ReplicaID(using: &random)
        let queued = [
            queuedChange(room: "good", replica: replica, seq: 1, payloadBytes: 10, using: &random),
            queuedChange(
                room: "not/valid",
                replica: ReplicaID(using: &random),
                seq: 1,
                payloadBytes: 10,
                using: &random
            ),
        ]
        let plan = OutboxPlanner().plan(queued)
        #expect(plan.packs.map(\.room) == ["good"])
        #expect(plan.unsendable.map(\.room) == ["not/valid"])
    }

    @Test func atMostTheRequestedNumberOfPacks() {
        var random = SeededGenerator(seed: seed("atMostTheRequestedNumberOfPacks"))
        let queued = Self.queue(400, rooms: ["a", "b", "c"], using: &random)
        let planner = OutboxPlanner()
        let all = planner.plan(queued).packs
        for limit in [0, 1, 2, 5] {
            #expect(planner.plan(queued, maximumPacks: limit).packs == Array(all.prefix(limit)))
        }
    }

    @Test func aPackHoldsTheChangesOfOneReplica() {
        var random = SeededGenerator(seed: seed("aPackHoldsTheChangesOfOneReplica"))
        let replicas = (0..<3).map { _ in ReplicaID(using: &random) }
        let queued = (1...90).map { seq in
            queuedChange(
                room: "r",
                replica: replicas[seq % 3],
                seq: UInt64(seq),
                payloadBytes: 12,
                using: &random
            )
        }
        let packs = OutboxPlanner().plan(queued).packs
        #expect(packs.count == 3, "one pack per timeline, in the order of each one's oldest change")
        #expect(packs.map(\.author) == [replicas[1], replicas[2], replicas[0]])
        for pack in packs { #expect(pack.changes.allSatisfy { $0.id.replica == pack.author }) }
    }
}
