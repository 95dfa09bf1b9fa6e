import Hummingbird

/// Adds ``SecurityHeaders`` to every response below it, errors included (it sits outside the JSON errors).
///
/// The policy's socket origin is the request's `Host` as a `ws:` (or `wss:`) origin, when the server answers that
/// host: the page may open its own sync socket and no other.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let hosts: HostPolicy
    /// The port the server listens on, for hosts given without a public URL.
    let port: @Sendable () -> Int

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        let fields = SecurityHeaders.fields(
            socketOrigin: hosts.socketOrigin(host: request.head.authority, port: port())
        )
        for field in fields { response.headers[field.name] = field.value }
        return response
    }
}
