import Foundation
import Hummingbird
import HummingbirdTesting
import InkwellServer
import InkwellStore
import Prometheus
import Testing

@Suite struct BlobRoutesTests {
    @Test func anUploadedBlobDownloadsIdenticalWithCachingHeaders() async throws {
        let fixture = try HTTPFixture()
        let blob = TestBlob(count: 300_001, seed: 20)
        try await fixture.run { client in
            let put = try await client.execute(uri: blob.url, method: .put, body: blob.buffer)
            #expect(put.status == .created)
            #expect(put.headers[.location] == blob.url)
            let receipt = try put.json()
            #expect(receipt["sha256"] as? String == blob.hash.hex)
            #expect(receipt["size"] as? Int == 300_001)

            let get = try await client.execute(uri: blob.url, method: .get)
            #expect(get.status == .ok)
            #expect(Array(buffer: get.body) == blob.bytes)
            #expect(get.headers[.contentType] == "application/octet-stream")
            #expect(get.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(get.headers[.eTag] == "\"\(blob.hash.hex)\"")
            #expect(get.headers[.contentLength] == "300001")

            let head = try await client.execute(uri: blob.url, method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "300001")
            #expect(head.body.readableBytes == 0)

            let cached = try await client.execute(
                uri: blob.url,
                method: .get,
                headers: [.ifNoneMatch: "\"other\", \"\(blob.hash.hex)\""]
            )
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
        }
        #expect(ServerMetricsTests.samples(fixture.metrics).contains("inkwell_blob_bytes_stored_total 300001"))
    }

    @Test func aChunkedUploadIsStoredWhole() async throws {
        let fixture = try HTTPFixture()
        let blob = TestBlob(count: 50_000, seed: 21)
        try await fixture.run { client in
            let port = try #require(client.port)
            let response = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(blob.chunks(of: 4_321), finish: true)
            )
            #expect(response.status == 201)
            let get = try await client.execute(uri: blob.url, method: .get)
            #expect(Array(buffer: get.body) == blob.bytes)
        }
    }

    @Test func bytesThatHashElsewhereAre422AndLeaveNothing() async throws {
        let fixture = try HTTPFixture()
        let claimed = TestBlob(count: 2_000, seed: 22)
        let sent = TestBlob(count: 2_000, seed: 23)
        try await fixture.run { client in
            let put = try await client.execute(uri: claimed.url, method: .put, body: sent.buffer)
            #expect(put.status == .unprocessableContent)
            #expect(try put.json()["error"] as? String == "the body's SHA-256 differs from the one in the URL")
            #expect(try await client.execute(uri: claimed.url, method: .get).status == .notFound)
            #expect(try await client.execute(uri: sent.url, method: .get).status == .notFound)
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test func anOversizeUploadWithItsLengthIs413AndLeavesNothing() async throws {
        let fixture = try HTTPFixture(maximumBlobBytes: 10_000)
        let blob = TestBlob(count: 10_001, seed: 24)
        try await fixture.run { client in
            let put = try await client.execute(uri: blob.url, method: .put, body: blob.buffer)
            #expect(put.status == .contentTooLarge)
            #expect(try put.json()["error"] as? String == "a blob may have at most 10000 bytes")

            // The declared length alone is refused: the server answers without waiting for a body.
            let port = try #require(client.port)
            let headOnly = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10001\r\n\r\n"
            )
            #expect(headOnly.status == 413)
            #expect(headOnly.headers["connection"] == "close")
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test func aChunkedUploadGrowingPastTheLimitIsCutOffWith413() async throws {
        let fixture = try HTTPFixture(maximumBlobBytes: 64 * 1024)
        let blob = TestBlob(count: 96 * 1024, seed: 25)
        try await fixture.run { client in
            let port = try #require(client.port)
            // The body never ends: the answer can only come from a server that stopped reading at the limit.
            let response = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(blob.chunks(of: 16 * 1024), finish: false)
            )
            #expect(response.status == 413)
            #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test(arguments: [
        String(repeating: "AB", count: 32),
        String(repeating: "ab", count: 31),
        String(repeating: "ab", count: 33),
        String(repeating: "ag", count: 32),
        "not-a-hash",
    ])
    func aMalformedBlobNameIs400(name: String) async throws {
        let fixture = try HTTPFixture()
        try await fixture.run { client in
            for method in [HTTPRequest.Method.put, .get, .head] {
                let response = try await client.execute(
                    uri: "/blobs/\(name)",
                    method: method,
                    body: method == .put ? ByteBuffer(string: "x") : nil
                )
                #expect(response.status == .badRequest, "\(method)")
                if method != .head {
                    #expect(
                        try response.json()["error"] as? String
                            == "a blob is named by its SHA-256 as 64 lowercase hex digits"
                    )
                }
            }
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test func uploadingAgainAnswers200AndKeepsTheFile() async throws {
        let fixture = try HTTPFixture()
        let blob = TestBlob(count: 10_000, seed: 26)
        try await fixture.run { client in
            #expect(try await client.execute(uri: blob.url, method: .put, body: blob.buffer).status == .created)
            let path = try #require(fixture.blobs.get(blob.hash)).path
            let before = try FileManager.default.attributesOfItem(atPath: path)
            let again = try await client.execute(uri: blob.url, method: .put, body: blob.buffer)
            #expect(again.status == .ok)
            #expect(try again.json()["size"] as? Int == 10_000)
            let after = try FileManager.default.attributesOfItem(atPath: path)
            #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
            #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        }
        #expect(ServerMetricsTests.samples(fixture.metrics).contains("inkwell_blob_bytes_stored_total 10000"))
    }

    @Test func concurrentUploadsOfOneBlobCreateItOnce() async throws {
        let fixture = try HTTPFixture()
        let blob = TestBlob(count: 40_000, seed: 27)
        let statuses = try await fixture.run { client in
            let port = try #require(client.port)
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await RawHTTP.exchange(
                            port: port,
                            head: "PUT \(blob.url) HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
                            body: .chunked(blob.chunks(of: 10_000), finish: true, pause: .milliseconds(20))
                        )
                        .status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.sorted() == [200, 200, 200, 200, 200, 201])
        let stored = try #require(fixture.blobs.get(blob.hash))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: stored.path))) == blob.bytes)
        #expect(fixture.blobFolder.contents().count == 2)
    }

    @Test func aMissingBlobIs404() async throws {
        let fixture = try HTTPFixture()
        let blob = TestBlob(count: 10, seed: 28)
        try await fixture.run { client in
            let response = try await client.execute(uri: blob.url, method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(try response.json()["error"] as? String == "no blob has this hash")
        }
    }
}
