import Hummingbird
import InkwellStore
import Logging
import Prometheus

extension HTTPRoutes {
    private struct Receipt: Encodable {
        var sha256: String
        var size: Int
    }

    /// `PUT /blobs/{sha256}`: 201 when stored, 200 when already there, 400 for a malformed name, 413 over the
    /// limit (refused from `Content-Length` before reading, or as soon as a streamed body passes it), 422 when
    /// the bytes hash to something else.
    func putBlob(_ request: Request, context: some RequestContext) async throws -> Response {
        let hash = try Self.blobHash(context)
        let limit = configuration.maximumBlobBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw Self.tooLarge(limit)
        }
        let outcome: BlobStore.PutOutcome
        do {
            outcome = try await blobs.put(expected: hash, body: request.body, maximumBytes: limit)
        } catch let error as BlobStoreError {
            switch error.code {
            case .tooLarge:
                throw Self.tooLarge(limit)
            case .hashMismatch:
                throw JSONError(.unprocessableContent, "the body's SHA-256 differs from the one in the URL")
            default:
                context.logger.error("could not store a blob", metadata: ["error": "\(error)"])
                throw JSONError(.internalServerError, "the server could not store the blob")
            }
        }
        switch outcome {
        case .created(let size):
            metrics.blobBytesStored.increment(by: Int64(size))
            return .json(
                Receipt(sha256: hash.hex, size: size),
                status: .created,
                headers: [.location: "/blobs/\(hash.hex)"]
            )
        case .alreadyPresent(let size):
            return .json(Receipt(sha256: hash.hex, size: size), status: .ok)
        }
    }

    /// `GET` and `HEAD /blobs/{sha256}`: the bytes, cacheable forever since the name is the content; 404 if absent.
    func getBlob(_ request: Request, context: some RequestContext, includeBody: Bool) async throws -> Response {
        let hash = try Self.blobHash(context)
        guard let blob = blobs.get(hash) else {
            // Returned, not thrown: a thrown 404 would send the static-file middleware looking for a file.
            return JSONError(.notFound, "no blob has this hash").response(to: request)
        }
        var headers: HTTPFields = [
            .contentType: "application/octet-stream",
            .cacheControl: "public, max-age=31536000, immutable",
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

    private static func blobHash(_ context: some RequestContext) throws -> BlobHash {
        guard let hash = context.parameters.get("sha256").flatMap(BlobHash.init(urlComponent:)) else {
            throw JSONError(.badRequest, "a blob is named by its SHA-256 as 64 lowercase hex digits")
        }
        return hash
    }

    /// Asks the client to close the connection rather than send the rest of a body nobody will read.
    private static func tooLarge(_ limit: Int) -> JSONError {
        JSONError(.contentTooLarge, "a blob may have at most \(limit) bytes", headers: [.connection: "close"])
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
