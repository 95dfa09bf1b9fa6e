import Foundation
import InkwellTesting
import Testing

/// `inkwell serve --trusted-proxy`: refused at start unless it is an address or block, and once given, the
/// request log names the client the proxy forwarded, not the proxy.
@Suite(.timeLimit(.minutes(2)))
struct TrustedProxyCommandTests {
    @Test func anOptionThatIsNoAddressOrBlockStopsTheServer() async throws {
        let folder = try TemporaryDirectory("trusted-proxy-refused")
        for (option, words) in [
            ("proxy.example.com", "the trusted proxy proxy.example.com is not an IP address or block"),
            ("10.0.0.1/8", "has bits set past its prefix: did you mean 10.0.0.0/8?"),
        ] {
            let result = try await InkwellProcess.running([
                "serve", "--port", "0", "--data", folder.path + "/data", "--trusted-proxy", "127.0.0.1",
                "--trusted-proxy", option,
            ])
            #expect(result.status != 0)
            #expect(result.standardError.contains(words), "\(result.standardError)")
            #expect(!result.standardOutput.contains("listening on"))
        }
        let help = try await InkwellProcess.running(["serve", "--help"])
        #expect(help.standardOutput.contains("--trusted-proxy"), "\(help.standardOutput)")
    }

    @Test func theRequestLogNamesTheForwardedClient() async throws {
        let folder = try TemporaryDirectory("trusted-proxy-log")
        let trusting = try await ServerProcess.start(
            data: folder.url.appendingPathComponent("trusting"),
            logLevel: "info",
            arguments: ["--trusted-proxy", "127.0.0.1"]
        )
        let other = try await ServerProcess.start(data: folder.url.appendingPathComponent("other"), logLevel: "info")
        for server in [trusting, other] {
            #expect(server.get("/healthz", headers: ["X-Forwarded-For: 6.6.6.6, 198.51.100.7"])?.status == 200)
        }
        try await Self.waitForRequestLine(in: trusting)
        try await Self.waitForRequestLine(in: other)
        let lines = { (server: ServerProcess) in
            server.child.standardError.split(separator: "\n").filter { $0.hasSuffix(" request") }
        }
        #expect(
            lines(trusting).count == 1 && lines(trusting)[0].contains("client.address=198.51.100.7"),
            "\(lines(trusting))"
        )
        #expect(lines(other).count == 1 && lines(other)[0].contains("client.address=127.0.0.1"), "\(lines(other))")
        _ = await trusting.stop()
        _ = await other.stop()
    }

    private static func waitForRequestLine(in server: ServerProcess) async throws {
        for _ in 0..<100 where !server.child.standardError.contains(" request\n") {
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
