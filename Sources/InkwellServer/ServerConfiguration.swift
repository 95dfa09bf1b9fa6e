public import Foundation

/// How `inkwell serve` runs: where it listens, where it keeps its data, whom it lets in.
public struct ServerConfiguration: Sendable {
    /// A certificate chain and its private key, PEM files, for HTTPS and WSS on the server's one port.
    public struct TLSFiles: Sendable {
        public var certificateChain: String
        public var privateKey: String

        public init(certificateChain: String, privateKey: String) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    public var host: String
    /// 0 picks a free port; the chosen one is reported to ``SyncServer``'s `onListening`.
    public var port: Int
    /// Holds `packs.sqlite` (the rooms' pack logs) and `blobs/`. Never inside ``webRoot``.
    public var dataDirectory: String
    /// The web client's files, served at `/`; nil serves none.
    public var webRoot: String?
    /// Browser origins allowed to open the sync socket besides the server's own (`*` allows any).
    /// Clients that send no `Origin` (native apps, the command line) are always allowed.
    public var allowedOrigins: Set<String>
    /// The addresses people reach the server by (`https://board.example.com` behind a proxy): requests whose
    /// `Host` names none of them are refused with 421, and the server's own pages are theirs. Empty, the server
    /// answers `localhost` and IP addresses on its port, and no other name (a DNS-rebinding page's).
    public var publicURLs: [URL]
    /// Serves HTTPS and WSS instead of HTTP and WS; nil serves plain HTTP.
    public var tls: TLSFiles?
    /// Reverse proxies, as IP addresses or blocks (`127.0.0.1`, `10.0.0.0/8`), whose `Forwarded` and
    /// `X-Forwarded-For` headers name the client a request came from: the per-address limits and the logs
    /// use that client's address (see `TrustedProxies`). Empty, every request is the peer's.
    public var trustedProxies: [String]
    /// How long a request's body may take to arrive in full: one that trickles in is answered 408 and its
    /// connection closed, so it cannot hold a socket for ever.
    public var requestBodyTimeout: Duration
    /// Also serves the page's tests and benchmark (`test/`, `bench/` under ``webRoot``): for development only.
    public var servesTestPages: Bool
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
    /// WebSocket routes beside `/sync` (``SocketRoute``), such as the JSON stroke protocol's bridge that
    /// `inkwell serve` adds.
    public var socketRoutes: [SocketRoute] = []
    /// Whether the server is advertised on the local network (`--lan`): `GET /lan` then lists the
    /// addresses other devices reach it at, for the page to show.
    public var advertisedOnLAN = false
    /// How long an author or device counts as present in a room after it was last seen: packs are
    /// dropped only once every present author has checked a snapshot that stands for them (see
    /// `PackLog+Snapshots.swift`). A device away longer starts again from the snapshot.
    public var retention: Duration
    /// How often the compaction pass runs.
    public var compactionInterval: Duration

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String,
        webRoot: String? = nil,
        allowedOrigins: Set<String> = [],
        publicURLs: [URL] = [],
        tls: TLSFiles? = nil,
        trustedProxies: [String] = [],
        requestBodyTimeout: Duration = .seconds(30),
        servesTestPages: Bool = false,
        commitLinger: Duration = .zero,
        presenceHold: Duration = .milliseconds(50),
        limits: ServerLimits = ServerLimits(),
        openRooms: Bool = false,
        retention: Duration = .seconds(30 * 24 * 3_600),
        compactionInterval: Duration = .seconds(60)
    ) {
        self.openRooms = openRooms
        self.retention = retention
        self.compactionInterval = compactionInterval
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.webRoot = webRoot
        self.allowedOrigins = allowedOrigins
        self.publicURLs = publicURLs
        self.tls = tls
        self.trustedProxies = trustedProxies
        self.requestBodyTimeout = requestBodyTimeout
        self.servesTestPages = servesTestPages
        self.commitLinger = commitLinger
        self.presenceHold = presenceHold
        self.limits = limits
    }

    /// The proxies whose forwarding headers are believed, from ``trustedProxies``.
    ///
    /// - Throws: ``ServerConfigurationError/trustedProxy(_:correction:)`` for one that is no address or block.
    package func proxies() throws(ServerConfigurationError) -> TrustedProxies {
        try TrustedProxies(trustedProxies)
    }

    /// The names the server answers to, from ``publicURLs``, ``host`` and ``tls``.
    package var hosts: HostPolicy {
        HostPolicy(publicURLs: publicURLs, listeningHost: host, isSecure: tls != nil)
    }
}
