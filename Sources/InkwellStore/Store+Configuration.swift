public import Foundation

extension Store {
    /// Limits and collaborators of a store; the defaults suit an app.
    public struct Configuration: Sendable {
        /// The largest change payload accepted. A change is one user action, so this is generous.
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

        public init(
            maximumChangeBytes: Int = 1 << 20,
            maximumValueBytes: Int = 256 << 20,
            busyTimeout: TimeInterval = 5,
            compaction: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.maximumChangeBytes = maximumChangeBytes
            self.maximumValueBytes = maximumValueBytes
            self.busyTimeout = busyTimeout
            self.compaction = compaction
            self.now = now
        }

        /// ``now`` in milliseconds since 1970, as the store dates rows.
        var milliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded()) }
    }
}
