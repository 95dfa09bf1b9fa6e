public import InkwellSync
import Synchronization

/// The simulation's one clock: milliseconds since the run began, moved only by the scheduler.
public final class SimulatedTime: Sendable {
    /// What the wall clocks read at the start: a date in 2027, so stamps look like real ones.
    static let epochMilliseconds: UInt64 = 1_800_000_000_000

    private let elapsed = Mutex<UInt64>(0)
    /// The continuous clock's reading at the start: what the server's rate limiters measure from.
    private let origin = ContinuousClock.now

    public init() {}

    /// Milliseconds since the run began.
    public var now: UInt64 { elapsed.withLock { $0 } }

    func advance(to time: UInt64) {
        elapsed.withLock { $0 = max($0, time) }
    }

    /// The continuous clock's instant for now, for the server's session.
    var instant: ContinuousClock.Instant { origin.advanced(by: .milliseconds(Int64(now))) }
}

/// A node's wall clock: the simulation's time, set off by the node's skew, which may jump.
final class SimulatedWallClock: WallClock {
    private let time: SimulatedTime
    private let skew = Mutex<Int64>(0)

    init(time: SimulatedTime, skewMilliseconds: Int64 = 0) {
        self.time = time
        skew.withLock { $0 = skewMilliseconds }
    }

    var skewMilliseconds: Int64 {
        get { skew.withLock { $0 } }
        set { skew.withLock { $0 = newValue } }
    }

    func millisecondsSince1970() -> UInt64 {
        let now = Int64(SimulatedTime.epochMilliseconds + time.now)
        return UInt64(max(0, now + skewMilliseconds))
    }
}
