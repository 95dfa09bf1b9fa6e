import Foundation
import InkwellTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Real `inkwell join` processes draw in one room through a real server while they are cut off, killed,
/// kept offline and the server itself dies: in the end every peer holds the same board.
@Suite(.serialized) struct PeerConvergenceTests {
    @Test func peersConvergeThroughDisconnectsOfflineSpellsAndServerRestarts() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("PeerConvergenceTests seed \(seed) (INKWELL_SEED)")
        var random = SeededGenerator(seed: seed)
        let serverData = try TemporaryDirectory("converge-server")
        let peers = try (0..<3).map { try TemporaryDirectory("converge-peer-\($0)") }
        var server: ServerProcess? = try await ServerProcess.start(data: serverData.url)
        let port = server!.port
        let address = "http://127.0.0.1:\(port)"
        // Some rounds the server is down, at least one of them whatever the seed: peers draw offline and
        // keep it in their stores.
        let surelyDown = Int.random(in: 1..<5, using: &random)
        var kills = 0
        for round in 0..<5 {
            if round > 0, round == surelyDown || Int.random(in: 0..<3, using: &random) == 0 {
                await server?.kill()
                server = nil
                kills += 1
            }
            var running: [ChildProcess] = []
            for peer in peers {
                var arguments = [
                    "join", "room", "--server", address, "--data", peer.path,
                    "--draw", "\(Int.random(in: 1...12, using: &random))",
                    "--seed", "\(random.next())",
                ]
                if Bool.random(using: &random) { arguments += ["--rate", "400"] }
                if Bool.random(using: &random) { arguments.append("--offline-first") }
                running.append(try ChildProcess(arguments))
            }
            try await Task.sleep(for: .milliseconds(Int64.random(in: 300...1_200, using: &random)))
            for process in running {
                // A clean leave or a dropped connection, whatever state the peer was in.
                process.signal(Bool.random(using: &random) ? SIGTERM : SIGKILL)
                await process.waitForExit()
            }
            if server == nil { server = try await ServerProcess.start(data: serverData.url, port: port) }
        }
        print("PeerConvergenceTests: the server was killed in \(kills) of 4 rounds")
        // Each peer uploads what it kept, then each downloads what the others did.
        var lines: [String] = []
        for pass in 0..<2 {
            lines = []
            for peer in peers {
                let result = try await InkwellProcess.running([
                    "join", "room", "--server", address, "--data", peer.path, "--wait-synced", "--timeout", "60",
                ])
                #expect(result.status == 0, "pass \(pass): \(result.standardError)")
                lines.append(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        // A newcomer exporting from the server, and every peer exporting from its own store with the
        // server down, see the same board, byte for byte.
        let exports = try TemporaryDirectory("converge-export")
        let fromServer = try await InkwellProcess.running([
            "export", "room", "--server", address, "--svg", exports.path + "/server.svg",
        ])
        _ = await server?.stop()
        var results = [fromServer]
        for (index, peer) in peers.enumerated() {
            results.append(
                try await InkwellProcess.running([
                    "export", "room", "--data", peer.path, "--svg", exports.path + "/peer-\(index).svg",
                ])
            )
        }
        for result in results {
            #expect(result.status == 0, "\(result.standardError)")
            lines.append(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let svgs = try (["server"] + peers.indices.map { "peer-\($0)" }).map {
            try Data(contentsOf: URL(fileURLWithPath: exports.path + "/\($0).svg"))
        }
        #expect(Set(svgs).count == 1 && svgs[0].count > 1_000, "every export is the same SVG")
        print("PeerConvergenceTests: \(lines)")
        #expect(Set(lines).count == 1, "peers differ: \(lines)")
        #expect(lines.first?.contains(" 0 changes") == false)
    }
}
