import Crypto
import Foundation
public import InkwellStore
import InkwellWire

extension SyncClient {
    /// Uploads `bytes` as a blob of `room` (an image on its board) and returns the name it is stored
    /// under. In an encrypted room the bytes are sealed with the room's key first (``BlobSeal``), so the
    /// name is the SHA-256 of the sealed bytes and the server never sees the plaintext.
    ///
    /// It goes to the server of ``url`` over HTTP, `PUT /rooms/ROOM/blobs/SHA256`, with the capability the
    /// store holds for the room (none: an open room) in the `Authorization` header; it needs no sync
    /// connection. Uploading again what the room holds already costs nothing.
    ///
    /// - Throws: ``SyncClientError/invalidRoom``; ``SyncClientError/viewOnly`` when the store holds only a
    ///   view link for the room; ``BlobError`` when the server refuses (a wrong or replaced link, no such room,
    ///   a blob too large, the board's storage full, too many bytes uploaded from this address) or cannot be
    ///   reached; ``StoreError`` when the store cannot be read.
    @discardableResult
    public nonisolated func uploadBlob(_ bytes: [UInt8], room: String) async throws -> BlobHash {
        guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
        let credentials = try store.credentials(room: room)
        if let credentials, !credentials.rights.mayEdit { throw SyncClientError.viewOnly }
        let sealed = credentials?.key.map { BlobSeal.seal(bytes, room: room, key: $0) } ?? bytes
        let hash = Self.blobName(of: sealed)
        let answer = try await BlobExchange.run(
            "PUT",
            blobURL(room: room, hash: hash),
            capability: credentials?.capability.text,
            body: sealed,
            maximumBytes: 64 << 10,
            timeout: configuration.blobTimeout
        )
        guard answer.status == 200 || answer.status == 201 else { throw Self.refusal(answer) }
        return hash
    }

    /// The size `bytes` have as ``uploadBlob(_:room:)`` uploads them: sealed in an encrypted room. An image
    /// names it, so that others can show its download's progress.
    public nonisolated func sealedSize(of bytes: [UInt8], room: String) throws -> Int {
        try store.credentials(room: room)?.key == nil ? bytes.count : bytes.count + BlobSeal.overhead
    }

    /// Downloads the blob named `hash` from `room`: the bytes as they were uploaded, opened with the room's
    /// key in an encrypted room. The bytes are checked against their name before anything else.
    ///
    /// - Throws: ``SyncClientError/invalidRoom``; ``BlobError`` with code ``BlobError/Code/refused`` (status
    ///   404 when the room holds no such blob), ``BlobError/Code/hashMismatch`` when the bytes that came are
    ///   not the ones named, ``BlobError/Code/cannotOpen`` when they do not open with the room's key (sealed
    ///   with another key or for another room, or altered), ``BlobError/Code/tooLarge`` past
    ///   ``Configuration/maximumBlobBytes``; ``StoreError`` when the store cannot be read.
    public nonisolated func downloadBlob(_ hash: BlobHash, room: String) async throws -> [UInt8] {
        guard SyncProtocol.isValidRoom(room) else { throw SyncClientError.invalidRoom }
        let credentials = try store.credentials(room: room)
        let answer = try await BlobExchange.run(
            "GET",
            blobURL(room: room, hash: hash),
            capability: credentials?.capability.text,
            maximumBytes: configuration.maximumBlobBytes,
            timeout: configuration.blobTimeout
        )
        guard answer.status == 200 else { throw Self.refusal(answer) }
        guard Self.blobName(of: answer.body) == hash else {
            throw BlobError(.hashMismatch, "the bytes the server sent are not the blob \(hash)")
        }
        guard let key = credentials?.key else { return answer.body }
        do {
            return try BlobSeal.open(answer.body, room: room, key: key)
        } catch {
            throw BlobError(
                .cannotOpen,
                "the blob does not open with this board's key: it was sealed with another key, or altered"
            )
        }
    }

    /// `http(s)://HOST[:PORT][PREFIX]/rooms/ROOM/blobs/HASH`, beside the sync endpoint `ws(s)://…[PREFIX]/sync`.
    nonisolated func blobURL(room: String, hash: BlobHash) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw BlobError(.unreachable, "the server's address is not a URL")
        }
        switch components.scheme?.lowercased() {
        case "wss", "https": components.scheme = "https"
        default: components.scheme = "http"
        }
        var prefix = components.path
        if prefix.hasSuffix("/sync") { prefix.removeLast(5) }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.path = prefix + "/rooms/\(room)/blobs/\(hash.hex)"
        components.query = nil
        components.fragment = nil
        guard let url = components.url else { throw BlobError(.unreachable, "the server's address is not a URL") }
        return url
    }

    /// The name bytes are stored under: their SHA-256. In an encrypted room, the bytes named are the sealed ones.
    public static func blobName(of bytes: [UInt8]) -> BlobHash {
        // A SHA-256 digest is always 32 bytes.
        BlobHash(digest: SHA256.hash(data: bytes))!
    }

    /// The error for an answer that is not the one asked for, with the server's words when it gave some.
    static func refusal(_ answer: BlobExchange.Answer) -> BlobError {
        let message =
            (try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["error"] as? String
            ?? "the server answered HTTP \(answer.status)"
        switch answer.status {
        case 429:
            let seconds = answer.headers["retry-after"].flatMap { Int($0) }.map { Duration.seconds(max($0, 0)) }
            return BlobError(.rateLimited, status: 429, retryAfter: seconds, message)
        case 400..<500:
            return BlobError(.refused, status: answer.status, message)
        default:
            return BlobError(.serverFailed, status: answer.status, message)
        }
    }
}
