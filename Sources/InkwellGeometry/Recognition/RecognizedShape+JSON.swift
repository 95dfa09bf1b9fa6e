extension RecognizedShape {
    /// The geometry as a JSON object with a fixed key order, numbers rounded to `decimals` places if given: the
    /// CLI's output and the conformance vectors' expected values. `{}` for `.none`.
    package func geometryJSON(decimals: Int? = nil) -> String {
        var scale = 1.0
        for _ in 0..<(decimals ?? 0) { scale *= 10 }
        func number(_ value: Double) -> String {
            // Divided, not multiplied by 1e-6, so 1.234568 prints as itself.
            let value = decimals == nil ? value : (value * scale).rounded() / scale
            return value == 0 ? "0" : "\(value)"
        }
        func point(_ point: Point) -> String { "[\(number(point.x)), \(number(point.y))]" }
        func points(_ points: [Point]) -> String { "[" + points.map(point).joined(separator: ", ") + "]" }
        switch self {
        case .none:
            return "{}"
        case .line(let start, let end):
            return "{\"points\": \(points([start, end]))}"
        case .rectangle(let corners), .triangle(let corners), .diamond(let corners):
            return "{\"points\": \(points(corners))}"
        case .ellipse(let center, let radiusX, let radiusY, let rotation):
            return "{\"center\": \(point(center)), \"radiusX\": \(number(radiusX)), \"radiusY\": \(number(radiusY)), "
                + "\"rotation\": \(number(rotation))}"
        case .arrow(let tail, let tip, let head):
            return "{\"tail\": \(point(tail)), \"tip\": \(point(tip)), \"head\": \(points(head))}"
        }
    }
}
