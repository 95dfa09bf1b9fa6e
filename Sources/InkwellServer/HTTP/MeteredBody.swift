import Hummingbird

/// A request body that asks `meter` before each chunk it passes on, and stops with ``Refused`` when the
/// meter says no: an upload's bytes counted against its address's rate as they arrive.
struct MeteredBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    /// The meter refused a chunk: the upload may go on after `wait`.
    struct Refused: Error {
        let wait: Duration
    }

    let base: Base
    /// Nil when the chunk's bytes may pass, otherwise how long to wait; nil for a body that is not metered.
    let meter: (@Sendable (Int) -> Duration?)?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let meter: (@Sendable (Int) -> Duration?)?

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            if let meter, let wait = meter(chunk.readableBytes) { throw Refused(wait: wait) }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), meter: meter)
    }
}
