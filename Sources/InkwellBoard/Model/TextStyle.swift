public import InkwellSync

/// How a text box is written when it is added. Colour and size can change later through the `colour` and
/// `width` attributes, as a stroke's do.
public struct TextStyle: Hashable, Sendable {
    public var colour: Colour
    /// The font size in board pixels: the height of a line's em box.
    public var size: Double

    public init(colour: Colour, size: Double) {
        self.colour = colour
        self.size = size
    }
}

/// Characters of one run of a text box, as an insert wrote them: what a `deleteText` hides.
public struct TextRange: Hashable, Sendable {
    /// The insert that wrote the run.
    public let run: OperationID
    /// Offsets in the run, half-open.
    public let offsets: Range<UInt32>

    public init(run: OperationID, offsets: Range<UInt32>) {
        self.run = run
        self.offsets = offsets
    }
}

extension StrokeID {
    /// The operation that added the stroke or box (or wrote a run of text, named the same way).
    public var operation: OperationID { OperationID(change: change, index: index) }

    public init(_ operation: OperationID) {
        self.init(change: operation.change, index: operation.index)
    }
}
