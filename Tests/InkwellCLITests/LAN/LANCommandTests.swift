import Foundation
import InkwellTesting
import Testing

/// Sync without the cloud, with real processes: two `inkwell join --lan` peers on two "machines" (network
/// namespaces joined by a veth pair) find each other by mDNS and sync with no server; and a hub started
/// with `--upstream` keeps a room while its upstream server is down, then syncs it both ways.
@Suite(.serialized) struct LANCommandTests {
    /// The peer's line: `room R board B: N changes, S strokes, hash H`.
    static func report(_ output: String) -> String {
        output.split(separator: "\n").last { $0.hasPrefix("room ") }.map(String.init) ?? ""
    }

    @Test func twoPeersOnTwoMachinesFindEachOtherAndSyncWithNoServer() async throws {
        let namespaces: NetworkNamespaces
        switch NetworkNamespaces.make() {
        case .success(let made): namespaces = made
        case .failure(let failure):
            try #require(
                ProcessInfo.processInfo.environment["CI"] == nil || getuid() != 0,
                "CI runs as root and must make network namespaces: \(failure)"
            )
            print(
                "twoPeersOnTwoMachinesFindEachOtherAndSyncWithNoServer: skipped, network namespaces are not permitted here (\(failure))"
            )
            return
        }
        let scratch = try TemporaryDirectory("lan-peers")
        let first = try namespaces.inkwell(
            0,
            [
                "join", "lan-room", "--lan", "--data", scratch.url.appendingPathComponent("a").path, "--draw", "20",
                "--seed", "1",
                "--log-level", "notice",
            ]
        )
        // It finds no hub and becomes one.
        let deadline = ContinuousClock.now + .seconds(30)
        while !first.standardError.contains("this peer is the hub") {
            try #require(
                first.isRunning && ContinuousClock.now < deadline,
                "the first peer became the hub: \(first.diagnostics)"
            )
            try await Task.sleep(for: .milliseconds(20))
        }
        let second = try namespaces.inkwell(
            1,
            [
                "join", "lan-room", "--lan", "--data", scratch.url.appendingPathComponent("b").path, "--draw", "15",
                "--seed", "2",
                "--wait-synced", "--log-level", "notice",
            ]
        )
        #expect(await second.waitForExit(timeout: .seconds(60)) == 0, "\(second.diagnostics)")
        #expect(second.standardError.contains("syncing through a hub on the local network"), "\(second.standardError)")
        // The first peer has what the second drew once it holds 35 changes; it reports on SIGINT.
        try await Task.sleep(for: .milliseconds(500))
        first.signal(SIGINT)
        #expect(await first.waitForExit(timeout: .seconds(30)) == 0, "\(first.diagnostics)")
        let a = Self.report(first.standardOutput)
        let b = Self.report(second.standardOutput)
        #expect(a.contains(": 35 changes, 35 strokes, hash "), "\(a)")
        #expect(a == b, "A: \(a)\nB: \(b)")
    }

    /// Two peers started at once both find no hub and both become one: each hub finds the other, and the
    /// one whose name sorts later relays its rooms to the other, so they still hold one board.
    @Test func twoPeersStartedAtOnceBecomeTwoHubsThatLinkUp() async throws {
        let scratch = try TemporaryDirectory("lan-two-hubs")
        let peers = try (0..<2).map { index in
            try ChildProcess([
                "join", "two-hubs-\(getpid())", "--lan", "--data",
                scratch.url.appendingPathComponent("peer-\(index)").path,
                "--draw", "\(4 + index)", "--seed", "\(index + 1)", "--log-level", "notice",
            ])
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while !peers.allSatisfy({ $0.standardError.contains("this peer is the hub") }) {
            try #require(
                peers.allSatisfy(\.isRunning) && ContinuousClock.now < deadline,
                "both peers became hubs: \(peers.map(\.diagnostics))"
            )
            try await Task.sleep(for: .milliseconds(20))
        }
        // A look for other hubs every three seconds, then the relay: well within ten.
        try await Task.sleep(for: .seconds(10))
        for peer in peers { peer.signal(SIGINT) }
        for peer in peers { #expect(await peer.waitForExit(timeout: .seconds(30)) == 0, "\(peer.diagnostics)") }
        let reports = peers.map { Self.report($0.standardOutput) }
        #expect(reports[0].contains(": 9 changes, 9 strokes, hash "), "\(reports)")
        #expect(reports[0] == reports[1], "\(reports)")
    }

    @Test func aHubKeepsARoomWhileItsUpstreamIsDownAndSyncsBothWaysAfter() async throws {
        let scratch = try TemporaryDirectory("lan-upstream")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        let upstream = try await ServerProcess.start(data: scratch.url.appendingPathComponent("upstream"))
        let upstreamPort = upstream.port
        let hub = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("hub"),
            arguments: ["--upstream", upstream.address]
        )
        defer { Task { _ = await hub.stop() } }
        func join(_ server: String, _ data: String, _ extra: [String] = []) async throws -> String {
            let result = try await InkwellProcess.running(
                ["join", "hub-room", "--server", server, "--data", path(data), "--wait-synced", "--timeout", "60"]
                    + extra
            )
            #expect(result.status == 0, "\(result.standardError)")
            return Self.report(result.standardOutput)
        }
        /// Joins until the peer holds `count` changes (the relay carries them meanwhile).
        func converged(_ server: String, _ data: String, count: Int) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                let line = try await join(server, data)
                if line.contains(": \(count) changes") || ContinuousClock.now > deadline { return line }
                try await Task.sleep(for: .milliseconds(200))
            }
        }

        _ = try await join(hub.address, "near", ["--draw", "4", "--seed", "1"])
        _ = try await join(upstream.address, "far", ["--draw", "3", "--seed", "2"])
        let nearBefore = try await converged(hub.address, "near", count: 7)
        let farBefore = try await converged(upstream.address, "far", count: 7)
        #expect(nearBefore.contains(": 7 changes") && nearBefore == farBefore, "near: \(nearBefore)\nfar: \(farBefore)")

        // The internet goes: the hub's side keeps drawing; so does a device far away, offline, kept in its store.
        _ = await upstream.stop()
        _ = try await join(hub.address, "near", ["--draw", "5", "--seed", "3"])
        let offline = try await InkwellProcess.running([
            "join", "hub-room", "--server", upstream.address, "--data", path("far"), "--draw", "2", "--seed", "4",
            "--offline-first", "--wait-synced", "--timeout", "2",
        ])
        #expect(offline.status != 0, "the upstream is down: the far device keeps its strokes")

        // It comes back, on the same port: everything meets, once.
        let restored = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("upstream"),
            port: upstreamPort
        )
        defer { Task { _ = await restored.stop() } }
        _ = try await join(restored.address, "far")
        let near = try await converged(hub.address, "near", count: 14)
        let far = try await converged(restored.address, "far", count: 14)
        #expect(near.contains(": 14 changes, 14 strokes"), "\(near)")
        #expect(near == far, "near: \(near)\nfar: \(far)")
        let fresh = try await join(hub.address, "fresh")
        #expect(fresh == near, "a new device on the hub: \(fresh)")
    }
}
