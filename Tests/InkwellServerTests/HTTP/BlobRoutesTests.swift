import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import InkwellServer
import InkwellStore
import InkwellTesting
import InkwellWire
import Prometheus
import Testing

/// `PUT`, `GET` and `HEAD /rooms/{room}/blobs/{sha256}` on a live server over a real pack log: what each
/// capability may do, each room's quota, each address's upload rate, and that nothing refused is stored.
@Suite struct BlobRoutesTests {
    /// Regular files under the blob store: stored blobs and any upload left half-written.
    static func files(_ fixture: HTTPFixture) -> [String] {
        Trickle.files(under: fixture.blobFolder.path).sorted()
    }

    @Test func anEditLinkUploadsAndAViewLinkDownloadsWithCachingHeaders() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 300_001, seed: 20)
        let url = blob.url(in: room.name)
        try await fixture.run { client in
            let put = try await client.put(blob, in: room.name, as: room.edit)
            #expect(put.status == .created)
            #expect(put.headers[.location] == url)
            let receipt = try put.json()
            #expect(receipt["sha256"] as? String == blob.hash.hex)
            #expect(receipt["size"] as? Int == 300_001)

            let get = try await client.get(blob, in: room.name, as: room.view)
            #expect(get.status == .ok)
            #expect(Array(buffer: get.body) == blob.bytes)
            #expect(get.headers[.contentType] == "application/octet-stream")
            // Cached by the browser that holds the link, never by a cache shared with others.
            #expect(get.headers[.cacheControl] == "private, max-age=31536000, immutable")
            #expect(get.headers[.eTag] == "\"\(blob.hash.hex)\"")
            #expect(get.headers[.contentLength] == "300001")

            let head = try await client.get(blob, in: room.name, as: room.view, method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "300001")
            #expect(head.body.readableBytes == 0)

            var conditional = room.view.bearer
            conditional[.ifNoneMatch] = "\"other\", \"\(blob.hash.hex)\""
            let cached = try await client.execute(uri: url, method: .get, headers: conditional)
            #expect(cached.status == .notModified)
            #expect(cached.body.readableBytes == 0)
            // The admin and edit links read too.
            for capability in [room.admin, room.edit] {
                #expect(try await client.get(blob, in: room.name, as: capability).status == .ok)
            }
        }
        #expect(ServerMetricsTests.samples(fixture.metrics).contains("inkwell_blob_bytes_stored_total 300001"))
        #expect(try await fixture.log.blobSize(room: room.name, hash: blob.hash) == 300_001)
    }

    @Test func aChunkedUploadIsStoredWhole() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 50_000, seed: 21)
        try await fixture.run { client in
            let port = try #require(client.port)
            let response = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(blob.chunks(of: 4_321), finish: true)
            )
            #expect(response.status == 201)
            let get = try await client.get(blob, in: room.name, as: room.view)
            #expect(Array(buffer: get.body) == blob.bytes)
        }
    }

    @Test func bytesThatHashElsewhereAre422AndLeaveNothing() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let claimed = TestBlob(count: 2_000, seed: 22)
        let sent = TestBlob(count: 2_000, seed: 23)
        try await fixture.run { client in
            let put = try await client.execute(
                uri: claimed.url(in: room.name),
                method: .put,
                headers: room.edit.bearer,
                body: sent.buffer
            )
            #expect(put.status == .unprocessableContent)
            #expect(try put.json()["error"] as? String == "the body's SHA-256 differs from the one in the URL")
            for blob in [claimed, sent] {
                let get = try await client.get(blob, in: room.name, as: room.edit)
                #expect(get.status == .notFound)
            }
        }
        #expect(fixture.blobFolder.contents().isEmpty)
        #expect(try await fixture.log.blobBytes(room: room.name) == 0)
    }

    @Test func anOversizeUploadWithItsLengthIs413AndLeavesNothing() async throws {
        let fixture = try HTTPFixture(maximumBlobBytes: 10_000)
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 10_001, seed: 24)
        try await fixture.run { client in
            let put = try await client.put(blob, in: room.name, as: room.edit)
            #expect(put.status == .contentTooLarge)
            #expect(try put.json()["error"] as? String == "a blob may have at most 10000 bytes")

            // The declared length alone is refused: the server answers without waiting for a body.
            let port = try #require(client.port)
            let headOnly = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nContent-Length: 10001\r\n\r\n"
            )
            #expect(headOnly.status == 413)
            #expect(headOnly.headers["connection"] == "close")
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test func aChunkedUploadGrowingPastTheLimitIsCutOffWith413() async throws {
        let fixture = try HTTPFixture(maximumBlobBytes: 64 * 1024)
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 96 * 1024, seed: 25)
        try await fixture.run { client in
            let port = try #require(client.port)
            // The body never ends: the answer can only come from a server that stopped reading at the limit.
            let response = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blob.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(blob.chunks(of: 16 * 1024), finish: false)
            )
            #expect(response.status == 413)
            #expect(response.headers["content-type"] == "application/json; charset=utf-8")
            #expect(String(decoding: response.body, as: UTF8.self).contains("a blob may have at most 65536 bytes"))
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
        let room = try await TestRoom.register("board", in: fixture.log)
        try await fixture.run { client in
            for method in [HTTPRequest.Method.put, .get, .head] {
                let response = try await client.execute(
                    uri: "/rooms/board/blobs/\(name)",
                    method: method,
                    headers: room.edit.bearer,
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

    @Test func aMalformedRoomNameIs400() async throws {
        let fixture = try HTTPFixture(openRooms: true)
        let blob = TestBlob(count: 10, seed: 29)
        try await fixture.run { client in
            for room in [String(repeating: "r", count: 129), "a%20b", "%C3%A9"] {
                let response = try await client.execute(uri: blob.url(in: room), method: .put, body: blob.buffer)
                #expect(response.status == .badRequest, "\(room)")
                #expect(try response.json()["error"] as? String == "a board's id is 1 to 128 of A-Z a-z 0-9 . _ -")
            }
        }
        #expect(fixture.blobFolder.contents().isEmpty)
    }

    @Test func uploadingAgainAnswers200CountsNothingAndKeepsTheFile() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 10_000, seed: 26)
        let url = blob.url(in: room.name)
        try await fixture.run { client in
            #expect(
                try await client.put(blob, in: room.name, as: room.edit).status
                    == .created
            )
            let path = try #require(fixture.blobs.get(blob.hash)).path
            let before = try FileManager.default.attributesOfItem(atPath: path)
            let again = try await client.put(blob, in: room.name, as: room.edit)
            #expect(again.status == .ok)
            #expect(try again.json()["size"] as? Int == 10_000)
            let after = try FileManager.default.attributesOfItem(atPath: path)
            #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
            #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        }
        #expect(ServerMetricsTests.samples(fixture.metrics).contains("inkwell_blob_bytes_stored_total 10000"))
        #expect(try await fixture.log.blobBytes(room: room.name) == 10_000)
    }

    @Test func concurrentUploadsOfOneBlobCreateItOnce() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 40_000, seed: 27)
        let statuses = try await fixture.run { client in
            let port = try #require(client.port)
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await RawHTTP.exchange(
                            port: port,
                            head: "PUT \(blob.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                                + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
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
        #expect(try await fixture.log.blobBytes(room: room.name) == 40_000)
    }

    @Test func aMissingBlobIs404() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 10, seed: 28)
        try await fixture.run { client in
            let response = try await client.get(blob, in: room.name, as: room.view)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(try response.json()["error"] as? String == "this board holds no blob with this hash")
        }
    }

    // MARK: Capabilities

    @Test func aViewLinkMayReadButNotUpload() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 5_000, seed: 30)
        try await fixture.run { client in
            let put = try await client.put(blob, in: room.name, as: room.view)
            #expect(put.status == .forbidden)
            #expect(try put.json()["error"] as? String == "a view link may not upload to the board")
        }
        #expect(fixture.blobFolder.contents().isEmpty)
        #expect(try await fixture.log.blobBytes(room: room.name) == 0)
    }

    @Test func noCapabilityIs401AndAskForABearerToken() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let blob = TestBlob(count: 5_000, seed: 31)
        let url = blob.url(in: room.name)
        try await fixture.run { client in
            #expect(
                try await client.put(blob, in: room.name, as: room.edit).status
                    == .created
            )
            // No header, another scheme, an empty token: no capability given.
            let withoutCapability: [HTTPFields] = [
                [:], [.authorization: "Basic \(room.edit.text)"], [.authorization: "Bearer "],
            ]
            for headers in withoutCapability {
                for method in [HTTPRequest.Method.put, .get, .head] {
                    let response = try await client.execute(
                        uri: url,
                        method: method,
                        headers: headers,
                        body: method == .put ? blob.buffer : nil
                    )
                    #expect(response.status == .unauthorized, "\(method) \(headers)")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer", "\(method) \(headers)")
                    if method != .head {
                        #expect(
                            try response.json()["error"] as? String
                                == "this board needs its link's capability, sent as Authorization: Bearer CAPABILITY"
                        )
                    }
                }
            }
            // The capability in the URL's query is not looked at.
            let inQuery = try await client.execute(uri: url + "?cap=\(room.view.text)", method: .get)
            #expect(inQuery.status == .unauthorized)
        }
    }

    @Test func aWrongOrReplacedCapabilityIs403() async throws {
        let fixture = try HTTPFixture()
        let room = try await TestRoom.register("board", in: fixture.log)
        let first = TestBlob(count: 5_000, seed: 32)
        let second = TestBlob(count: 5_000, seed: 33)
        try await fixture.run { client in
            #expect(
                try await client.put(first, in: room.name, as: room.edit).status == .created
            )
            // The admin replaces both links: the old ones open nothing, the new ones work.
            let (newEdit, newView) = (Capability.mint(.edit), Capability.mint(.view))
            let rotation = try await fixture.log.rotate(
                room: room.name,
                adminHash: room.admin.hash,
                editHash: newEdit.hash,
                viewHash: newView.hash
            )
            #expect(rotation == .rotated(replaced: [room.edit.hash, room.view.hash]))
            let stranger = Capability.mint(.edit)
            for capability in [room.edit, room.view, stranger] {
                let put = try await client.put(second, in: room.name, as: capability)
                #expect(put.status == .forbidden)
                #expect(
                    try put.json()["error"] as? String
                        == "this link does not open the board: it is wrong, or was replaced"
                )
                let get = try await client.get(first, in: room.name, as: capability)
                #expect(get.status == .forbidden)
            }
            let get = try await client.get(first, in: room.name, as: newView)
            #expect(get.status == .ok && Array(buffer: get.body) == first.bytes)
            let put = try await client.put(second, in: room.name, as: newEdit)
            #expect(put.status == .created)
        }
    }

    @Test func noSuchRoomIs404UnlessRoomsAreOpen() async throws {
        let blob = TestBlob(count: 5_000, seed: 34)
        let closed = try HTTPFixture()
        try await closed.run { client in
            for method in [HTTPRequest.Method.put, .get, .head] {
                let response = try await client.execute(
                    uri: blob.url(in: "NoSuchRoom"),
                    method: method,
                    headers: Capability.mint(.edit).bearer,
                    body: method == .put ? blob.buffer : nil
                )
                #expect(response.status == .notFound, "\(method)")
                if method != .head {
                    #expect(try response.json()["error"] as? String == "no board here has this id; check the link")
                }
            }
        }
        #expect(closed.blobFolder.contents().isEmpty)

        // On a server with open rooms, a name with no record is open: anyone who names it uploads and reads.
        let open = try HTTPFixture(openRooms: true)
        try await open.run { client in
            #expect(
                try await client.put(blob, in: "AnyName", as: nil).status
                    == .created
            )
            let get = try await client.get(blob, in: "AnyName", as: nil)
            #expect(get.status == .ok && Array(buffer: get.body) == blob.bytes)
        }
    }

    /// A room that held packs before capabilities existed is open on any server, as on the sync socket.
    @Test func aLegacyOpenRoomNeedsNoCapability() async throws {
        let fixture = try HTTPFixture()
        _ = try await fixture.log.append([PackLogTests.push("legacy", 1)])
        let blob = TestBlob(count: 5_000, seed: 35)
        try await fixture.run { client in
            let put = try await client.put(blob, in: "legacy", as: nil)
            #expect(put.status == .created)
            let get = try await client.get(blob, in: "legacy", as: nil)
            #expect(get.status == .ok)
        }
    }

    // MARK: Rooms' own blobs

    /// The bytes are on disk once, but a room reads only what was uploaded to it: knowing a hash opens nothing.
    @Test func aBlobOfAnotherRoomIs404UntilThisRoomUploadsIt() async throws {
        let fixture = try HTTPFixture()
        let mine = try await TestRoom.register("mine", in: fixture.log)
        let theirs = try await TestRoom.register("theirs", in: fixture.log)
        let blob = TestBlob(count: 20_000, seed: 36)
        try await fixture.run { client in
            let put = try await client.put(blob, in: theirs.name, as: theirs.edit)
            #expect(put.status == .created)
            for method in [HTTPRequest.Method.get, .head] {
                let response = try await client.get(blob, in: mine.name, as: mine.view, method: method)
                #expect(response.status == .notFound, "\(method)")
            }
            // Their link does not open it through my room either.
            let crossed = try await client.get(blob, in: mine.name, as: theirs.view)
            #expect(crossed.status == .forbidden)

            // Uploading the bytes records the blob for this room too, without a second copy on disk.
            let again = try await client.put(blob, in: mine.name, as: mine.edit)
            #expect(again.status == .created)
            let get = try await client.get(blob, in: mine.name, as: mine.view)
            #expect(get.status == .ok && Array(buffer: get.body) == blob.bytes)
        }
        #expect(Self.files(fixture).count == 1)
        #expect(try await fixture.log.blobBytes(room: mine.name) == 20_000)
        #expect(try await fixture.log.blobBytes(room: theirs.name) == 20_000)
        #expect(ServerMetricsTests.samples(fixture.metrics).contains("inkwell_blob_bytes_stored_total 20000"))
    }

    // MARK: Quota

    @Test func anUploadPastTheRoomsQuotaIs413ByItsLength() async throws {
        let fixture = try HTTPFixture(maximumBlobBytesPerRoom: 20_000)
        let room = try await TestRoom.register("board", in: fixture.log)
        let kept = TestBlob(count: 12_000, seed: 37)
        let refused = TestBlob(count: 10_000, seed: 38)
        try await fixture.run { client in
            let port = try #require(client.port)
            let first = try await RawHTTP.put(kept, in: room.name, capability: room.edit, port: port)
            #expect(first.status == 201)
            let put = try await RawHTTP.put(refused, in: room.name, capability: room.edit, port: port)
            #expect(put.status == 413)
            #expect(put.headers["connection"] == "close")
            #expect(
                RawHTTP.error(put) == "the board's image storage is full: this upload would take it past its quota"
            )
            // Refused from the declared length, before any of the body is sent.
            let headOnly = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(refused.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nContent-Length: 10000\r\n\r\n"
            )
            #expect(headOnly.status == 413)
            // What the room holds is still there, and uploading it again counts nothing.
            let again = try await RawHTTP.put(kept, in: room.name, capability: room.edit, port: port)
            #expect(again.status == 200)
        }
        #expect(Self.files(fixture).count == 1)
        #expect(try await fixture.log.blobBytes(room: room.name) == 12_000)
        #expect(try await fixture.log.blobSize(room: room.name, hash: refused.hash) == nil)
    }

    @Test func aChunkedUploadPastTheRoomsQuotaIsCutOffWith413() async throws {
        let fixture = try HTTPFixture(maximumBlobBytesPerRoom: 40_000)
        let room = try await TestRoom.register("board", in: fixture.log)
        let kept = TestBlob(count: 30_000, seed: 39)
        let refused = TestBlob(count: 30_000, seed: 40)
        try await fixture.run { client in
            let first = try await client.put(kept, in: room.name, as: room.edit)
            #expect(first.status == .created)
            // No length, and a body that never ends: answered by a server that stopped at the room's last bytes.
            let port = try #require(client.port)
            let response = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(refused.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(refused.chunks(of: 4_000), finish: false)
            )
            #expect(response.status == 413)
            #expect(String(decoding: response.body, as: UTF8.self).contains("the board's image storage is full"))
        }
        #expect(Self.files(fixture).count == 1)
        #expect(try await fixture.log.blobBytes(room: room.name) == 30_000)
    }

    /// Two uploads that each fit in what is left of the quota, but not both, both get past the checks made
    /// before their bodies are read: the transaction that records them lets exactly one in.
    @Test func twoUploadsRacingForTheLastBytesOfTheQuotaOneWins() async throws {
        let fixture = try HTTPFixture(maximumBlobBytesPerRoom: 30_000)
        let room = try await TestRoom.register("board", in: fixture.log)
        let first = TestBlob(count: 12_000, seed: 41)
        let racers = [TestBlob(count: 10_000, seed: 42), TestBlob(count: 10_000, seed: 43)]
        let statuses = try await fixture.run { client in
            let put = try await client.put(first, in: room.name, as: room.edit)
            #expect(put.status == .created)
            let port = try #require(client.port)
            let gate = DispatchSemaphore(value: 0)
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for racer in racers {
                    group.addTask {
                        try await RawHTTP.exchange(
                            port: port,
                            head: "PUT \(racer.url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                                + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
                            body: .gated(racer.chunks(of: 2_500), gate: gate)
                        )
                        .status
                    }
                }
                // Both are streaming into temporary files: each passed the checks made before its body.
                let deadline = ContinuousClock.now + .seconds(10)
                while fixture.blobFolder.contents().filter({ $0.hasPrefix(".upload-") }).count < 2,
                    ContinuousClock.now < deadline
                {
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(fixture.blobFolder.contents().filter { $0.hasPrefix(".upload-") }.count == 2)
                gate.signal()
                gate.signal()
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.sorted() == [201, 413])
        #expect(try await fixture.log.blobBytes(room: room.name) == 22_000)
        #expect(Self.files(fixture).count == 2, "the first blob and the winner's; the loser left nothing")
    }

    // MARK: Rate

    @Test func uploadsPastTheAddressRateAre429WithRetryAfter() async throws {
        // A burst of 20,000 bytes, and so slow a refill that the test never sees it.
        let fixture = try HTTPFixture(
            maximumBlobBytes: 16_000,
            blobBytesPerSecondPerAddress: 1_000,
            blobByteBurstPerAddress: 20_000
        )
        let room = try await TestRoom.register("board", in: fixture.log)
        let blobs = (0..<3).map { TestBlob(count: 15_000, seed: 44 + UInt64($0)) }
        try await fixture.run { client in
            let port = try #require(client.port)
            let first = try await RawHTTP.put(blobs[0], in: room.name, capability: room.edit, port: port)
            #expect(first.status == 201)
            let second = try await RawHTTP.put(blobs[1], in: room.name, capability: room.edit, port: port)
            #expect(second.status == 429)
            // The 15,000 bytes asked for come back in 15 s at 1,000 a second.
            #expect(second.headers["retry-after"] == "15")
            #expect(RawHTTP.error(second) == "too many blob bytes uploaded from this address; try again in 15 s")
            // A streamed body is counted as it arrives, and cut off once the bucket is empty.
            let streamed = try await RawHTTP.exchange(
                port: port,
                head: "PUT \(blobs[2].url(in: room.name)) HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer \(room.edit.text)\r\nTransfer-Encoding: chunked\r\n\r\n",
                body: .chunked(blobs[2].chunks(of: 3_000), finish: false)
            )
            #expect(streamed.status == 429)
            #expect(streamed.headers["retry-after"].flatMap { Int($0) }.map { $0 >= 1 } == true)
            // Reading is not counted.
            let get = try await client.get(blobs[0], in: room.name, as: room.view)
            #expect(get.status == .ok)
        }
        #expect(Self.files(fixture).count == 1)
        #expect(try await fixture.log.blobBytes(room: room.name) == 15_000)
    }

    /// One address uploads in a loop to three rooms: each room stops at its quota (413), the address at its
    /// rate (429); what is stored stays within both, nothing half-written is left, and the server still serves.
    @Test(.timeLimit(.minutes(2))) func aBlobFloodFromOneAddressIsRefusedAndTheServerStaysHealthy() async throws {
        let quota = 30_000
        let fixture = try HTTPFixture(
            maximumBlobBytes: 20_000,
            maximumBlobBytesPerRoom: quota,
            // No refill worth a blob however long the flood takes on a busy machine: what passes is the burst.
            blobBytesPerSecondPerAddress: 1,
            blobByteBurstPerAddress: 80_000
        )
        let rooms = [
            try await TestRoom.register("first", in: fixture.log),
            try await TestRoom.register("second", in: fixture.log),
            try await TestRoom.register("third", in: fixture.log),
        ]
        let rounds = 15
        let statuses = try await fixture.run { client in
            let port = try #require(client.port)
            var statuses: [Int] = []
            for round in 0..<rounds {
                for (index, room) in rooms.enumerated() {
                    let blob = TestBlob(count: 10_000, seed: 1_000 + UInt64(round * 3 + index))
                    statuses.append(
                        try await RawHTTP.put(blob, in: room.name, capability: room.edit, port: port).status
                    )
                }
            }
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            let stored = try await client.get(
                TestBlob(count: 10_000, seed: 1_000),
                in: rooms[0].name,
                as: rooms[0].view
            )
            #expect(stored.status == .ok)
            return statuses
        }
        #expect(statuses.count == rounds * 3)
        #expect(Set(statuses).isSubset(of: [201, 413, 429]), "\(statuses)")
        // The burst holds eight blobs and the rooms nine: the rate stops the third room, the quota the others.
        let created = statuses.filter { $0 == 201 }.count
        #expect(created == 8, "\(statuses)")
        #expect(statuses.contains(413) && statuses.contains(429), "\(statuses)")
        var total = 0
        for room in rooms {
            let bytes = try await fixture.log.blobBytes(room: room.name)
            #expect(bytes <= quota, "\(room.name)")
            total += bytes
        }
        #expect(total == created * 10_000)
        #expect(Self.files(fixture).count == created, "only what was recorded is on disk")
        #expect(!fixture.blobFolder.contents().contains { $0.hasPrefix(".upload-") })
    }
}
