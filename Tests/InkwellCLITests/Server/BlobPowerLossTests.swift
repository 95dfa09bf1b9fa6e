import Foundation
import HTTPTypes
import HummingbirdTesting
import InkwellClient
import InkwellStore
import InkwellTesting
import NIOCore
import Testing

/// The real server's blob files on the crash VFS (`serve --crash-vfs`), which keeps their unsynced writes
/// as it keeps SQLite's: killed while uploads stream in, its disk left as a power cut would leave it
/// (each unsynced write dropped, kept or torn). Every blob the server answered for is there byte for
/// byte, and served. `INKWELL_POWER_CUTS` sets the cycles (default 20); `INKWELL_SEED` replays a run.
///
/// The uploads go over NIO (HummingbirdTesting's client), not `URLSession`: on Linux, `URLSession` has been
/// seen to crash the test process in libdispatch's event loop when the server it talks to is killed.
@Suite(.serialized) struct BlobPowerLossTests {
    static let room = "power-blobs"

    @Test func noAcknowledgedBlobIsLostToAPowerCut() async throws {
        var random = SeededGenerator(seed: PowerCut.seed(of: "BlobPowerLossTests"))
        let folder = try TemporaryDirectory("blob-power")
        let blobs = folder.url.appendingPathComponent("blobs")
        var acknowledged: [BlobHash: [UInt8]] = [:]
        var outcome = PowerCut.Outcome()
        var port = 0
        for cycle in 0..<PowerCut.cycles {
            let server = try await PowerCut.serve(folder.url, port: &port)
            var uploaders: [Task<[BlobHash: [UInt8]], Never>] = []
            for _ in 0..<4 {
                let seed = random.next()
                uploaders.append(Task { await Self.upload(to: server.port, seed: seed) })
            }
            try await Task.sleep(for: .milliseconds(Int64.random(in: 150...500, using: &random)))
            try await PowerCut.cut(server)
            for uploader in uploaders { acknowledged.merge(await uploader.value) { first, _ in first } }
            // The log's files, and the blob folder where uploads are written before they are named.
            try PowerCut.settle(folder.url, seed: random.next(), into: &outcome)
            try PowerCut.settle(blobs, seed: random.next(), into: &outcome)
            for (hash, bytes) in acknowledged {
                let file = blobs.appendingPathComponent("\(hash.hex.prefix(2))/\(hash.hex)")
                let stored = try? [UInt8](Data(contentsOf: file))
                // Compared first: a failed expectation would print both blobs whole.
                let intact = stored == bytes
                let found = stored.map { "\($0.count) bytes of other content" } ?? "missing"
                try #require(intact, "cycle \(cycle): blob \(hash.hex) of \(bytes.count) bytes is \(found)")
            }
        }
        print("BlobPowerLossTests: \(acknowledged.count) blobs acknowledged, all present; \(outcome)")
        #expect(acknowledged.count > PowerCut.cycles)
        #expect(outcome.writes > 0, "no power cut found an unsynced write")

        // Started once more, the server serves each of them.
        let server = try await ServerProcess.start(data: folder.url, port: port, logLevel: "error")
        let uploaded = acknowledged
        let unserved = try await TestClient.withClient(host: "127.0.0.1", port: server.port) { client in
            var unserved: [String] = []
            for (hash, bytes) in uploaded {
                let answer = try await client.execute(
                    .init(Self.path(of: hash), method: .get, authority: "127.0.0.1:\(server.port)")
                )
                if answer.head.status.code != 200 || answer.body.map({ Array($0.readableBytesView) }) != bytes {
                    unserved.append(hash.hex)
                }
            }
            return unserved
        }
        await server.stop()
        #expect(unserved.isEmpty, "not served as uploaded: \(unserved)")
    }

    /// The blob route of `hash` in the test's open room.
    static func path(of hash: BlobHash) -> String {
        "/rooms/\(room)/blobs/\(hash.hex)"
    }

    /// Uploads blobs of up to 60 KB on one connection until the server stops answering; returns those it
    /// acknowledged (201, or 200 for one it held already).
    private static func upload(to port: Int, seed: UInt64) async -> [BlobHash: [UInt8]] {
        let acknowledged = try? await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            var random = SeededGenerator(seed: seed)
            var acknowledged: [BlobHash: [UInt8]] = [:]
            while true {
                let bytes = (0..<Int.random(in: 1...60_000, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
                let hash = SyncClient.blobName(of: bytes)
                guard
                    let answer = try? await client.execute(
                        .init(
                            path(of: hash),
                            method: .put,
                            authority: "127.0.0.1:\(port)",
                            body: ByteBuffer(bytes: bytes)
                        )
                    ),
                    [200, 201].contains(answer.head.status.code)
                else {
                    return acknowledged
                }
                acknowledged[hash] = bytes
            }
        }
        return acknowledged ?? [:]
    }
}
