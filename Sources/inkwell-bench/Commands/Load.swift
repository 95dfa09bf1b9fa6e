import ArgumentParser
import Foundation
import InkwellCommandLine
import Logging

extension InkwellBench {
    /// Puts a running server under load from many connections in one process and reports latencies.
    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load a running server with many drawing connections and measure push-to-receipt latency.",
            discussion: """
                Opens ROOMS × MEMBERS WebSocket connections (over --ramp seconds), each subscribed to its room. \
                Once all are live, DRAWERS members of each room stream their in-progress stroke as presence \
                every --presence-interval-ms and push each finished stroke as a pack of one addStroke change. \
                After --warmup seconds, --duration seconds are measured: push → receipt by each other member, \
                push → ack, and presence → receipt, with lost receipts counted. Build with -c release; give \
                --server-pid to report the server's CPU and memory too (Linux). Exits with 1 when connections \
                fail or nothing was pushed. --idle-rooms adds rooms where every member only watches, as people who \
                have a board open and are not drawing.
                """
        )

        @Option(
            help: """
                The server, e.g. http://127.0.0.1:8080. Repeat it for the nodes of a cluster: each room's members \
                are spread over them in turn, so that most receipts cross from one node to another.
                """
        )
        var server: [String]

        @Option(help: "Rooms.")
        var rooms = 100

        @Option(help: "Connections per room.")
        var members = 10

        @Option(help: "Drawing members per room (default: all).")
        var drawers: Int?

        @Option(help: "Rooms of --members connections each, after the drawing rooms, where nobody draws.")
        var idleRooms = 0

        @Option(help: "Measured seconds.")
        var duration = 30.0

        @Option(help: "Seconds of drawing before measuring starts.")
        var warmup = 5.0

        @Option(help: "Points each drawer adds per second.")
        var pointsPerSecond = 15.0

        @Option(help: "Strokes each drawer commits per second.")
        var strokesPerSecond = 1.0

        @Option(help: "Milliseconds between a drawer's presence frames.")
        var presenceIntervalMs = 200.0

        @Option(help: "Seconds over which the connections are opened.")
        var ramp = 2.0

        @Flag(
            inversion: .prefixedNo,
            help: "Open each room's first member alone before the others (--no-rooms-first: all in one ramp)."
        )
        var roomsFirst = true

        @Option(help: "Seconds to wait for every connection to be live before drawing starts without the rest.")
        var liveTimeout = 60.0

        @Option(help: "Seconds to wait after drawing stops for the last receipts.")
        var drain = 10.0

        @Option(help: "The server's process id: its CPU time and memory are read from /proc.")
        var serverPid: Int32?

        @Option(help: "Room names start with this (default: load-RANDOM, so every run starts from empty rooms).")
        var roomPrefix: String?

        @Option(help: "Seed for the strokes and timings (default: random).")
        var seed: UInt64?

        @Flag(help: "Print one JSON object per figure instead of a table.")
        var json = false

        @Option(help: "Log level on standard error.")
        var logLevel = "warning"

        mutating func validate() throws {
            guard rooms >= 1, members >= 1 else { throw ValidationError("--rooms and --members must be at least 1") }
            guard idleRooms >= 0 else { throw ValidationError("--idle-rooms must not be negative") }
            if let drawers, !(0...members).contains(drawers) {
                throw ValidationError("--drawers must be between 0 and --members")
            }
            guard duration > 0, warmup >= 0, ramp >= 0, drain >= 0, liveTimeout > 0 else {
                throw ValidationError(
                    "--duration and --live-timeout must be positive; --warmup, --ramp and --drain not negative"
                )
            }
            guard pointsPerSecond > 0, strokesPerSecond > 0, presenceIntervalMs > 0 else {
                throw ValidationError(
                    "--points-per-second, --strokes-per-second and --presence-interval-ms must be positive"
                )
            }
            guard !server.isEmpty else { throw ValidationError("give --server") }
            for address in server { _ = try ServerAddress.syncURL(address) }
        }

        func run() async throws {
            ProcessLogging.bootstrap(level: logLevel)
            let seed = seed ?? UInt64.random(in: 0...UInt64.max)
            let configuration = LoadRun.Configuration(
                urls: try server.map { try ServerAddress.syncURL($0).absoluteString },
                rooms: rooms,
                members: members,
                drawers: drawers ?? members,
                idleRooms: idleRooms,
                duration: .milliseconds(Int64(duration * 1_000)),
                warmup: .milliseconds(Int64(warmup * 1_000)),
                pointsPerSecond: pointsPerSecond,
                strokesPerSecond: strokesPerSecond,
                presenceInterval: .microseconds(Int64(presenceIntervalMs * 1_000)),
                ramp: .milliseconds(Int64(ramp * 1_000)),
                roomsFirst: roomsFirst,
                liveTimeout: .milliseconds(Int64(liveTimeout * 1_000)),
                drain: .milliseconds(Int64(drain * 1_000)),
                roomPrefix: roomPrefix ?? "load-" + String(seed % 0x100_0000, radix: 16),
                seed: seed,
                serverPID: serverPid
            )
            let report = await LoadRun(configuration: configuration, logger: Logger(label: "inkwell.load")).run()
            if json {
                for line in report.json { print(line) }
            } else {
                print(report.table)
            }
            if report.failed { throw ExitCode.failure }
        }
    }
}
