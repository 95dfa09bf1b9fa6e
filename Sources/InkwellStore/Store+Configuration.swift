public import Foundation

extension Store {
    /// Limits and collaborators of a store; the defaults suit an app.
    public struct Configuration: Sendable {
        /// The largest change payload accepted: by default as large as the wire carries
        /// (`WireLimits.maximumChangeBytes`), since a replica that refused a change others keep would show
        /// another board than theirs for good.
        public var maximumChangeBytes: Int
        /// The largest snapshot, stored-aside pack or inline blob accepted (SQLite's own limit is 1 GB).
        public var maximumValueBytes: Int
        /// How long to wait for another process that holds the file's write lock.
        public var busyTimeout: TimeInterval
        /// Whether a snapshot the store writes (``Store/snapshotIfNeeded(room:document:policy:)``) also
        /// removes the change rows it holds, so the device keeps each change once. Changes still in the
        /// outbox keep their rows until acknowledged. Off, every row stays as well, as before schema 6.
        public var compaction: Bool
        /// The wall clock, read to date stored-aside items and the tails the snapshot policy ages; inject
        /// one in tests.
        public var now: @Sendable () -> Date
        /// Where new identities come from (the store's replica, each room's author key): the system's
        /// randomness, or, in a simulation that must replay from its seed, a seeded source.
        public var randomness: (@Sendable () -> UInt64)?

        public init(
            maximumChangeBytes: Int = 4 << 20,
            maximumValueBytes: Int = 256 << 20,
            busyTimeout: TimeInterval = 5,
            compaction: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() },
            randomness: (@Sendable () -> UInt64)? = nil
        ) {
            self.maximumChangeBytes = maximumChangeBytes
            self.maximumValueBytes = maximumValueBytes
            self.busyTimeout = busyTimeout
            self.compaction = compaction
            self.now = now
            self.randomness = randomness
        }

        /// A generator drawing on ``randomness``, or on the system's.
        var generator: IdentityGenerator { IdentityGenerator(source: randomness) }

        /// ``now`` in milliseconds since 1970, as the store dates rows.
        var milliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
    }
}

/// The randomness new identities are drawn from (``Store/Configuration/randomness``).
struct IdentityGenerator: RandomNumberGenerator {
    let source: (@Sendable () -> UInt64)?
    private var system = SystemRandomNumberGenerator()

    init(source: (@Sendable () -> UInt64)?) {
        self.source = source
    }

    mutating func next() -> UInt64 {
        source?() ?? system.next()
    }
}
