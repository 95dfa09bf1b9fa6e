/// How `inkwell serve` runs: where it listens, where it keeps its data, whom it lets in.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; the chosen one is reported to ``SyncServer``'s `onListening`.
    public var port: Int
    /// Holds `packs.sqlite` (the rooms' pack logs) and `blobs/`.
    public var dataDirectory: String
    /// The web client's files, served at `/`; nil serves none.
    public var webRoot: String?
    /// Browser origins allowed to open the sync socket besides the server's own (`*` allows any).
    /// Clients that send no `Origin` (native apps, the command line) are always allowed.
    public var allowedOrigins: Set<String>
    /// How long the first push of a commit waits for others to share its fsync.
    public var commitLinger: Duration
    /// How long a member's presence waits for more before it is sent, when nothing else is on its way
    /// to that member: longer sends fewer frames from a busy room, shorter shows cursors sooner. The
    /// default, 50 ms (at most 20 presence frames a second per member), was chosen by measurement
    /// (BENCHMARKS.md, "Holding presence"): it cut frames sent by a third and push latency's p99 by half.
    public var presenceHold: Duration
    public var limits: ServerLimits
    /// Whether any room name may be used without capabilities (`--open-rooms`): a room the server has
    /// no record of becomes open to anyone who names it. Off, rooms are made with capabilities, and only
    /// rooms that held packs before capabilities existed are open.
    public var openRooms: Bool

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String,
        webRoot: String? = nil,
        allowedOrigins: Set<String> = [],
        commitLinger: Duration = .zero,
        presenceHold: Duration = .milliseconds(50),
        limits: ServerLimits = ServerLimits(),
        openRooms: Bool = false
    ) {
        self.openRooms = openRooms
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.webRoot = webRoot
        self.allowedOrigins = allowedOrigins
        self.commitLinger = commitLinger
        self.presenceHold = presenceHold
        self.limits = limits
    }
}
