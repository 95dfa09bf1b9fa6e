import Hummingbird
import Logging

extension HTTPRoutes {
    /// Serves the files of ``WebFiles`` from the web root (with `index.html` for `/`), asking browsers to
    /// revalidate so a new version of the client is picked up at once. Any other path goes on to the routes.
    struct StaticFiles<Context: RequestContext>: RouterMiddleware {
        let files: FileMiddleware<Context, LocalFileSystem>
        let testPages: Bool

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard WebFiles.serves(request.uri.path, testPages: testPages) else {
                return try await next(request, context)
            }
            return try await files.handle(request, context: context, next: next)
        }
    }

    func staticFiles<Context: RequestContext>(_ webRoot: String, context: Context.Type) -> StaticFiles<Context> {
        StaticFiles(
            files: FileMiddleware(
                webRoot,
                cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
                searchForIndexHtml: true,
                logger: logger
            ),
            testPages: configuration.servesTestPages
        )
    }

    /// `GET /r/{room}`: the web client's `index.html`, which reads the room from its own URL.
    func roomPage(_ webRoot: String, request: Request, context: some RequestContext) async throws -> Response {
        let index = webRoot + "/index.html"
        guard BlobFileSystem.regularFileSize(index) != nil else {
            // Returned, not thrown, like a missing blob: there is no file to fall back to.
            return JSONError(.notFound, "the web client is not installed").response(to: request)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: try await fileIO.loadFile(path: index, context: context)
        )
    }
}
