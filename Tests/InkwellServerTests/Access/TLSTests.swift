import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import InMemoryLogging
import InkwellServer
import InkwellSync
import InkwellTesting
import InkwellWire
import Logging
import NIOCore
import NIOSSL
import Testing

/// `--tls-cert` and `--tls-key`: HTTPS and WSS on the server's one port, with a certificate made for the test.
@Suite struct TLSTests {
    @Test func healthAndTheSyncSocketAreServedOverTLS() async throws {
        let folder = try TemporaryDirectory("tls")
        let files = try Self.selfSignedCertificate(in: folder)
        let server = try await RunningServer.start { $0.tls = files }
        let client = try Self.clientConfiguration(trusting: files)

        let health = try await TestClient.withClient(
            host: "localhost",
            port: server.port,
            configuration: .init(tlsConfiguration: client, serverName: "localhost")
        ) { client in
            try await client.execute(.init("/healthz", method: .get, authority: "localhost:\(server.port)"))
        }
        #expect(health.status == .ok)
        #expect((health.body.map { String(buffer: $0) } ?? "").contains(#""status":"ok""#))
        #expect(
            health.headers[.contentSecurityPolicy]?.contains("connect-src 'self' wss://localhost:\(server.port);")
                == true
        )

        // The sync socket: the handshake, then hello and welcome, through the guards that hold plain sockets.
        let welcomed = try await Self.helloOverWSS(port: server.port, trusting: client)
        #expect(welcomed)
        await server.stop()
    }

    @Test func plainHTTPOnTheTLSPortIsRefused() async throws {
        let folder = try TemporaryDirectory("tls-plain")
        let files = try Self.selfSignedCertificate(in: folder)
        let logs = InMemoryLogHandler()
        let server = try await RunningServer.start(logger: Logger(label: "test.server") { _ in logs }) {
            $0.tls = files
        }
        let response = try await RawHTTP.exchange(
            port: server.port,
            head: "GET /healthz HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n",
            timeout: 10
        )
        #expect(response.status == 400)
        #expect(String(decoding: response.body, as: UTF8.self) == "this port speaks HTTPS: use https\n")
        #expect(response.headers["connection"] == "close")
        // Refused quietly: no error in the log for a client that knocked on the wrong door.
        try await Task.sleep(for: .milliseconds(200))
        #expect(!logs.entries.contains { $0.level >= .error }, "\(logs.entries)")
        // The server goes on serving TLS.
        let client = try Self.clientConfiguration(trusting: files)
        let health = try await TestClient.withClient(
            host: "localhost",
            port: server.port,
            configuration: .init(tlsConfiguration: client, serverName: "localhost")
        ) { client in
            try await client.execute(.init("/healthz", method: .get, authority: "localhost:\(server.port)"))
        }
        #expect(health.status == .ok)
        await server.stop()
    }

    @Test func aKeyThatIsNotTheCertificatesStopsTheServerBeforeItListens() throws {
        let folder = try TemporaryDirectory("tls-mismatch")
        let files = try Self.selfSignedCertificate(in: folder)
        let other = try Self.selfSignedCertificate(in: folder, name: "other")
        let mismatched = ServerConfiguration.TLSFiles(
            certificateChain: files.certificateChain,
            privateKey: other.privateKey
        )
        #expect(throws: ServerConfigurationError.self) {
            _ = try SyncServer(
                configuration: ServerConfiguration(dataDirectory: folder.path + "/data", tls: mismatched),
                logger: Logger(label: "test")
            )
        }
        let missing = ServerConfiguration.TLSFiles(
            certificateChain: folder.path + "/none.pem",
            privateKey: other.privateKey
        )
        #expect(throws: ServerConfigurationError.self) {
            _ = try SyncServer(
                configuration: ServerConfiguration(dataDirectory: folder.path + "/data", tls: missing),
                logger: Logger(label: "test")
            )
        }
    }

    /// A P-256 certificate for `localhost` and 127.0.0.1, made by Debian's `openssl`.
    static func selfSignedCertificate(
        in folder: TemporaryDirectory,
        name: String = "server"
    ) throws -> ServerConfiguration.TLSFiles {
        let files = ServerConfiguration.TLSFiles(
            certificateChain: folder.path + "/\(name).crt",
            privateKey: folder.path + "/\(name).key"
        )
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", files.privateKey, "-out", files.certificateChain, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("openssl req failed") }
        return files
    }

    static func clientConfiguration(trusting files: ServerConfiguration.TLSFiles) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(files.certificateChain))
        return configuration
    }

    /// Opens `wss://localhost:PORT/sync`, says hello and reports whether the server answered welcome.
    static func helloOverWSS(port: Int, trusting configuration: TLSConfiguration) async throws -> Bool {
        let welcomed = Flag()
        let hello = SyncCodec.encode(
            ClientMessage.hello(
                protocolVersion: SyncProtocol.version,
                minimumProtocolVersion: SyncProtocol.minimumVersion,
                device: .random(),
                agent: "tls test"
            )
        )
        try await WebSocketClient.connect(
            url: "wss://localhost:\(port)/sync",
            tlsConfiguration: configuration,
            logger: Logger(label: "test.wss")
        ) { inbound, outbound, _ in
            try await outbound.write(.binary(ByteBuffer(bytes: hello)))
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .binary(let buffer) = message else { continue }
                if case .welcome = try SyncCodec.decodeServer(Array(buffer.readableBytesView)) { welcomed.set() }
                break
            }
        }
        return welcomed.isSet
    }
}
