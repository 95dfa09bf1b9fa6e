import ArgumentParser
import Foundation
import InkwellBoard
import InkwellClient
import InkwellCommandLine
import InkwellDiscovery
import InkwellGeometry
import InkwellStore
import InkwellSync
import InkwellWeb
import InkwellWire
import Logging
import UnixSignals

extension Inkwell {
    /// A headless peer: a replica with its own local store that holds the board live, draws if asked,
    /// and syncs.
    ///
    /// Its options are a contract: scripts check convergence between real processes with them.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join a room as a headless peer with its own local store.",
            discussion: """
                Syncs ROOM with the server, or with --folder through a shared folder, until SIGINT or SIGTERM, \
                or with --wait-synced until nothing is left to upload or download. On exit it prints one line: \
                "room ROOM board BOARD: N changes, S strokes, hash H" (H is the board's canonical hash, equal \
                on every peer that holds the same changes). Given a link, the store keeps what it opens, so \
                later runs with the same --data may name just the room.
                """
        )

        @Argument(
            help: "The room to join, or a board's link (http(s)://HOST/r/ROOM?cap=…#key=…), which names the server."
        )
        var room: String

        @Option(
            help: """
                The server, e.g. http://127.0.0.1:8080 (not needed with a link). Repeat it for the nodes of one \
                cluster: they are tried in turn, and the peer goes on with another when its node dies.
                """
        )
        var server: [String] = []

        @Option(
            help: """
                Sync through this shared folder instead of a server: a folder that another tool (a file-sync \
                service, rsync, a USB stick) copies between machines. This peer appends to its own file there \
                and reads the others'.
                """
        )
        var folder: String?

        @Flag(
            help: """
                Sync through a hub on the local network, found by DNS-SD/mDNS (_inkwell._tcp) without a URL. If \
                none answers, this peer becomes the hub: it serves the room (and the page) on a free port of every \
                interface and advertises it, so the next peer finds it.
                """
        )
        var lan = false

        @Option(help: "The local store's directory (default: a store in memory, gone on exit).")
        var data: String?

        @Option(help: "The board within the room.")
        var board = "main"

        @Option(help: "Draw this many synthetic strokes.")
        var draw = 0

        @Option(help: "Draw at this many points per second (default: each stroke at once).")
        var rate: Double?

        @Flag(help: "Make the edits before connecting, as if drawn offline.")
        var offlineFirst = false

        @Flag(help: "Exit once nothing is left to upload or download.")
        var waitSynced = false

        @Option(help: "Seconds --wait-synced waits before giving up with an error.")
        var timeout = 120.0

        @Option(help: "Place this image (PNG, JPEG, GIF or WebP) on the board: uploaded as a blob, then added.")
        var image: String?

        @Option(help: "The placed image's size on the board, WIDTHxHEIGHT (default: a PNG's or GIF's own).")
        var imageSize: String?

        @Option(help: "Write the board as SVG to this file on exit.")
        var exportSvg: String?

        @Option(help: "Seed for the synthetic strokes (default: random).")
        var seed: UInt64?

        @Option(help: "Log level on standard error.")
        var logLevel = "warning"

        /// For the power-loss tests only: the store's files under --data and this peer's file in --folder go
        /// through the crash VFS, so a SIGKILL leaves them as a power cut would.
        @Flag(help: .hidden)
        var crashVFS = false

        /// For the power-loss tests only: with --crash-vfs, the power goes off under --folder at the N-th
        /// write or sync of this peer's file there (and stays off).
        @Option(help: .hidden)
        var crashVFSCutAfter: UInt64?

        mutating func validate() throws {
            guard draw >= 0 else { throw ValidationError("--draw must not be negative") }
            if let rate, !(rate > 0) { throw ValidationError("--rate must be positive") }
            guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
            if lan {
                guard server.isEmpty, folder == nil else {
                    throw ValidationError("give --lan alone, without --server or --folder")
                }
                _ = try BoardTarget(room, servers: [])
                return
            }
            if let folder {
                guard server.isEmpty else { throw ValidationError("give --folder or --server, not both") }
                guard image == nil else { throw ValidationError("placing an image needs a server") }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
                else { throw ValidationError("--folder \(folder) is not a directory") }
                _ = try BoardTarget(room, servers: [])
                return
            }
            guard try !BoardTarget(room, servers: server).syncURLs.isEmpty else {
                throw ValidationError("give --server, --folder, or a board's link")
            }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let logger = Logger(label: "inkwell.join")
            if crashVFS {
                for directory in [data, folder].compactMap({ $0 }) { try CrashVFS.arm(directory) }
                if let folder, let crashVFSCutAfter { CrashVFS.cutPower(under: folder, after: crashVFSCutAfter) }
                logger.warning("the crash VFS holds unsynced writes in memory: for power-loss tests only")
            }
            let target = try BoardTarget(room, servers: server)
            let room = target.room
            let store = try LocalStore.open(data)
            try target.remember(in: store)
            let types = DocumentTypes(documents: [BoardState.self])
            var servers = target.syncURLs
            var hub: EmbeddedHub?
            if lan { (servers, hub) = try await findHub(store: data, logger: logger) }
            let replica =
                if let folder {
                    try await Replica(
                        store: store,
                        folder: URL(fileURLWithPath: folder, isDirectory: true),
                        documentTypes: types,
                        logger: logger
                    )
                } else {
                    try await Replica(store: store, servers: servers, documentTypes: types, logger: logger)
                }
            try await replica.open(BoardState.self, room: room, document: board)
            let updates = await replica.updates(of: BoardState.self, room: room, document: board)
            let watching = Task {
                for await update in updates where update.origin != .local {
                    logger.debug(
                        "applied changes",
                        metadata: ["changes": "\(update.changes.count)", "hash": "\(update.state.canonicalHash)"]
                    )
                }
            }
            var artist = SyntheticDrawing(seed: seed ?? UInt64.random(in: 0...UInt64.max))
            if offlineFirst { try await drawStrokes(with: replica, room: room, artist: &artist) }
            let running = Task { try await replica.run() }
            if !offlineFirst { try await drawStrokes(with: replica, room: room, artist: &artist) }
            if let image { try await place(image, with: replica, room: room) }
            if waitSynced {
                do {
                    try await replica.waitUntilSynced(timeout: .milliseconds(Int64(timeout * 1_000)))
                } catch {
                    let progress = await replica.sync?.currentProgress
                    let refusal = await replica.sync?.refusal(room: room)
                    await replica.stop()
                    _ = try? await running.value
                    let reason = refusal.map { "the server refused the room: \($0)" } ?? progress.map { "\($0)" } ?? ""
                    throw ValidationError("not synced within \(timeout) s: \(reason)")
                }
            } else {
                let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
                for await _ in signals { break }
            }
            let refusal = await replica.sync?.refusal(room: room)
            let state = await replica.state(of: BoardState.self, room: room, document: board)!
            // The images' bytes, into the store, so that they show offline from now on.
            let images = await BoardImages.gather(
                for: state,
                room: room,
                store: store,
                client: replica.sync,
                logger: logger
            )
            await replica.stop()
            try await running.value
            await hub?.stop()
            if let refusal { throw ValidationError("the server refused the room: \(refusal)") }
            watching.cancel()
            try BoardReport(room: room, board: board, state: state, images: images).write(svg: exportSvg)
        }

        /// The hub on the LAN to sync through: one that answers, or this process's own, started now.
        private func findHub(store data: String?, logger: Logger) async throws -> ([URL], EmbeddedHub?) {
            let started = ContinuousClock.now
            let found = try await Task.detached { try ServiceBrowser.browse(first: true) }.value
            if let hub = found.first, let url = URL(string: "ws://\(hub.host):\(hub.port)/sync") {
                let elapsed = ContinuousClock.now - started
                // To a hundredth of a millisecond: on a quiet LAN an answer takes well under one.
                let milliseconds = (elapsed / .microseconds(10)).rounded() / 100
                logger.notice(
                    "syncing through a hub on the local network",
                    metadata: ["hub": "\(hub.instance)", "url": "\(url)", "found_ms": "\(milliseconds)"]
                )
                return ([url], nil)
            }
            let directory =
                data.map { $0 + "/hub" }
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-hub-\(UUID().uuidString)")
                .path
            let hub = try await EmbeddedHub.start(
                directory: directory,
                webRoot: WebClient.directory()?.path,
                logger: logger
            )
            logger.notice("no hub answered: this peer is the hub", metadata: ["port": "\(hub.port)"])
            return ([hub.syncURL], hub)
        }

        /// Uploads the image's bytes as a blob of the room (sealed in an encrypted one), then adds it to the
        /// board at the origin; the blob first, so no peer names bytes the room does not hold.
        private func place(_ path: String, with replica: Replica, room: String) async throws {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let type = ImageFormat.type(of: bytes) else {
                throw ValidationError("\(path) is not a PNG, JPEG, GIF or WebP image")
            }
            let size = try imageSize.map(Self.parseSize) ?? ImageFormat.size(of: bytes).map { (Double($0), Double($1)) }
            guard let (width, height) = size else { throw ValidationError("give --image-size for \(path)") }
            guard let sync = replica.sync else { throw ValidationError("placing an image needs a server") }
            let blob = try await sync.uploadBlob(bytes, room: room)
            let placed = BoardImage(
                blob: blob.digest,
                byteCount: UInt64(try sync.sealedSize(of: bytes, room: room)),
                type: type,
                width: width,
                height: height
            )
            guard placed.isValid else { throw ValidationError("the image's size is out of range") }
            try await replica.edit(
                BoardEdit(board: BoardID(board), operations: [.addImage(placed, at: Point(0, 0))]),
                room: room
            )
        }

        /// `WIDTHxHEIGHT` in board pixels.
        static func parseSize(_ text: String) throws -> (Double, Double) {
            let parts = text.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2 else { throw ValidationError("--image-size is WIDTHxHEIGHT, e.g. 320x240") }
            return (parts[0], parts[1])
        }

        /// Records the strokes: whole, or streamed at `rate` points per second as a stroke and its appends.
        private func drawStrokes(with client: Replica, room: String, artist: inout SyntheticDrawing) async throws {
            for _ in 0..<draw {
                let stroke = artist.nextStroke()
                guard let rate else {
                    let edit = BoardEdit(
                        board: BoardID(board),
                        operations: [.addStroke(stroke.style, points: stroke.points, pressures: stroke.pressures)]
                    )
                    try await client.edit(edit, room: room)
                    continue
                }
                // Ten appends per second, like a pen's input batched per frame.
                let chunk = max(1, Int((rate / 10).rounded()))
                let first = BoardEdit(
                    board: BoardID(board),
                    operations: [
                        .addStroke(
                            stroke.style,
                            points: Array(stroke.points.prefix(chunk)),
                            pressures: Array(stroke.pressures.prefix(chunk))
                        )
                    ]
                )
                let id = StrokeID(change: try await client.edit(first, room: room).id)
                var start = chunk
                while start < stroke.points.count {
                    try await Task.sleep(for: .milliseconds(Int64(Double(chunk) / rate * 1_000)))
                    let end = min(start + chunk, stroke.points.count)
                    let append = BoardEdit(
                        board: BoardID(board),
                        operations: [
                            .appendPoints(
                                id,
                                points: Array(stroke.points[start..<end]),
                                pressures: Array(stroke.pressures[start..<end])
                            )
                        ]
                    )
                    try await client.edit(append, room: room)
                    start = end
                }
            }
        }

    }
}

/// Opens the peer's store: the one kept in `directory`, or one in memory.
enum LocalStore {
    static func open(_ directory: String?) throws -> Store {
        guard let directory else { return try Store.inMemory() }
        return try Store(directory: directory)
    }
}
