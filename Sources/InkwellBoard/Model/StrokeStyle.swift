/// How a stroke is painted when it is added. Colour and width can change later through attributes.
public struct StrokeStyle: Hashable, Sendable {
    public var colour: Colour
    /// The pen width in board pixels, before pressure.
    public var width: Double
    public var brush: Brush

    public init(colour: Colour, width: Double, brush: Brush = .pen) {
        self.colour = colour
        self.width = width
        self.brush = brush
    }

    /// The largest width accepted from anyone: wider is treated as malformed input.
    public static let maximumWidth = 1_000.0
}

/// What draws a stroke. A highlighter's ink goes beneath every other element, whatever their z-orders: its
/// strokes stack among themselves, under the pens', text and images.
public enum Brush: UInt32, Hashable, Sendable, CaseIterable {
    case pen = 0
    case highlighter = 1
}

extension Brush {
    /// Its name in the JSON form of operations and drawings: `pen`, `highlighter`.
    public var name: String {
        switch self {
        case .pen: "pen"
        case .highlighter: "highlighter"
        }
    }
}
