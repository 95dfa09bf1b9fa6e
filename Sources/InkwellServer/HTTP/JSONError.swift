import Foundation
public import Hummingbird

/// An HTTP error answered as JSON `{"error": "<plain words>"}`: the one error shape of every HTTP route.
public struct JSONError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    /// Plain words for people, safe to log: no paths, no request content.
    public let message: String
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// The message for a status that came without one: its reason phrase in lower case, "not found".
    public init(status: HTTPResponse.Status, headers: HTTPFields = [:]) {
        self.init(status, status.reasonPhrase.lowercased(), headers: headers)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(to: request)
    }

    /// The JSON response; for `HEAD`, only its head.
    func response(to request: Request) -> Response {
        let response = Response.json(["error": message], status: status, headers: headers)
        return request.method == .head ? response.createHeadResponse() : response
    }
}

extension Response {
    /// `value` encoded as JSON with sorted keys.
    static func json(_ value: some Encodable, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and dictionaries of them cannot fail.
        let bytes = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
