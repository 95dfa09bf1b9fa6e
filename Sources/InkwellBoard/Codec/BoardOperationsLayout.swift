public import InkwellSync

/// A board change's operations measured: ink laid out field by field, anything else as the generated
/// encoder's bytes, written straight into the change (no array per operation).
public struct BoardOperationsLayout: EncodedOperations {
    let layouts: [OperationLayout]

    public var fieldsSize: Int { layouts.reduce(0) { $0 + WireWriter.fieldSize($1.size) } }

    public func write(field: UInt64, to writer: inout WireWriter) {
        for layout in layouts {
            writer.key(field, 2)
            writer.varint(UInt64(layout.size))
            layout.write(to: &writer)
        }
    }
}
