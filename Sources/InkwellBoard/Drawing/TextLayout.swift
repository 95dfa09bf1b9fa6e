public import InkwellGeometry

/// Where a text box's lines go, the same in the page, SVG and PNG (docs/ARCHITECTURE.md, "Text boxes on
/// the board"): lines split at newlines, line `i`'s baseline `size × (1 + 1.25 i)` below the corner, all
/// starting at the corner's x, before the box's transform.
public struct TextLayout: Sendable {
    /// The family every renderer asks for: a page without Inkwell Sans falls back alike.
    public static let fontFamily = "Inkwell Sans, Helvetica, Arial, sans-serif"
    public static let lineHeight = 1.25
    /// A generous mean advance of a character in ems, for bounds where no font is at hand to measure.
    public static let estimatedAdvance = 0.62

    public let corner: Point
    public let size: Double
    public let lines: [Substring]

    public init(corner: Point, size: Double, text: String) {
        self.corner = corner
        self.size = size
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The baseline of line `index`.
    public func baseline(ofLine index: Int) -> Double {
        corner.y + size * (1 + Self.lineHeight * Double(index))
    }

    /// The box the text takes before its transform, its width estimated: what to redraw and export.
    public var estimatedBounds: Rect {
        let widest = lines.map { $0.unicodeScalars.count }.max() ?? 0
        return Rect(
            minX: corner.x,
            minY: corner.y,
            maxX: corner.x + Double(widest) * size * Self.estimatedAdvance,
            maxY: corner.y + size * Self.lineHeight * Double(max(lines.count, 1))
        )
    }
}
