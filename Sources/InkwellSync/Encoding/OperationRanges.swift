/// Where a change's operations lie in the bytes they were read from: almost always one range, kept
/// without allocating an array (one allocation fewer per change decoded).
///
/// A concrete type, not a generic collection, so that a document type's reader runs specialised for
/// it whichever module calls it.
@frozen public struct OperationRanges: RandomAccessCollection, Sendable {
    @usableFromInline var first: Range<Int>?
    @usableFromInline var rest: [Range<Int>] = []

    @inlinable public init() {}

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { first == nil ? 0 : 1 + rest.count }

    @inlinable public subscript(position: Int) -> Range<Int> {
        precondition(position >= 0 && position < endIndex, "operation index out of range")
        return position == 0 ? first! : rest[position - 1]
    }

    @inlinable public mutating func append(_ range: Range<Int>) {
        if first == nil { first = range } else { rest.append(range) }
    }
}
