public import InkwellSync
import Synchronization

/// The local wall clock, corrected by the server's when the two disagree by more than a second.
///
/// The server refuses changes stamped more than ``SyncProtocol/maximumStampLeadMilliseconds`` ahead of
/// its own clock, and a receiver keeps such changes aside. A device with a wrong date would otherwise
/// make changes nobody takes: stamping by the server's time (learnt from each welcome) keeps its work
/// flowing, and judging received stamps by it keeps a slow local clock from refusing honest changes.
public final class ServerCorrectedClock: WallClock {
    /// Disagreements up to this are left alone: the welcome's own transit time is of this order.
    static let toleranceMilliseconds: Int64 = 1_000

    private let local: any WallClock
    private let offset = Mutex<Int64>(0)

    public init(local: any WallClock) {
        self.local = local
    }

    /// The server's clock read `serverTime` just now.
    public func learn(serverTime: UInt64) {
        let difference = Int64(clamping: serverTime) - Int64(clamping: local.millisecondsSince1970())
        offset.withLock { $0 = abs(difference) > Self.toleranceMilliseconds ? difference : 0 }
    }

    /// How far the server's clock is ahead of the local one (negative: behind), as last learnt.
    public var offsetMilliseconds: Int64 { offset.withLock { $0 } }

    public func millisecondsSince1970() -> UInt64 {
        let now = Int64(clamping: local.millisecondsSince1970())
        return UInt64(clamping: max(0, now.addingReportingOverflow(offsetMilliseconds).partialValue))
    }
}
