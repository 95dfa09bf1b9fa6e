/// A change's operations measured, then written: what lets a change be written into one array of its
/// exact size, each operation straight where it belongs, with no array of its own.
public protocol EncodedOperations {
    /// The bytes the operations take as length-delimited fields numbered below 16: a key, a length
    /// and the bytes, each.
    var fieldsSize: Int { get }

    /// Writes each operation as a length-delimited field `field` (below 16).
    func write(field: UInt64, to writer: inout WireWriter)
}

/// Operations already encoded, each its own bytes: what a type that writes no layout of its own
/// gives, and what a decoded change holds (slices of the bytes it came in).
extension Array: EncodedOperations where Element: Collection, Element.Element == UInt8 {
    public var fieldsSize: Int { reduce(0) { $0 + WireWriter.fieldSize($1.count) } }

    public func write(field: UInt64, to writer: inout WireWriter) {
        for operation in self { writer.field(field, operation) }
    }
}
