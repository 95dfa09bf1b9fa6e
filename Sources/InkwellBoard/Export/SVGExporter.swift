import Foundation
import InkwellGeometry

/// Writes what a board shows as SVG: visible strokes bottom to top, each visible piece as a smooth
/// path (erased parts are simply not there), in its current colour, width and transform.
public struct SVGExporter: Sendable {
    public struct Configuration: Sendable {
        /// Space around the drawing, in board pixels.
        public var margin: Double = 16
        /// Painted behind the drawing; `nil` leaves it transparent.
        public var background: Colour? = nil
        /// Decimal places kept in coordinates.
        public var decimals: Int = 2

        public init() {}
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The SVG document for `board`. `imageBytes` gives an image's bytes where they are at hand (plain,
    /// opened if the room is encrypted); an image without them is drawn as a grey box naming its blob.
    ///
    /// - Complexity: O(visible points, characters and image bytes).
    public func svg(for board: BoardState, imageBytes: (BoardImage) -> [UInt8]? = { _ in nil }) -> String {
        let strokes = Array(board.drawing)
        let bounds =
            strokes.compactMap(\.bounds).reduce(nil) { $0?.union($1) ?? $1 }
            ?? Rect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        let view = bounds.expanded(by: configuration.margin)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(number(view.minX)) \(number(view.minY)) \
            \(number(view.width)) \(number(view.height))" width="\(number(view.width))" height="\(number(view.height))">

            """
        if let background = configuration.background {
            svg +=
                "<rect x=\"\(number(view.minX))\" y=\"\(number(view.minY))\" width=\"\(number(view.width))\" "
                + "height=\"\(number(view.height))\"\(paint("fill", background))/>\n"
        }
        svg += "<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        for stroke in strokes {
            if let image = stroke.image {
                svg += element(for: stroke, showing: image, bytes: imageBytes(image))
            } else {
                svg += element(for: stroke)
            }
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// One stroke: a path with a subpath per visible piece, or a circle for a dot; or a text box.
    func element(for stroke: DrawingStroke) -> String {
        if let layout = stroke.layout { return element(for: stroke, laidOut: layout) }
        let width = stroke.width * averagePressure(stroke)
        let transform = stroke.transform.isIdentity ? "" : " transform=\"matrix(\(matrix(stroke.transform)))\""
        let id = " data-stroke=\"\(stroke.id)\""
        if stroke.points.count == 1 {
            let centre = stroke.points[0]
            return "<circle\(id) cx=\"\(number(centre.x))\" cy=\"\(number(centre.y))\" r=\"\(number(width / 2))\""
                + "\(paint("fill", stroke.colour))\(transform)/>\n"
        }
        let curve = SmoothCurve(points: stroke.points)
        var filled = ""
        if let fill = stroke.fill, stroke.points.count > 2 {
            // The whole outline, closed, whatever is erased of the ink: erasing cuts the line, not the paint.
            let beziers = curve.beziers(in: ParameterInterval(0, Double(stroke.points.count - 1)))
            var outline = "M\(pair(stroke.points[0]))"
            for bezier in beziers {
                outline += "C\(pair(bezier.control1)) \(pair(bezier.control2)) \(pair(bezier.end))"
            }
            filled = "<path\(id) d=\"\(outline)Z\"\(paint("fill", fill))\(transform)/>\n"
        }
        var path = ""
        for piece in stroke.pieces {
            let beziers = curve.beziers(in: piece)
            guard let first = beziers.first else { continue }
            path += "M\(number(first.start.x)) \(number(first.start.y))"
            for bezier in beziers {
                path += "C\(pair(bezier.control1)) \(pair(bezier.control2)) \(pair(bezier.end))"
            }
        }
        return filled
            + "<path\(id) d=\"\(path)\"\(paint("stroke", stroke.colour)) stroke-width=\"\(number(width))\"\(transform)/>\n"
    }

    /// An image: its bytes as a data URL filling its box, or a grey box where they are not at hand.
    func element(for stroke: DrawingStroke, showing image: BoardImage, bytes: [UInt8]?) -> String {
        let corner = stroke.points[0]
        let transform = stroke.transform.isIdentity ? "" : " transform=\"matrix(\(matrix(stroke.transform)))\""
        let box =
            "x=\"\(number(corner.x))\" y=\"\(number(corner.y))\" width=\"\(number(image.width))\" "
            + "height=\"\(number(image.height))\"\(transform)"
        guard let bytes else {
            return "<rect data-stroke=\"\(stroke.id)\" data-blob=\"\(image.blobHex)\" \(box) fill=\"#e5e7eb\"/>\n"
        }
        return "<image data-stroke=\"\(stroke.id)\" \(box) preserveAspectRatio=\"none\" "
            + "href=\"data:\(image.type);base64,\(Data(bytes).base64EncodedString())\"/>\n"
    }

    /// A text box: a `text` of a `tspan` per line, spaces kept; nothing for an empty box.
    func element(for stroke: DrawingStroke, laidOut layout: TextLayout) -> String {
        guard !(stroke.text ?? "").isEmpty else { return "" }
        let transform = stroke.transform.isIdentity ? "" : " transform=\"matrix(\(matrix(stroke.transform)))\""
        var element =
            "<text data-stroke=\"\(stroke.id)\" font-family=\"\(TextLayout.fontFamily)\" "
            + "font-size=\"\(number(layout.size))\" xml:space=\"preserve\"\(paint("fill", stroke.colour))\(transform)>"
        for (index, line) in layout.lines.enumerated() where !line.isEmpty {
            element +=
                "<tspan x=\"\(number(layout.corner.x))\" y=\"\(number(layout.baseline(ofLine: index)))\">"
                + "\(Self.escaped(line))</tspan>"
        }
        return element + "</text>\n"
    }

    /// Text as XML character data: markup escaped, and characters XML 1.0 cannot hold at all dropped.
    static func escaped(_ text: Substring) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t": result += "&#9;"
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// SVG has no variable width: a stroke with pressure is drawn at its mean pressure.
    func averagePressure(_ stroke: DrawingStroke) -> Double {
        guard let pressures = stroke.pressures, !pressures.isEmpty else { return 1 }
        return Double(pressures.reduce(0, +)) / Double(pressures.count)
    }

    func paint(_ property: String, _ colour: Colour) -> String {
        let opaque = Colour(red: colour.red, green: colour.green, blue: colour.blue)
        let opacity = colour.alpha == 255 ? "" : " \(property)-opacity=\"\(number(Double(colour.alpha) / 255))\""
        return " \(property)=\"\(opaque.hex)\"\(opacity)"
    }

    func matrix(_ t: Transform) -> String {
        [t.a, t.b, t.c, t.d, t.tx, t.ty].map(number).joined(separator: " ")
    }

    func pair(_ point: Point) -> String { "\(number(point.x)) \(number(point.y))" }

    /// Fixed decimals with trailing zeros trimmed: `1.50` → `1.5`, `2.00` → `2`.
    func number(_ value: Double) -> String {
        var text = String(format: "%.\(configuration.decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
