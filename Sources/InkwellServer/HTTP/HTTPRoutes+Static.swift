import Hummingbird
import Logging

extension HTTPRoutes {
    /// Serves the web client's files (with `index.html` for folders), asking browsers to revalidate so a new
    /// version of the client is picked up at once.
    func staticFiles<Context: RequestContext>(
        _ webRoot: String,
        context: Context.Type
    ) -> FileMiddleware<Context, LocalFileSystem> {
        FileMiddleware(
            webRoot,
            cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]),
            searchForIndexHtml: true,
            logger: logger
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
