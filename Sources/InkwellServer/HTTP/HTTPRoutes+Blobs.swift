import Hummingbird
import InkwellStore
import InkwellWire
import Logging
import Prometheus

/// A room's blobs: `PUT`, `GET` and `HEAD /rooms/{room}/blobs/{sha256}`, with the room's capability in
/// `Authorization: Bearer CAPABILITY` (never in the URL, so never in a log), judged by the room's access as
/// the sync socket judges a subscription.
///
/// The bytes are stored once on disk however many rooms hold them (``BlobStore``); the pack log records
/// which rooms hold which blob (``PackLog/recordBlob(room:hash:size:quota:)``). A room gets a blob only by
/// uploading its bytes, even when the server holds them for another room already, so knowing a hash opens
/// nothing. An upload is written and checked in a temporary file, recorded in one transaction that checks
/// the room's quota, and only then becomes the blob: a refused upload leaves nothing behind.
extension HTTPRoutes {
    private struct Receipt: Encodable {
        var sha256: String
        var size: Int
    }

    /// `PUT /rooms/{room}/blobs/{sha256}`, with edit rights: 201 when recorded for the room, 200 when the room
    /// held it already (its body is not read then). Refused with 400 for a malformed name, 401 without a
    /// capability, 403 for one that does not give edit rights, 404 for no such room, 413 over the size of
    /// one blob or the room's quota (from `Content-Length` before reading when it is declared, as soon as a
    /// streamed body passes it otherwise, and again when the blob is recorded), 422 when the bytes hash to
    /// something else, 429 over the client's upload rate (with `Retry-After`), 503 once storage has failed.
    func putBlob(_ request: Request, context: some ClientAddressRequestContext) async throws -> Response {
        do {
            return try await storeBlob(request, context: context)
        } catch let error as JSONError where error.status == .notFound {
            // Returned, not thrown: a thrown 404 would send the static-file middleware looking for a file.
            return error.response(to: request)
        }
    }

    /// `GET` and `HEAD /rooms/{room}/blobs/{sha256}`, with view rights: the bytes, cacheable by the browser
    /// forever since the name is the content (but by no shared cache: the answer needs a capability). 404
    /// when the room does not hold the blob, even if another room does.
    func getBlob(_ request: Request, context: some RequestContext, includeBody: Bool) async throws -> Response {
        do {
            return try await readBlob(request, context: context, includeBody: includeBody)
        } catch let error as JSONError where error.status == .notFound {
            return error.response(to: request)
        }
    }

    private func storeBlob(_ request: Request, context: some ClientAddressRequestContext) async throws -> Response {
        let (room, hash) = try Self.blobName(context)
        try await authorize(request, room: room, needs: .edit)
        guard log.fault == nil else {
            throw JSONError(.serviceUnavailable, "the server's storage has failed: no blob is stored until it restarts")
        }
        let held: PackLog.RoomBlobs
        do {
            held = try await log.blobs(room: room, hash: hash)
        } catch {
            throw Self.unreadable(context, error)
        }
        if let size = held.recordedSize, blobs.get(hash) != nil {
            return .json(Receipt(sha256: hash.hex, size: size), status: .ok)
        }

        let declared = request.headers[.contentLength].flatMap { Int($0) }
        let limit = configuration.maximumBlobBytes
        if let declared, declared > limit { throw Self.tooLarge(limit) }
        // A blob the room holds but whose file is missing (a crash between recording and installing) is
        // uploaded again without counting twice.
        var maximumBytes = limit
        if held.recordedSize == nil {
            let left = configuration.maximumBlobBytesPerRoom - held.chargedBytes
            guard PackLog.charge(forBlobOf: declared ?? 0) <= left else { throw Self.roomFull() }
            maximumBytes = min(limit, left)
        }

        let address = UploadRates.key(for: context.clientAddress)
        if let wait = uploads.take(PackLog.charge(forBlobOf: declared ?? 0), for: address) {
            throw Self.rateLimited(wait)
        }
        // A declared length was counted whole; a streamed body is counted as it arrives.
        let uploads = uploads
        let meter: (@Sendable (Int) -> Duration?)? =
            declared != nil ? nil : { @Sendable bytes in uploads.take(bytes, for: address) }
        let body = MeteredBody(base: request.body, meter: meter)
        let received: BlobStore.Received
        do {
            received = try await blobs.receive(expected: hash, body: body, maximumBytes: maximumBytes)
        } catch let refused as MeteredBody<RequestBody>.Refused {
            throw Self.rateLimited(refused.wait)
        } catch let error as BlobStoreError {
            switch error.code {
            case .tooLarge:
                throw maximumBytes < limit ? Self.roomFull() : Self.tooLarge(limit)
            case .hashMismatch:
                throw JSONError(.unprocessableContent, "the body's SHA-256 differs from the one in the URL")
            default:
                throw Self.notStored(context, error)
            }
        }
        return try await record(received, room: room, context: context)
    }

    /// Records a received upload for `room` within its quota, then makes it the blob of its name.
    private func record(
        _ received: BlobStore.Received,
        room: String,
        context: some RequestContext
    ) async throws
        -> Response
    {
        let hash = received.hash
        let recording: PackLog.BlobRecording
        do {
            recording = try await log.recordBlob(
                room: room,
                hash: hash,
                size: received.size,
                quota: configuration.maximumBlobBytesPerRoom
            )
        } catch {
            await blobs.discard(received)
            throw Self.notStored(context, error)
        }
        if case .overQuota = recording {
            await blobs.discard(received)
            throw Self.roomFull()
        }
        let installed: Bool
        do {
            installed = try await blobs.install(received)
        } catch {
            // Not charged for bytes it cannot read; unless a racing upload of the same blob installed it.
            if recording == .recorded, blobs.get(hash) == nil {
                try? await log.forgetBlob(room: room, hash: hash)
            }
            throw Self.notStored(context, error)
        }
        if installed { metrics.blobBytesStored.increment(by: Int64(received.size)) }
        let receipt = Receipt(sha256: hash.hex, size: received.size)
        guard recording == .recorded else { return .json(receipt, status: .ok) }
        return .json(receipt, status: .created, headers: [.location: "/rooms/\(room)/blobs/\(hash.hex)"])
    }

    private func readBlob(
        _ request: Request,
        context: some RequestContext,
        includeBody: Bool
    ) async throws
        -> Response
    {
        let (room, hash) = try Self.blobName(context)
        try await authorize(request, room: room, needs: .view)
        let recorded: Int?
        do {
            recorded = try await log.blobSize(room: room, hash: hash)
        } catch {
            throw Self.unreadable(context, error)
        }
        guard recorded != nil, let blob = blobs.get(hash) else {
            throw JSONError(.notFound, "this board holds no blob with this hash")
        }
        var headers: HTTPFields = [
            .contentType: "application/octet-stream",
            .cacheControl: "private, max-age=31536000, immutable",
            .eTag: "\"\(hash.hex)\"",
        ]
        if let candidates = request.headers[.ifNoneMatch], Self.matches(candidates, hash) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(blob.size)
        guard includeBody else { return Response(status: .ok, headers: headers) }
        return Response(
            status: .ok,
            headers: headers,
            body: try await fileIO.loadFile(path: blob.path, context: context)
        )
    }

    /// Checks that the request's capability gives at least `needed` rights in `room`, as the sync socket
    /// would: a room the server has no record of is open only on a server with open rooms.
    ///
    /// - Throws: ``JSONError`` 401 (with `WWW-Authenticate: Bearer`) when a guarded room is asked without a
    ///   capability, 403 when the capability gives too few rights, 404 for no such room, 503 when the room's
    ///   access cannot be read.
    private func authorize(_ request: Request, room: String, needs needed: Rights) async throws {
        let access: RoomAccess?
        do {
            access = try await log.access(room: room) ?? (configuration.openRooms ? .open : nil)
        } catch {
            throw JSONError(.serviceUnavailable, "the server could not read the board's access; try again later")
        }
        guard let access else { throw JSONError(.notFound, "no board here has this id; check the link") }
        let capability = Self.bearer(request.headers[.authorization])
        if access != .open, capability == nil {
            throw JSONError(
                .unauthorized,
                "this board needs its link's capability, sent as Authorization: Bearer CAPABILITY",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
        let rights = access.rights(for: capability ?? "")
        guard rights != .none else {
            throw JSONError(.forbidden, "this link does not open the board: it is wrong, or was replaced")
        }
        guard rights >= needed else { throw JSONError(.forbidden, "a view link may not upload to the board") }
    }

    /// The token of an `Authorization: Bearer TOKEN` header; nil without one, or for another scheme.
    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingPrefixAndSuffix(" ")
        return token.isEmpty ? nil : String(token)
    }

    private static func blobName(_ context: some RequestContext) throws -> (room: String, hash: BlobHash) {
        guard let room = context.parameters.get("room"), SyncProtocol.isValidRoom(room) else {
            throw JSONError(.badRequest, "a board's id is 1 to 128 of A-Z a-z 0-9 . _ -")
        }
        guard let hash = context.parameters.get("sha256").flatMap(BlobHash.init(urlComponent:)) else {
            throw JSONError(.badRequest, "a blob is named by its SHA-256 as 64 lowercase hex digits")
        }
        return (room, hash)
    }

    /// Refusals of a body for its size or its rate ask the client to close the connection rather than send
    /// the rest of a body nobody will read.
    private static func tooLarge(_ limit: Int) -> JSONError {
        JSONError(.contentTooLarge, "a blob may have at most \(limit) bytes", headers: [.connection: "close"])
    }

    private static func roomFull() -> JSONError {
        JSONError(
            .contentTooLarge,
            "the board's image storage is full: this upload would take it past its quota",
            headers: [.connection: "close"]
        )
    }

    /// 429 with the whole seconds to wait, at least one.
    private static func rateLimited(_ wait: Duration) -> JSONError {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        return JSONError(
            .tooManyRequests,
            "too many blob bytes uploaded from this address; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds), .connection: "close"]
        )
    }

    private static func unreadable(_ context: some RequestContext, _ error: any Error) -> JSONError {
        context.logger.warning("could not read a room's blobs", metadata: ["error": "\(error)"])
        return JSONError(.serviceUnavailable, "the server could not read the board's blobs; try again later")
    }

    private static func notStored(_ context: some RequestContext, _ error: any Error) -> JSONError {
        context.logger.error("could not store a blob", metadata: ["error": "\(error)"])
        return JSONError(.internalServerError, "the server could not store the blob")
    }

    /// Whether an `If-None-Match` list names this blob's entity tag (or is `*`).
    private static func matches(_ candidates: String, _ hash: BlobHash) -> Bool {
        candidates.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingPrefixAndSuffix(" ")
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == "*" || tag == "\"\(hash.hex)\""
        }
    }
}

extension Substring {
    fileprivate func trimmingPrefixAndSuffix(_ character: Character) -> Substring {
        var result = self
        while result.first == character { result = result.dropFirst() }
        while result.last == character { result = result.dropLast() }
        return result
    }
}
