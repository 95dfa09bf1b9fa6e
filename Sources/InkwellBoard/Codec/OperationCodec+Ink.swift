import InkwellGeometry
import InkwellSync

extension OperationCodec {
    /// The operation's encoded `Operation`: ink (`addStroke`, `appendPoints`) written directly (see
    /// ``OperationLayout``), the rest through the generated messages. Both give the same bytes.
    static func bytes(_ operation: BoardOperation, in change: ChangeID) -> [UInt8] {
        let layout = OperationLayout(operation, in: change)
        var wire = WireWriter(capacity: layout.size)
        layout.write(to: &wire)
        assert(wire.bytes.count == layout.size, "an operation is written at the size it was measured at")
        return wire.bytes
    }
}
