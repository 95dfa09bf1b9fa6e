import InkwellServer

/// What one simulated run holds and which faults it suffers; the seed picks everything else.
public struct SimulationOptions: Hashable, Sendable {
    /// Devices drawing on the board.
    public var clients = 3
    /// Strokes each device draws, at random times, online or not.
    public var strokesPerClient = 12
    /// How long the faulty part of the run lasts, in simulated milliseconds; then the network heals,
    /// every process comes back, and the devices have `settleMilliseconds` to converge.
    public var faultyMilliseconds: UInt64 = 20_000
    public var settleMilliseconds: UInt64 = 600_000
    /// A bug put in on purpose, to show the checks catch it.
    public var injectedBug: InjectedBug?
    /// Whether each line of the trace is printed as it is made, with the seed: to follow a replayed seed.
    public var printsTrace = false

    public init() {}
}

/// Bugs the simulation can put into the server, each one a real way to lose or corrupt data
/// (``InjectedServerBug``: the server's code has them behind a switch only the simulation sets).
public enum InjectedBug: String, CaseIterable, Hashable, Sendable {
    /// The ack goes out when the push arrives, before its commit: a crash in between loses an
    /// acknowledged pack.
    case ackBeforeCommit = "ack-before-commit"
    /// A push of a pack already stored gets no ack: the device pushes it forever and never settles.
    case dropDuplicateAck = "drop-duplicate-ack"
    /// A live pack is not sent to the room's other followers: they miss it until they reconnect.
    case skipLiveFanout = "skip-live-fanout"
    /// A push whose commit failed on a full or failing disk is acked all the same: the device drops a
    /// change the server never stored.
    case ackFailedCommit = "ack-failed-commit"
    /// A compaction drops one pack past what its snapshot stands for: an acknowledged pack is gone.
    case compactPastSnapshot = "compact-past-snapshot"
}

extension InjectedBug {
    /// The server's switch for it.
    var server: InjectedServerBug {
        switch self {
        case .ackBeforeCommit: .ackBeforeCommit
        case .dropDuplicateAck: .dropDuplicateAck
        case .skipLiveFanout: .skipLiveFanout
        case .ackFailedCommit: .ackFailedCommit
        case .compactPastSnapshot: .compactPastSnapshot
        }
    }
}
