/// One user action: the unit of storage, sync and undo.
///
/// The engine does not look inside the payload; the board (or any other app model) gives it meaning.
public struct Change<Payload>: Identifiable {
    public let id: ChangeID
    public let stamp: Stamp
    public var payload: Payload

    public init(id: ChangeID, stamp: Stamp, payload: Payload) {
        self.id = id
        self.stamp = stamp
        self.payload = payload
    }

    /// The change's place in the total order `(stamp, replica, seq)`.
    public var position: OpStamp { OpStamp(stamp: stamp, change: id) }

    /// The total-order position of the change's `index`-th operation.
    public func opStamp(_ index: Int) -> OpStamp {
        OpStamp(stamp: stamp, change: id, index: UInt32(index))
    }
}

extension Change: Equatable where Payload: Equatable {}
extension Change: Hashable where Payload: Hashable {}
extension Change: Sendable where Payload: Sendable {}
