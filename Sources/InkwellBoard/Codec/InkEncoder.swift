public import InkwellGeometry
import InkwellSync

/// The ink of a stroke being drawn, encoded as it grows: ``encoded`` is always ``InkCodec/encode(_:pressures:)``
/// of every point appended, but each point's residual is worked out once.
///
/// A page sends, in every animation frame's presence, the ink it has not saved yet: about 32 points for
/// the 4 drawn since the last frame, with a pen sampled at 240 Hz and a change saved every 250 ms.
/// Encoding that tail afresh each frame was most of a presence's cost.
///
/// The grid only gets finer as points come (it is the finest any point needs), so a point that needs a
/// finer one re-encodes what came before, at most once per grid; ink no grid holds falls back to
/// ``InkCodec/encode(_:pressures:)`` whole.
public struct InkEncoder: Sendable {
    public private(set) var points: [Point] = []
    /// The pressures appended, one per point; nil when none came with the first points.
    public private(set) var pressures: [Float]?
    /// The fractional binary digits of the finest coordinate so far (``PointCodec/grid(for:)``).
    private var bits = 0
    private var largest = 0.0
    /// The packed residuals of `points` on the grid of `bits`, as zig-zag varints; nil when no grid holds them.
    private var residuals: [UInt8]? = []
    /// The two last points in grid steps: the prediction of the next residual.
    private var previous = (x: Int64(0), y: Int64(0))
    private var beforePrevious = (x: Int64(0), y: Int64(0))

    public init() {}

    /// Adds `added`, with one pressure each when the ink has pressures.
    ///
    /// - Complexity: O(added points), unless one needs a finer grid: then O(points).
    public mutating func append(_ added: some Collection<Point>, pressures addedPressures: [Float]? = nil) {
        // Pressure or none is set by the first points, as a stroke's add sets it; an append without any
        // repeats the last, as a stroke's record does.
        if points.isEmpty {
            pressures = addedPressures
        } else if pressures != nil {
            pressures! += addedPressures ?? Array(repeating: pressures!.last ?? 1, count: added.count)
        }
        let start = points.count
        points.append(contentsOf: added)
        guard residuals != nil else { return }
        var finer = bits
        for point in points[start...] {
            finer = max(finer, PointCodec.fractionalBits(point.x), PointCodec.fractionalBits(point.y))
            largest = max(largest, abs(point.x), abs(point.y))
        }
        guard finer < PointCodec.scales.count, largest * Double(PointCodec.scales[finer]) < PointCodec.maximumSteps
        else {
            residuals = nil
            return
        }
        if finer != bits {
            bits = finer
            residuals = []
            previous = (0, 0)
            beforePrevious = (0, 0)
            write(from: 0)
        } else {
            write(from: start)
        }
    }

    /// The `Points` message of every point appended: the bytes ``InkCodec/encode(_:pressures:)`` gives.
    public var encoded: [UInt8] {
        guard let residuals else { return InkCodec.encode(points, pressures: pressures) }
        let scale = PointCodec.scales[bits]
        var wire = WireWriter(capacity: residuals.count + 16 + (pressures?.count ?? 0) * 4)
        wire.key(1, 0)
        wire.varint(UInt64(scale))
        if !residuals.isEmpty {
            wire.key(2, 2)
            wire.varint(UInt64(residuals.count))
            wire.append(residuals)
        }
        if let pressures, !pressures.isEmpty {
            PointsLayout.write(pressures: pressures, steps: PointCodec.pressureBytes(pressures), to: &wire)
        }
        return wire.bytes
    }

    /// Writes the residuals of `points[start...]`, on the current grid, after those before.
    private mutating func write(from start: Int) {
        let factor = Double(PointCodec.scales[bits])
        var bytes = residuals ?? []
        residuals = nil
        WireWriter.append(to: &bytes) { wire in
            for index in start..<points.count {
                let point = points[index]
                let current = (x: Int64(point.x * factor), y: Int64(point.y * factor))
                let residual: (x: Int64, y: Int64) =
                    switch index {
                    case 0: current
                    case 1: (current.x - previous.x, current.y - previous.y)
                    default:
                        (
                            current.x - (2 * previous.x - beforePrevious.x),
                            current.y - (2 * previous.y - beforePrevious.y)
                        )
                    }
                wire.varint(WireWriter.zigZag(residual.x))
                wire.varint(WireWriter.zigZag(residual.y))
                beforePrevious = previous
                previous = current
            }
        }
        residuals = bytes
    }
}
