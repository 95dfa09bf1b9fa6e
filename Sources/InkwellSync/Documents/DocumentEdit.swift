/// What one change does to one document of a type: the payload an app gives the engine.
///
/// A document type plugs into the engine by saying how its operations are written as bytes and read
/// back. Reading never fails: an operation this version cannot read (a newer kind, content out of
/// range) is kept as it came, ignored by the state and written back unchanged, so a change stays whole
/// and its timeline has no gap.
public protocol DocumentEdit: Hashable, Sendable {
    /// The type every change of this payload carries.
    static var documentType: DocumentType { get }
    /// The schema this code writes. A change of a newer schema is kept aside until an upgrade reads it.
    static var schemaVersion: UInt32 { get }

    /// The document of its type the change belongs to (a board of a room, a day of a log …).
    var document: String { get }

    /// How the operations are written into a change: arrays of bytes unless the type measures and
    /// writes its own.
    associatedtype OperationsLayout: EncodedOperations = [[UInt8]]

    /// Each operation's bytes, for the change `change`.
    func encodedOperations(in change: ChangeID) -> [[UInt8]]

    /// The operations measured for the change `change`, to be written straight into it.
    func operationsLayout(in change: ChangeID) -> OperationsLayout

    /// The payload of the change `change` of `document`, from its operations' bytes.
    init(document: String, operations: [ArraySlice<UInt8>], in change: ChangeID)

    /// The same, from the operations at `ranges` of `source` (indices of the array `source` is a slice
    /// of): how changes are read by the thousand, from a change's bytes or a snapshot's columns,
    /// without an array of slices per change. The default makes the slices.
    init(
        document: String,
        operations source: ArraySlice<UInt8>,
        at ranges: OperationRanges,
        in change: ChangeID
    )

    /// The changes laid out by column in a snapshot, read where their operations lie in `source`: one
    /// call per snapshot, so the loop over its changes runs in the type's own, specialised code.
    static func changes(
        document: String,
        operations source: ArraySlice<UInt8>,
        laidOut: [LaidOutChange]
    ) -> [Change<Self>]

    /// The entities the change touches, named as the type names them: the store keeps them beside the
    /// change so an app can redraw, or query, only what a change touched.
    func entities(in change: ChangeID) -> [String]
}

extension DocumentEdit where OperationsLayout == [[UInt8]] {
    public func operationsLayout(in change: ChangeID) -> [[UInt8]] { encodedOperations(in: change) }
}

extension DocumentEdit {
    public func entities(in change: ChangeID) -> [String] { [] }

    public static func changes(
        document: String,
        operations source: ArraySlice<UInt8>,
        laidOut: [LaidOutChange]
    ) -> [Change<Self>] {
        laidOut.map {
            Change(
                id: $0.id,
                stamp: $0.stamp,
                payload: Self(document: document, operations: source, at: $0.operations, in: $0.id)
            )
        }
    }

    public init(
        document: String,
        operations source: ArraySlice<UInt8>,
        at ranges: OperationRanges,
        in change: ChangeID
    ) {
        self.init(document: document, operations: ranges.map { source[$0] }, in: change)
    }
}
