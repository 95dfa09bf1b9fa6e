/// How a stroke is painted when it is added. Colour and width can change later through attributes.
public struct StrokeStyle: Hashable, Sendable {
    public var colour: Colour
    /// The pen width in board pixels, before pressure.
    public var width: Double

    public init(colour: Colour, width: Double) {
        self.colour = colour
        self.width = width
    }

    /// The largest width accepted from anyone: wider is treated as malformed input.
    public static let maximumWidth = 1_000.0
}
