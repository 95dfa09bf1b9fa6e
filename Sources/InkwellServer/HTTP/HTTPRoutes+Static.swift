import Hummingbird
import Logging

extension HTTPRoutes {
    /// Serves the files of ``WebFiles`` from the web root. `/` and `/index.html` are the page as
    /// ``WebShell`` writes it, naming its modules and stylesheet under `/v/VERSION/`, which are answered as
    /// immutable; the same files at their own paths (the page's tests and benchmarks import them so),
    /// `sw.js` and the page itself ask browsers to revalidate. Any other path goes on to the routes.
    struct StaticFiles<Context: RequestContext>: RouterMiddleware {
        /// A year, and `immutable`: a new version of a file is a new path.
        static var immutable: String { "public, max-age=31536000, immutable" }

        let files: FileMiddleware<Context, LocalFileSystem>
        let shell: WebShell
        let testPages: Bool

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let path = request.uri.path
            if path == "/" || path == "/index.html", request.method == .get || request.method == .head {
                return page(shell, request: request)
            }
            if let (file, current) = shell.unversioned(path), WebFiles.serves(file) {
                var head = request.head
                head.path = file
                var response = try await files.handle(
                    Request(head: head, body: request.body),
                    context: context,
                    next: next
                )
                // A version other than the current one gets today's file, to be asked for again.
                if current, response.status == .ok || response.status == .notModified {
                    response.headers[.cacheControl] = Self.immutable
                }
                return response
            }
            guard WebFiles.serves(path, testPages: testPages) else {
                return try await next(request, context)
            }
            return try await files.handle(request, context: context, next: next)
        }
    }

    func staticFiles<Context: RequestContext>(
        _ webRoot: String,
        shell: WebShell,
        context: Context.Type
    ) -> StaticFiles<Context> {
        StaticFiles(
            files: FileMiddleware(
                webRoot,
                cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
                searchForIndexHtml: true,
                logger: logger
            ),
            shell: shell,
            testPages: configuration.servesTestPages
        )
    }

    /// `GET /r/{room}`: the web client's page, which reads the room from its own URL.
    func roomPage(_ shell: WebShell, request: Request) -> Response {
        page(shell, request: request)
    }
}

/// The page, as ``WebShell`` writes it, revalidated on every load; a JSON 404 when the web root has none.
private func page(_ shell: WebShell, request: Request) -> Response {
    guard let bytes = shell.index() else {
        // Returned, not thrown, like a missing blob: there is no file to fall back to.
        return JSONError(.notFound, "the web client is not installed").response(to: request)
    }
    return Response(
        status: .ok,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
        body: .init(byteBuffer: ByteBuffer(bytes: bytes))
    )
}
