public import Hummingbird
public import Logging

/// Logs every request (method, path, status, duration) and counts it in `inkwell_http_requests_total`.
///
/// A room link names its room and may carry a capability in its query, and logs travel further than the server:
/// the line gives the path with no query, `/r/…` for any room's page and `/rooms/…` for any room's blob
/// (``loggedPath(_:)``); the full request target goes on a line of its own at `debug`. A blob's capability
/// travels in the `Authorization` header, which is never logged.
///
/// It logs through the context's logger, which Hummingbird gives an `hb.request.id` for each request, so every
/// line about one request carries the same id. The duration runs until the response head is ready: a streamed
/// body (a blob download) is still being sent when the line is written.
public struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let level: Logger.Level

    /// Server errors are always logged at `error`; everything else at `level`.
    public init(metrics: ServerMetrics, level: Logger.Level = .info) {
        self.metrics = metrics
        self.level = level
    }

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, status: response.status, since: start, context: context)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record(request, status: status, since: start, context: context)
            throw error
        }
    }

    private func record(
        _ request: Request,
        status: HTTPResponse.Status,
        since start: ContinuousClock.Instant,
        context: Context
    ) {
        metrics.httpRequest(method: request.method.rawValue, status: status.code)
        let duration = ContinuousClock.now - start
        context.logger.debug("request target", metadata: ["http.target": .string(request.uri.description)])
        context.logger.log(
            level: status.code >= 500 ? .error : level,
            "request",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.path": .string(Self.loggedPath(request.uri.path)),
                "http.status": .string(String(status.code)),
                "http.duration_seconds": .string(String(duration.seconds)),
            ]
        )
    }

    /// `path` with no query and no room name: `/r/<room>…` becomes `/r/…`, and a room's blob
    /// `/rooms/<room>/blobs/<hash>` becomes `/rooms/…`.
    package static func loggedPath(_ path: String) -> String {
        let path = path.prefix { $0 != "?" }
        if path.hasPrefix("/r/") { return "/r/…" }
        if path.hasPrefix("/rooms/") { return "/rooms/…" }
        return String(path)
    }
}

extension Duration {
    /// The duration in seconds, with fractions.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
