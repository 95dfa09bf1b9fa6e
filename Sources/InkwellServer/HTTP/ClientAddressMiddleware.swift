public import Hummingbird
import Logging

/// Finds the client each request came from (``TrustedProxies/client(of:headers:)``): the blob routes count
/// uploads by its address, and every log line about the request carries it as `client.address`.
public struct ClientAddressMiddleware<Context: ClientAddressRequestContext>: RouterMiddleware {
    let proxies: TrustedProxies

    package init(proxies: TrustedProxies) {
        self.proxies = proxies
    }

    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = proxies.client(of: context.remoteAddress, headers: request.headers)
        if let address = context.clientAddress?.ipAddress {
            context.logger[metadataKey: "client.address"] = .string(address)
        }
        return try await next(request, context)
    }
}
