extension SmoothCurve {
    /// Boxes holding the curve, one per run of `pointsPerChunk` segments: what a stroke is indexed by.
    ///
    /// A long stroke's single box is mostly empty space; chunk boxes keep an eraser from finding strokes that only
    /// pass near it. Boxes are of control points, so they hold the curve. A dot gives one zero-size box.
    /// - Complexity: O(n).
    public func chunkBounds(pointsPerChunk: Int = 16) -> [Rect] {
        guard let first = points.first else { return [] }
        guard !segments.isEmpty else { return [Rect(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)] }
        let size = Swift.max(pointsPerChunk, 1)
        return stride(from: 0, to: segments.count, by: size).map { start in
            segments[start..<Swift.min(start + size, segments.count)].dropFirst()
                .reduce(segments[start].controlBounds) { $0.union($1.controlBounds) }
        }
    }
}
