import Foundation

extension ConvergenceHarness {
    /// How big and how hostile a simulated run is. Every random choice comes from ``seed``.
    public struct Configuration: Sendable {
        public var replicas: Int
        public var operationsPerReplica: Int
        public var seed: UInt64
        /// Chance that a broadcast to one peer is lost (anti-entropy recovers it).
        public var dropProbability: Double = 0.05
        /// Chance that a broadcast to one peer is delivered twice.
        public var duplicateProbability: Double = 0.1
        /// Chance, per step, that the network splits into new groups or heals.
        public var partitionProbability: Double = 0.005
        /// Chance, per step, that two connected replicas run anti-entropy.
        public var antiEntropyProbability: Double = 0.01
        /// Wall-clock offsets of the first replicas, in milliseconds: a year ahead and a year behind,
        /// so causality is tested against the worst clocks. Other replicas drift a few seconds.
        public var clockOffsets: [Int64] = [365 * 86_400_000, -365 * 86_400_000]

        public init(replicas: Int = 8, operationsPerReplica: Int = 10_000, seed: UInt64) {
            precondition(replicas >= 2, "convergence needs at least two replicas")
            self.replicas = replicas
            self.operationsPerReplica = operationsPerReplica
            self.seed = seed
        }

        /// The configuration for tests: `INKWELL_SEED` reproduces a run and `INKWELL_CONVERGENCE_SCALE`
        /// multiplies the number of operations (e.g. 10 for a long run on demand).
        public static func fromEnvironment(
            replicas: Int = 8,
            operationsPerReplica: Int = 10_000
        ) -> Configuration {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["INKWELL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
            let scale = environment["INKWELL_CONVERGENCE_SCALE"].flatMap { Double($0) } ?? 1
            return Configuration(
                replicas: replicas,
                operationsPerReplica: max(1, Int(Double(operationsPerReplica) * scale)),
                seed: seed
            )
        }
    }

    /// What a run did, for the test log.
    public struct Report: Sendable, CustomStringConvertible {
        public var seed: UInt64
        public var changes = 0
        public var deliveries = 0
        public var duplicatesSent = 0
        public var dropped = 0
        public var partitions = 0
        public var antiEntropyRounds = 0
        public var skewedWitnesses: UInt64 = 0
        public var stateBytes = 0

        /// The faults the configuration asks for that never happened in this run: a run that converged
        /// without them proved less than it claims.
        public var faultsMissing: [String] {
            var missing: [String] = []
            if partitions == 0 { missing.append("partitions") }
            if duplicatesSent == 0 { missing.append("duplicates") }
            if dropped == 0 { missing.append("drops") }
            if antiEntropyRounds == 0 { missing.append("anti-entropy rounds") }
            if skewedWitnesses == 0 { missing.append("skewed clocks noticed") }
            return missing
        }

        public var description: String {
            "seed=\(seed) changes=\(changes) deliveries=\(deliveries) duplicates=\(duplicatesSent) "
                + "dropped=\(dropped) partitions=\(partitions) antiEntropy=\(antiEntropyRounds) "
                + "skewWarnings=\(skewedWitnesses) stateBytes=\(stateBytes)"
        }
    }

    /// Replicas ended different: the message names the seed that reproduces it.
    public struct Divergence: Error, CustomStringConvertible {
        public let seed: UInt64
        public let detail: String

        public var description: String {
            "replicas diverged: \(detail); reproduce with INKWELL_SEED=\(seed)"
        }
    }
}
