import InkwellSync

/// Drives N replicas of a ``ReplicatedModel`` through random local edits over a hostile simulated
/// network (reordering, duplicates, losses, partitions that split and heal, skewed clocks), then
/// heals everything and checks that every replica's canonical encoding is byte-identical, and
/// identical to a reference replay that applies each change once in the total order.
///
/// Lost messages are recovered the way real replicas recover them: anti-entropy that compares
/// ``VersionVector``s and sends what ``ChangeLog/changes(notIn:)`` returns.
public struct ConvergenceHarness<Model: ReplicatedModel> {
    struct Replica {
        let id: ReplicaID
        let clockOffset: Int64
        var clock = HybridLogicalClock()
        var model = Model()
        var log = ChangeLog<Model.Operation>()
        var nextSeq: UInt64 = 1
        var operationsLeft: Int
    }

    struct Message {
        let from: Int
        let to: Int
        let change: Change<Model.Operation>
    }

    let configuration: Configuration
    var random: SplitMix64
    var replicas: [Replica] = []
    var inFlight: [Message] = []
    /// The network group of each replica: two replicas talk only if their groups are equal.
    var groups: [Int]
    var now: UInt64 = 1_800_000_000_000
    var report: Report

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        self.random = SplitMix64(seed: configuration.seed)
        self.groups = Array(repeating: 0, count: configuration.replicas)
        self.report = Report(seed: configuration.seed)
        for index in 0..<configuration.replicas {
            let offset =
                index < configuration.clockOffsets.count
                ? configuration.clockOffsets[index] : Int64.random(in: -5_000...5_000, using: &random)
            replicas.append(
                Replica(
                    id: ReplicaID(using: &random),
                    clockOffset: offset,
                    operationsLeft: configuration.operationsPerReplica
                )
            )
        }
    }

    /// Runs the simulation to the end and verifies convergence.
    ///
    /// - Throws: ``Divergence`` naming the seed, if any two replicas differ.
    public static func run(_ configuration: Configuration) throws -> Report {
        var harness = ConvergenceHarness(configuration)
        return try harness.run()
    }

    mutating func run() throws -> Report {
        while replicas.contains(where: { $0.operationsLeft > 0 }) {
            step()
        }
        try healAndVerify()
        return report
    }

    mutating func step() {
        now += UInt64.random(in: 0...5, using: &random)
        let roll = Double.random(in: 0..<1, using: &random)
        if roll < configuration.partitionProbability {
            repartition()
        } else if roll < configuration.partitionProbability + configuration.antiEntropyProbability {
            let a = Int.random(in: 0..<replicas.count, using: &random)
            let b = Int.random(in: 0..<replicas.count, using: &random)
            if a != b, groups[a] == groups[b] { antiEntropy(a, b) }
        } else if roll < 0.5 || inFlight.isEmpty {
            let candidates = replicas.indices.filter { replicas[$0].operationsLeft > 0 }
            if let author = candidates.randomElement(using: &random) { makeLocalChange(at: author) }
        } else {
            deliver(inFlight.count > 64 ? 4 : 1)
        }
    }

    /// Splits the replicas into one to three groups; one group means the network is healed.
    mutating func repartition() {
        let groupCount = Int.random(in: 1...3, using: &random)
        for index in groups.indices { groups[index] = Int.random(in: 0..<groupCount, using: &random) }
        report.partitions += 1
    }

    mutating func wallTime(of index: Int) -> UInt64 {
        UInt64(max(0, Int64(now) + replicas[index].clockOffset))
    }

    mutating func makeLocalChange(at author: Int) {
        let stamp = replicas[author].clock.next(wallMilliseconds: wallTime(of: author))
        let id = ChangeID(replica: replicas[author].id, seq: replicas[author].nextSeq)
        let operation = replicas[author].model.randomOperation(
            at: OpStamp(stamp: stamp, change: id),
            using: &random
        )
        let change = Change(id: id, stamp: stamp, payload: operation)
        replicas[author].nextSeq += 1
        replicas[author].operationsLeft -= 1
        receive(change, at: author)
        report.changes += 1
        for peer in replicas.indices where peer != author && groups[peer] == groups[author] {
            if Double.random(in: 0..<1, using: &random) < configuration.dropProbability {
                report.dropped += 1
                continue
            }
            inFlight.append(Message(from: author, to: peer, change: change))
            if Double.random(in: 0..<1, using: &random) < configuration.duplicateProbability {
                inFlight.append(Message(from: author, to: peer, change: change))
                report.duplicatesSent += 1
            }
        }
    }

    /// Delivers random in-flight messages; a message across a partition is lost.
    mutating func deliver(_ count: Int) {
        for _ in 0..<min(count, inFlight.count) {
            let index = Int.random(in: 0..<inFlight.count, using: &random)
            inFlight.swapAt(index, inFlight.count - 1)
            let message = inFlight.removeLast()
            guard groups[message.from] == groups[message.to] else {
                report.dropped += 1
                continue
            }
            receive(message.change, at: message.to)
        }
    }

    /// Lets the replica's clock see a stamp, counting stamps far ahead of its wall clock.
    mutating func witness(_ change: Change<Model.Operation>, at index: Int) {
        if replicas[index].clock.witness(change.stamp, wallMilliseconds: wallTime(of: index)) != nil {
            report.skewedWitnesses += 1
        }
    }

    /// Applies a change at a replica, duplicates included: the model itself must be idempotent.
    mutating func receive(_ change: Change<Model.Operation>, at index: Int) {
        witness(change, at: index)
        do {
            try replicas[index].log.insert(change)
        } catch {
            preconditionFailure("honest change refused: \(error)")
        }
        replicas[index].model.apply(change)
        report.deliveries += 1
    }

    /// Each side sends the other what its version vector lacks, as one shuffled batch.
    mutating func antiEntropy(_ a: Int, _ b: Int) {
        report.antiEntropyRounds += 1
        let forB = replicas[a].log.changes(notIn: replicas[b].log.frontier).shuffled(using: &random)
        let forA = replicas[b].log.changes(notIn: replicas[a].log.frontier).shuffled(using: &random)
        receiveBatch(forB, at: b)
        receiveBatch(forA, at: a)
    }

    mutating func receiveBatch(_ changes: [Change<Model.Operation>], at index: Int) {
        guard !changes.isEmpty else { return }
        for change in changes { witness(change, at: index) }
        let outcome = replicas[index].log.insert(contentsOf: changes)
        precondition(outcome.refused.isEmpty, "honest changes refused: \(outcome.refused)")
        for change in changes { replicas[index].model.apply(change) }
        report.deliveries += changes.count
    }

    /// Heals the network, drains it, runs anti-entropy through replica 0 both ways, and compares.
    mutating func healAndVerify() throws {
        groups = Array(repeating: 0, count: replicas.count)
        deliver(inFlight.count)
        for _ in 0..<2 {
            for index in 1..<replicas.count { antiEntropy(0, index) }
        }
        let reference = replicas[0].log.inOrder.reduce(into: Model()) { model, change in model.apply(change) }
        let expected = reference.canonicalEncoding()
        report.stateBytes = expected.count
        let frontier = replicas[0].log.frontier
        for replica in replicas {
            guard replica.log.frontier == frontier, replica.log.gaps.isEmpty else {
                throw Divergence(seed: configuration.seed, detail: "replica \(replica.id) holds other changes")
            }
            do {
                try replica.log.checkInvariants()
            } catch {
                throw Divergence(seed: configuration.seed, detail: "\(error)")
            }
            guard replica.model.canonicalEncoding() == expected else {
                throw Divergence(
                    seed: configuration.seed,
                    detail: "replica \(replica.id) differs from the reference replay"
                )
            }
        }
    }
}
