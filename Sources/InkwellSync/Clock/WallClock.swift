import Foundation

/// A source of wall-clock time in milliseconds since 1970, injected wherever stamps are made.
public protocol WallClock: Sendable {
    func millisecondsSince1970() -> UInt64
}

/// The system's real-time clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public func millisecondsSince1970() -> UInt64 {
        UInt64(max(0, Date().timeIntervalSince1970 * 1000))
    }
}
