import Foundation
import Hummingbird
import InkwellServer
import InkwellStore
import InkwellTesting
import Synchronization
import Testing

@Suite struct BlobStoreTests {
    /// An async sequence of byte chunks that records how many were pulled and can fail after some.
    struct CountingBody: AsyncSequence, Sendable {
        struct BodyError: Error {}

        let chunks: [[UInt8]]
        let failAfter: Int?
        let pulled = Counter()

        final class Counter: Sendable {
            private let count = Mutex(0)
            var value: Int { count.withLock { $0 } }
            func increment() { count.withLock { $0 += 1 } }
        }

        init(_ chunks: [[UInt8]], failAfter: Int? = nil) {
            self.chunks = chunks
            self.failAfter = failAfter
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            let body: CountingBody
            var index = 0

            mutating func next() async throws -> ByteBuffer? {
                if let failAfter = body.failAfter, index == failAfter { throw BodyError() }
                guard index < body.chunks.count else { return nil }
                defer { index += 1 }
                body.pulled.increment()
                return ByteBuffer(bytes: body.chunks[index])
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }
    }

    @Test func storedBytesComeBackIdenticalUnderTheirShardedName() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 100_003, seed: 1)
        let outcome = try await store.put(
            expected: blob.hash,
            body: CountingBody(blob.chunks(of: 7_919)),
            maximumBytes: 200_000
        )
        #expect(outcome == .created(size: 100_003))
        let stored = try #require(store.get(blob.hash))
        #expect(stored.size == 100_003)
        #expect(stored.path == folder.path + "/" + blob.hash.hex.prefix(2) + "/" + blob.hash.hex)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: stored.path))) == blob.bytes)
        #expect(
            folder.contents() == [
                String(blob.hash.hex.prefix(2)), String(stored.path.dropFirst(folder.path.count + 1)),
            ]
        )
    }

    @Test func theEmptyBlobIsABlobToo() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let empty = TestBlob(count: 0, seed: 0)
        #expect(empty.hash.hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            try await store.put(expected: empty.hash, body: CountingBody([]), maximumBytes: 10) == .created(size: 0)
        )
        #expect(store.get(empty.hash)?.size == 0)
    }

    @Test func bytesThatHashElsewhereAreRefusedAndLeaveNothing() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let claimed = TestBlob(count: 1_000, seed: 2)
        let sent = TestBlob(count: 1_000, seed: 3)
        await #expect(throws: BlobStoreError.hashMismatch(expected: claimed.hash, actual: sent.hash)) {
            try await store.put(expected: claimed.hash, body: CountingBody(sent.chunks(of: 100)), maximumBytes: 10_000)
        }
        #expect(folder.contents().isEmpty)
        #expect(store.get(claimed.hash) == nil)
        #expect(store.get(sent.hash) == nil)
    }

    @Test func readingStopsAtTheFirstChunkPastTheLimit() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 100, seed: 4)
        let body = CountingBody(blob.chunks(of: 10))
        await #expect(throws: BlobStoreError.tooLarge(limit: 35)) {
            try await store.put(expected: blob.hash, body: body, maximumBytes: 35)
        }
        #expect(body.pulled.value == 4)
        #expect(folder.contents().isEmpty)
    }

    @Test func aBlobOfExactlyTheLimitIsAccepted() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 100, seed: 5)
        let outcome = try await store.put(
            expected: blob.hash,
            body: CountingBody(blob.chunks(of: 30)),
            maximumBytes: 100
        )
        #expect(outcome == .created(size: 100))
    }

    @Test func aFailingBodyLeavesNothing() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 100, seed: 6)
        await #expect(throws: CountingBody.BodyError.self) {
            try await store.put(
                expected: blob.hash,
                body: CountingBody(blob.chunks(of: 10), failAfter: 5),
                maximumBytes: 1_000
            )
        }
        #expect(folder.contents().isEmpty)
    }

    @Test func aStoredBlobIsAcceptedAgainWithoutReadingOrRewriting() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 5_000, seed: 7)
        _ = try await store.put(expected: blob.hash, body: CountingBody(blob.chunks(of: 1_000)), maximumBytes: 10_000)
        let path = try #require(store.get(blob.hash)).path
        let before = try FileManager.default.attributesOfItem(atPath: path)

        let again = CountingBody(blob.chunks(of: 1_000), failAfter: 0)
        let outcome = try await store.put(expected: blob.hash, body: again, maximumBytes: 10_000)
        #expect(outcome == .alreadyPresent(size: 5_000))
        #expect(again.pulled.value == 0)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    }

    @Test(.timeLimit(.minutes(1))) func anUploadThatLosesTheRaceReportsAlreadyPresentAndCleansUp() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 3_000, seed: 8)
        let chunks = blob.chunks(of: 1_000)
        let (slowBody, slowSource) = AsyncStream.makeStream(of: ByteBuffer.self)
        // The slow upload starts before the blob exists, so it streams into a temporary file.
        slowSource.yield(ByteBuffer(bytes: chunks[0]))
        let slow = Task { try await store.put(expected: blob.hash, body: slowBody, maximumBytes: 10_000) }
        while !folder.contents().contains(where: { $0.hasPrefix(".upload-") }) {
            try await Task.sleep(for: .milliseconds(5))
        }

        let fast = try await store.put(expected: blob.hash, body: CountingBody(chunks), maximumBytes: 10_000)
        #expect(fast == .created(size: 3_000))
        let path = try #require(store.get(blob.hash)).path
        let installed = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        for chunk in chunks.dropFirst() { slowSource.yield(ByteBuffer(bytes: chunk)) }
        slowSource.finish()
        #expect(try await slow.value == .alreadyPresent(size: 3_000))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == installed)
        #expect(!folder.contents().contains { $0.hasPrefix(".upload-") })
    }

    @Test func concurrentUploadsOfOneBlobStoreItOnce() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let store = try BlobStore(directory: folder.path)
        let blob = TestBlob(count: 64_000, seed: 9)
        let outcomes = try await withThrowingTaskGroup(of: BlobStore.PutOutcome.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await store.put(
                        expected: blob.hash,
                        body: CountingBody(blob.chunks(of: 4_000)),
                        maximumBytes: 100_000
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .created(size: 64_000) }.count == 1)
        #expect(outcomes.filter { $0 == .alreadyPresent(size: 64_000) }.count == 7)
        let stored = try #require(store.get(blob.hash))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: stored.path))) == blob.bytes)
        #expect(folder.contents().count == 2)
    }

    @Test func openingRemovesUploadsACrashLeftBehind() async throws {
        let folder = try TemporaryDirectory("blobstore")
        let blob = TestBlob(count: 10, seed: 10)
        do {
            let store = try BlobStore(directory: folder.path)
            _ = try await store.put(expected: blob.hash, body: CountingBody([blob.bytes]), maximumBytes: 10)
        }
        try folder.write(".upload-0123", "half a blob")
        _ = try BlobStore(directory: folder.path)
        #expect(!folder.contents().contains(".upload-0123"))
        #expect(try BlobStore(directory: folder.path).get(blob.hash)?.size == 10)
    }

    @Test func urlsNameBlobsOnlyByLowercaseHex() {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        #expect(BlobHash(urlComponent: hex)?.hex == hex)
        #expect(BlobHash(urlComponent: hex.uppercased()) == nil)
        #expect(BlobHash(urlComponent: hex.dropLast()) == nil)
        #expect(BlobHash(urlComponent: hex + "0") == nil)
        #expect(BlobHash(urlComponent: String(hex.dropLast()) + "g") == nil)
        #expect(BlobHash(urlComponent: "") == nil)
    }
}
