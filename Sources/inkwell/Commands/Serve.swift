import ArgumentParser
import Foundation
import InkwellCommandLine
import InkwellServer
import InkwellWeb
import Logging
import ServiceLifecycle
import UnixSignals

extension Inkwell {
    /// Runs the whiteboard server until SIGINT or SIGTERM, then shuts down gracefully.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the whiteboard server: sync socket, web client, blobs, health and metrics.",
            discussion: """
                Serves the sync socket at /sync, the web client at /, boards' blobs at \
                /rooms/{room}/blobs/{sha256}, /healthz and \
                /metrics (Prometheus). The web client's files are built with the binary, in the folder \
                \(WebClient.resourceFolder) beside it; --web serves another directory. \
                Everything is stored under --data, which may not lie inside the web client's directory. \
                Without --public-url the server answers requests for localhost and IP addresses on its port \
                only (a page of another name, as a DNS-rebinding attack makes, is refused with 421); behind a \
                proxy or under a name, give the address people use, and with --trusted-proxy the proxy's \
                address, so that the limits per IP address count each client apart. Prints "listening on HOST:PORT" \
                on standard output once the port is bound. SIGINT or SIGTERM closes connections \
                and commits what they pushed before exiting.
                """
        )

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0 picks a free one).")
        var port = 8080

        @Option(help: "The data directory (created if missing).")
        var data = "inkwell-data"

        @Option(
            help: ArgumentHelp(
                "Keep the rooms in this PostgreSQL database instead of --data's SQLite file, as one of several nodes.",
                discussion: """
                    postgres://user:password@host:5432/database (add ?sslmode=disable for no TLS). Every node \
                    started on the same database serves the same boards: a push to one reaches the members on the \
                    others. Blobs' bytes stay under --data, which the nodes must share.
                    """,
                valueName: "url"
            )
        )
        var postgres: String?

        @Option(help: "Serve the web client from this directory instead of the copy built with the binary.")
        var web: String?

        @Option(
            name: .customLong("allow-origin"),
            help:
                "A browser origin allowed to sync besides the server's own, e.g. https://example.org (repeatable; * allows any)."
        )
        var allowedOrigins: [String] = []

        @Flag(
            help: """
                Let any room name be used without capabilities: a name the server has no record of becomes an \
                open room that anyone who names it may edit. For a trusted network; off, boards are made with \
                share links.
                """
        )
        var openRooms = false

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp(
                "An address people reach the server by, e.g. https://board.example.com (repeatable).",
                discussion: "Requests for any other host are refused with 421; pages of these origins may sync."
            )
        )
        var publicURLs: [String] = []

        @Option(
            name: .customLong("trusted-proxy"),
            help: ArgumentHelp(
                "A reverse proxy's IP address or block, e.g. 127.0.0.1 or 10.0.0.0/8 (repeatable).",
                discussion: """
                    A request from it is counted and logged under the client its Forwarded or X-Forwarded-For \
                    header names, read from the right past other trusted proxies. The proxy must set that header \
                    (nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for); anyone else's is ignored.
                    """
            )
        )
        var trustedProxies: [String] = []

        @Option(
            name: .customLong("tls-cert"),
            help: "Serve HTTPS and WSS with this PEM certificate chain (with --tls-key)."
        )
        var tlsCertificate: String?

        @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.")
        var tlsKey: String?

        @Option(help: "Seconds a request's body may take to arrive in full; a slower one is answered 408 and closed.")
        var requestBodyTimeout = 30.0

        @Flag(help: "Also serve the page's tests and benchmark (test/, bench/ under --web): for development only.")
        var serveTestPages = false

        @Option(help: "Open sync connections allowed from one IP address; more are refused with 429.")
        var connectionsPerAddress = ServerLimits().maximumConnectionsPerAddress

        @Option(
            help: """
                Seconds between the server's pings on a sync connection; one that has not answered the previous \
                ping is closed. Keep it under any idle timeout of a proxy in front.
                """
        )
        var idleTimeout = 30.0

        @Option(help: "Bytes of packs one board may hold on this server; pushes past it are refused (roomFull).")
        var roomBytes = ServerLimits().maximumRoomBytes

        @Option(
            help: """
                Bytes of blobs (images) one board may hold, each counted as at least 4096; an upload past it is \
                refused with 413.
                """
        )
        var roomBlobBytes = ServerLimits().maximumBlobBytesPerRoom

        @Option(help: "Blob bytes one IP address may upload per second (a burst of 64 MiB at once); more get 429.")
        var blobBytesPerSecond = ServerLimits().blobBytesPerSecondPerAddress

        @Option(
            help: """
                Hours an author or device counts as present in a board after it was last seen. A board's old packs \
                are dropped once every present author has checked a snapshot that stands for them; a device away \
                longer starts again from that snapshot.
                """
        )
        var retentionHours = 30.0 * 24

        @Option(help: "Seconds between passes that drop packs a checked snapshot stands for.")
        var compactionInterval = 60.0

        @Option(help: "Milliseconds the first push of a commit waits to share its fsync with others.")
        var commitLinger = 0.0

        @Option(
            help:
                "Milliseconds a member's presence waits for more before it is sent, when nothing else is (0 sends at once)."
        )
        var presenceHold = 50.0

        @Flag(
            help: """
                Advertise this server on the local network (DNS-SD/mDNS, _inkwell._tcp), so that `inkwell join \
                ROOM --lan` finds it without a URL. Listens on every interface unless --host says otherwise.
                """
        )
        var lan = false

        @Option(
            help: """
                Sync this server's rooms with another server, both ways, whenever it can be reached: a server \
                (every room this one holds) or a board's link (that room). Repeatable. Makes a LAN hub that \
                keeps rooms while the internet is down.
                """
        )
        var upstream: [String] = []

        @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
        var logLevel = "info"

        /// For the power-loss tests only: a SIGKILL then leaves the data as a power cut would.
        @Flag(help: .hidden)
        var crashVFS = false

        mutating func validate() throws {
            guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
            guard connectionsPerAddress >= 1 else {
                throw ValidationError("--connections-per-address must be at least 1")
            }
            guard roomBytes >= 1 else { throw ValidationError("--room-bytes must be at least 1") }
            guard roomBlobBytes >= 0 else { throw ValidationError("--room-blob-bytes must not be negative") }
            guard blobBytesPerSecond > 0, blobBytesPerSecond.isFinite else {
                throw ValidationError("--blob-bytes-per-second must be positive")
            }
            guard retentionHours > 0, retentionHours <= 24 * 3_650 else {
                throw ValidationError("--retention-hours must be more than 0 and at most ten years")
            }
            guard compactionInterval >= 0.01, compactionInterval <= 86_400 else {
                throw ValidationError("--compaction-interval must be between 0.01 and 86400 seconds")
            }
            guard commitLinger >= 0, commitLinger <= 1_000 else {
                throw ValidationError("--commit-linger must be between 0 and 1000 ms")
            }
            guard presenceHold >= 0, presenceHold <= 1_000 else {
                throw ValidationError("--presence-hold must be between 0 and 1000 ms")
            }
            guard idleTimeout >= 0.1, idleTimeout <= 3_600 else {
                throw ValidationError("--idle-timeout must be between 0.1 and 3600 seconds")
            }
            guard requestBodyTimeout > 0, requestBodyTimeout <= 3_600 else {
                throw ValidationError("--request-body-timeout must be between 0 and 3600 seconds")
            }
            guard (tlsCertificate == nil) == (tlsKey == nil) else {
                throw ValidationError("--tls-cert and --tls-key go together")
            }
            for url in publicURLs where URL(string: url)?.host == nil {
                throw ValidationError("--public-url \(url) is not a URL such as https://board.example.com")
            }
            do {
                _ = try TrustedProxies(trustedProxies)
            } catch {
                throw ValidationError(error.description)
            }
            for argument in upstream {
                _ = try Upstream(argument)
            }
            guard upstream.isEmpty || tlsCertificate == nil else {
                // The relays reach the hub's own socket on its loopback address, which TLS would not answer.
                throw ValidationError("--upstream is for a hub serving plain http on its network; drop --tls-cert")
            }
            guard upstream.isEmpty || postgres == nil else {
                throw ValidationError("--upstream is for a hub on its own SQLite store, not a node on PostgreSQL")
            }
            // A hub is for the local network: on loopback alone no other machine would reach it.
            if lan, host == "127.0.0.1" { host = "0.0.0.0" }
            guard Logger.Level(rawValue: logLevel) != nil else {
                throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
            }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let logger = Logger(label: "inkwell.server")
            if crashVFS {
                try CrashVFS.arm(data)
                logger.warning("the crash VFS holds unsynced writes of \(data) in memory: for power-loss tests only")
            }
            let webRoot = web ?? WebClient.directory()?.path
            if let webRoot {
                logger.info("serving the web client from \(webRoot)")
            } else {
                let searched = WebClient.candidates.map(\.path).joined(separator: ", ")
                logger.warning("no web client (no index.html in \(searched)): / answers 404; --web DIR serves one")
            }
            var limits = ServerLimits()
            limits.maximumConnectionsPerAddress = connectionsPerAddress
            limits.maximumRoomBytes = roomBytes
            limits.maximumBlobBytesPerRoom = roomBlobBytes
            limits.blobBytesPerSecondPerAddress = blobBytesPerSecond
            limits.idleTimeout = .milliseconds(Int64((idleTimeout * 1_000).rounded()))
            var configuration = ServerConfiguration(
                host: host,
                port: port,
                dataDirectory: data,
                webRoot: webRoot,
                allowedOrigins: Set(allowedOrigins),
                publicURLs: publicURLs.compactMap(URL.init(string:)),
                tls: tlsCertificate.flatMap { certificate in
                    tlsKey.map { ServerConfiguration.TLSFiles(certificateChain: certificate, privateKey: $0) }
                },
                trustedProxies: trustedProxies,
                requestBodyTimeout: .microseconds(Int64(requestBodyTimeout * 1_000_000)),
                servesTestPages: serveTestPages,
                commitLinger: .microseconds(Int64(commitLinger * 1_000)),
                presenceHold: .microseconds(Int64(presenceHold * 1_000)),
                limits: limits,
                openRooms: openRooms,
                retention: .milliseconds(Int64(retentionHours * 3_600_000)),
                compactionInterval: .milliseconds(Int64(compactionInterval * 1_000))
            )
            configuration.socketRoutes = [InteropRoute.make(host: host, tls: configuration.tls != nil)]
            configuration.advertisedOnLAN = lan
            let hub = HubRole(
                advertise: lan,
                upstreams: try upstream.map(Upstream.init),
                tls: configuration.tls != nil,
                logger: logger
            )
            let announce: @Sendable (String, Int) async -> Void = { host, port in
                // Scripts and tests wait for this line; it must not sit in a buffer.
                FileHandle.standardOutput.write(Data("listening on \(host):\(port)\n".utf8))
                await hub.listening(host: host, port: port)
            }
            let server: any Service
            if let postgres {
                server = PostgresNode(
                    configuration: configuration,
                    url: postgres,
                    logger: logger,
                    onListening: announce
                )
            } else {
                let sqlite = try SyncServer(configuration: configuration, logger: logger, onListening: announce)
                await hub.attach(sqlite)
                server = sqlite
            }
            defer { Task { await hub.stop() } }
            let group = ServiceGroup(
                configuration: .init(
                    services: [server],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await group.run()
        }
    }
}
