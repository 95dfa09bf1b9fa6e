import Foundation
public import InkwellSync

/// The board as a document type of the engine: its changes are filed under `board`, its operations
/// are `Operation` messages (`Protos/inkwell/v1/board.proto`).
extension BoardEdit: DocumentEdit {
    public static let documentType = DocumentType.unnamed

    /// 1 since the first release: a newer schema would be kept aside by this version.
    public static let schemaVersion: UInt32 = 1

    public var document: String { board.rawValue }

    /// Ink (`addStroke`, `appendPoints`) written directly (see ``OperationLayout``), the rest through
    /// the generated messages: the same bytes either way.
    ///
    /// - Complexity: O(size of the edit).
    public func encodedOperations(in change: ChangeID) -> [[UInt8]] {
        operations.map { OperationCodec.bytes($0, in: change) }
    }

    /// Each operation measured (see ``OperationLayout``), so a change is written into one array.
    public func operationsLayout(in change: ChangeID) -> BoardOperationsLayout {
        BoardOperationsLayout(layouts: operations.map { OperationLayout($0, in: change) })
    }

    /// Ink read directly where it lies, the rest through the generated decoder; anything unreadable
    /// becomes ``BoardOperation/unknown(kind:bytes:)``.
    ///
    /// - Complexity: O(size of the operations).
    public init(document: String, operations: [ArraySlice<UInt8>], in change: ChangeID) {
        self.init(
            board: BoardID(document),
            operations: operations.map {
                WireReader.inkOperation($0, in: change) ?? OperationCodec.decode(Array($0), in: change)
            }
        )
    }

    /// The same, each operation read where it lies in `source`.
    public init(
        document: String,
        operations source: ArraySlice<UInt8>,
        at ranges: OperationRanges,
        in change: ChangeID
    ) {
        self.init(
            board: BoardID(document),
            operations: ranges.map {
                WireReader.inkOperation(source, $0, in: change) ?? OperationCodec.decode(Array(source[$0]), in: change)
            }
        )
    }

    /// A snapshot's changes, each operation read where it lies, in the board's own code.
    public static func changes(
        document: String,
        operations source: ArraySlice<UInt8>,
        laidOut: [LaidOutChange]
    ) -> [BoardChange] {
        let board = BoardID(document)
        return laidOut.map { change in
            BoardChange(
                id: change.id,
                stamp: change.stamp,
                payload: BoardEdit(
                    board: board,
                    operations: change.operations.map {
                        WireReader.inkOperation(source, $0, in: change.id)
                            ?? OperationCodec.decode(Array(source[$0]), in: change.id)
                    }
                )
            )
        }
    }

    /// The strokes this change names, as ``StrokeID/description``s, without repeats, in operation order.
    ///
    /// Undo, redo, clear and settle name no stroke directly: what they touch depends on the board, so a view
    /// redraws the board.
    ///
    /// - Complexity: O(operations).
    public func entities(in change: ChangeID) -> [String] {
        var seen: Set<StrokeID> = []
        var entities: [String] = []
        for (index, operation) in operations.enumerated() {
            let stroke: StrokeID
            switch operation {
            case .addStroke, .addText, .addImage: stroke = StrokeID(change: change, index: UInt32(index))
            case .appendPoints(let target, _, _), .erase(let target, _), .set(let target, _),
                .insertText(let target, _, _), .deleteText(let target, _):
                stroke = target
            case .undo, .redo, .clear, .settle, .unknown: continue
            }
            if seen.insert(stroke).inserted { entities.append(stroke.description) }
        }
        return entities
    }
}

extension Change where Payload == BoardEdit {
    /// The strokes this change names (see ``BoardEdit/entities(in:)``).
    public var entities: [String] { payload.entities(in: id) }
}

extension ReplicaID {
    var bytesData: Data { Data(bytes) }
}
