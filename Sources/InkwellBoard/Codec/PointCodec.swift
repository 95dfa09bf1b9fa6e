import InkwellGeometry

/// Quantised, delta-encoded ink points: a few bytes a point instead of the sixteen of two doubles.
///
/// Coordinates go on the coarsest power-of-two grid that holds them all exactly (pen input is
/// snapped to 1/8 px, so that is usually 8 steps per pixel), and each point is sent as its
/// difference from the straight-line prediction 2·p[i−1] − p[i−2]: pen motion is smooth, so the
/// residuals are small and most take one varint byte. Off-grid points fall back to raw doubles,
/// so encoding never changes a value.
enum PointCodec {
    /// The grids tried, coarsest first.
    static let scales: [UInt32] = (0...10).map { 1 << $0 }

    /// Coordinates beyond this many grid steps are not quantised (|k| must stay well inside Int64).
    static let maximumSteps = Double(1 << 52)

    /// The coarsest grid that holds every coordinate exactly, or `nil` when none does.
    ///
    /// One pass: a coordinate's grid is fixed by how many binary digits it has after the point, and
    /// the grid of the points is the finest of those. Scaling by a power of two is exact, so the
    /// coordinates are whole numbers of steps on that grid and on no coarser one.
    ///
    /// - Complexity: O(points).
    static func grid(for points: [Point]) -> UInt32? {
        let finest = scales.count - 1
        var bits = 0
        var largest = 0.0
        for point in points {
            bits = max(bits, fractionalBits(point.x), fractionalBits(point.y))
            guard bits <= finest else { return nil }
            largest = max(largest, abs(point.x), abs(point.y))
        }
        let scale = scales[bits]
        return largest * Double(scale) < maximumSteps ? scale : nil
    }

    /// The binary digits of `value` after the point; more than any grid has for NaN, infinities and
    /// subnormals.
    static func fractionalBits(_ value: Double) -> Int {
        guard value != 0 else { return 0 }
        guard value.isNormal else { return .max }
        let significand = value.significandBitPattern | (1 << UInt64(Double.significandBitCount))
        let bits = Double.significandBitCount - significand.trailingZeroBitCount - Int(value.exponent)
        return max(0, bits)
    }

    /// The residuals of `points` on the grid `scale` (which must hold them).
    static func residuals(of points: [Point], scale: UInt32) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(points.count * 2)
        forEachResidual(of: points, scale: scale) { result.append($0) }
        return result
    }

    /// Calls `body` with each residual of `points` on the grid `scale` (which must hold them), x then y
    /// per point: the first point as is, the second as its difference from the first, each later one as
    /// its difference from the straight-line prediction 2·p[i-1] − p[i-2].
    @inline(__always)
    static func forEachResidual(of points: [Point], scale: UInt32, _ body: (Int64) -> Void) {
        let factor = Double(scale)
        var previous = (x: Int64(0), y: Int64(0))
        var beforePrevious = (x: Int64(0), y: Int64(0))
        for (index, point) in points.enumerated() {
            let current = (x: Int64(point.x * factor), y: Int64(point.y * factor))
            switch index {
            case 0:
                body(current.x)
                body(current.y)
            case 1:
                body(current.x - previous.x)
                body(current.y - previous.y)
            default:
                body(current.x - (2 * previous.x - beforePrevious.x))
                body(current.y - (2 * previous.y - beforePrevious.y))
            }
            beforePrevious = previous
            previous = current
        }
    }

    /// Rebuilds points from residuals, rejecting anything that overflows or leaves the board.
    static func points(fromResiduals residuals: [Int64], scale: UInt32) throws(BoardCodecError) -> [Point] {
        guard residuals.count.isMultiple(of: 2) else { throw .invalidField("points.residuals") }
        guard residuals.count / 2 <= BoardLimits.maximumPointsPerOperation else { throw .tooLarge("points") }
        guard scale.nonzeroBitCount == 1, scale <= scales.last! else { throw .invalidField("points.scale") }
        let factor = Double(scale)
        var points: [Point] = []
        points.reserveCapacity(residuals.count / 2)
        var previous = (x: Int64(0), y: Int64(0))
        var beforePrevious = (x: Int64(0), y: Int64(0))
        var index = 0
        while index < residuals.count {
            let dx = residuals[index]
            let dy = residuals[index + 1]
            let current: (x: Int64, y: Int64)
            switch index {
            case 0:
                current = (dx, dy)
            case 2:
                current = (try add(previous.x, dx), try add(previous.y, dy))
            default:
                let predicted = (
                    x: try predict(previous.x, beforePrevious.x), y: try predict(previous.y, beforePrevious.y)
                )
                current = (try add(predicted.x, dx), try add(predicted.y, dy))
            }
            let point = Point(Double(current.x) / factor, Double(current.y) / factor)
            guard abs(point.x) <= maximumCoordinate, abs(point.y) <= maximumCoordinate else {
                throw .invalidField("points")
            }
            points.append(point)
            beforePrevious = previous
            previous = current
            index += 2
        }
        return points
    }

    /// The board's limit on coordinates.
    static let maximumCoordinate = 1e9

    private static func add(_ a: Int64, _ b: Int64) throws(BoardCodecError) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw .invalidField("points.residuals") }
        return sum
    }

    private static func predict(_ previous: Int64, _ beforePrevious: Int64) throws(BoardCodecError) -> Int64 {
        let (double, overflow) = previous.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw .invalidField("points.residuals") }
        let (prediction, overflow2) = double.subtractingReportingOverflow(beforePrevious)
        guard !overflow2 else { throw .invalidField("points.residuals") }
        return prediction
    }

    /// Pressures as bytes when each is exactly k/255, else `nil` (send raw floats).
    static func pressureBytes(_ pressures: [Float]) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pressures.count)
        for pressure in pressures {
            let step = (pressure * 255).rounded()
            guard step >= 0, step <= 255, Float(step) / 255 == pressure else { return nil }
            bytes.append(UInt8(step))
        }
        return bytes
    }

    static func pressures(fromBytes bytes: some Collection<UInt8>) -> [Float] {
        bytes.map { Float($0) / 255 }
    }
}
