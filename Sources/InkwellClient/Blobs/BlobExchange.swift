import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request to a blob route and its answer, over `URLSession`: the answer's body is read up to a limit
/// and cut off past it (a hostile server cannot fill the client's memory), and a redirect is never
/// followed (the capability goes to the server it was meant for, and nowhere else).
final class BlobExchange: NSObject, URLSessionDataDelegate, Sendable {
    /// What the server answered.
    struct Answer: Sendable {
        var status: Int
        /// By lower-case name.
        var headers: [String: String]
        var body: [UInt8]
    }

    private struct State {
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var overLimit = false
        var continuation: CheckedContinuation<Answer, any Error>?
    }

    private let limit: Int
    private let state = Mutex(State())

    private init(limit: Int) {
        self.limit = limit
    }

    /// Sends `method` to `url` with `capability` as its bearer token and `body`, and reads the answer's
    /// body up to `maximumBytes`.
    ///
    /// - Throws: ``BlobError`` with code ``BlobError/Code/unreachable`` when there is no whole answer, or
    ///   ``BlobError/Code/tooLarge`` when its body runs past `maximumBytes`.
    static func run(
        _ method: String,
        _ url: URL,
        capability: String?,
        body: [UInt8]? = nil,
        maximumBytes: Int,
        timeout: Duration
    ) async throws -> Answer {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = max(1, Double(timeout.components.seconds))
        if let capability { request.setValue("Bearer \(capability)", forHTTPHeaderField: "Authorization") }
        let exchange = BlobExchange(limit: maximumBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        let session = URLSession(configuration: configuration, delegate: exchange, delegateQueue: nil)
        // The session holds its delegate until it is invalidated.
        defer { session.finishTasksAndInvalidate() }
        let task =
            if let body {
                session.uploadTask(with: request, from: Data(body))
            } else {
                session.dataTask(with: request)
            }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchange.state.withLock { $0.continuation = continuation }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch {
            try Task.checkCancellation()
            throw error
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields {
                headers[name.lowercased()] = value
            }
            state.withLock { state in
                state.status = response.statusCode
                state.headers = headers
            }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = state.withLock { state in
            guard !state.overLimit else { return false }
            guard state.body.count + data.count <= limit else {
                state.overLimit = true
                return true
            }
            state.body.append(contentsOf: data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock {
            state -> (CheckedContinuation<Answer, any Error>?, Result<Answer, any Error>) in
            defer { state.continuation = nil }
            let result: Result<Answer, any Error> =
                if state.overLimit {
                    .failure(BlobError(.tooLarge, "the server's answer is larger than \(limit) bytes"))
                } else if let error {
                    .failure(BlobError(.unreachable, "the server could not be reached: \(error.localizedDescription)"))
                } else if state.status == 0 {
                    .failure(BlobError(.unreachable, "the server gave no HTTP answer"))
                } else {
                    .success(Answer(status: state.status, headers: state.headers, body: state.body))
                }
            return (state.continuation, result)
        }
        continuation?.resume(with: result)
    }
}
