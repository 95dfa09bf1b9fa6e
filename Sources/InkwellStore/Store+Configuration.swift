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
        /// The wall clock, read only to date stored-aside items; inject a fixed one in tests.
        public var now: @Sendable () -> Date

        public init(
            maximumChangeBytes: Int = 1 << 20,
            maximumValueBytes: Int = 256 << 20,
            busyTimeout: TimeInterval = 5,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.maximumChangeBytes = maximumChangeBytes
            self.maximumValueBytes = maximumValueBytes
            self.busyTimeout = busyTimeout
            self.now = now
        }
    }
}
