public import Hummingbird
import Logging

/// Turns every error thrown below it into a ``JSONError`` response, so clients see one error shape: Hummingbird's
/// own errors (such as the router's "not found") keep their status, anything else is a logged 500.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let error: JSONError
        do {
            return try await next(request, context)
        } catch let thrown as JSONError {
            error = thrown
        } catch let thrown as HTTPError {
            error = JSONError(
                thrown.status,
                thrown.body ?? thrown.status.reasonPhrase.lowercased(),
                headers: thrown.headers
            )
        } catch let thrown as any HTTPResponseError {
            error = JSONError(status: thrown.status)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            return JSONError(.internalServerError, "internal server error").response(to: request)
        }
        return error.response(to: request)
    }
}
