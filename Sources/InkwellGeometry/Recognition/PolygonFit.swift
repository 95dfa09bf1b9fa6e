/// A polygon fitted to a loop at given corners: a straight line through the middle of each edge, the corners
/// where neighbouring lines cross.
///
/// The ends of each edge are left out of its line fit because people round their corners.
struct PolygonFit {
    /// One line per edge; edge `i` runs from corner `i` to corner `i + 1`.
    var edges: [LineFit]
    /// Where edge `i - 1` meets edge `i`.
    var vertices: [Point]

    init?(_ loop: Loop, corners: [Int], trim: Double) {
        let count = loop.points.count
        var edges: [LineFit] = []
        for (position, corner) in corners.enumerated() {
            let next = corners[(position + 1) % corners.count]
            let span = (next - corner + count) % count
            let margin = Int(Double(span) * trim)
            let inner = (margin...(span - margin)).map { loop.points[(corner + $0) % count] }
            guard let fit = LineFit(inner.count >= 2 ? inner : [loop.points[corner], loop.points[next]]) else {
                return nil
            }
            edges.append(fit)
        }
        var vertices: [Point] = []
        for (position, corner) in corners.enumerated() {
            let previous = edges[(position + edges.count - 1) % edges.count]
            vertices.append(previous.intersection(with: edges[position]) ?? loop.points[corner])
        }
        self.edges = edges
        self.vertices = vertices
    }
}
