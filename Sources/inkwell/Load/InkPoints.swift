import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

/// An in-progress stroke as the encoded `Points` message a presence carries in `ink.points`
/// (`Protos/inkwell/v1/change.proto`), byte for byte as InkwellWire writes a stroke's points: on the
/// coarsest power-of-two grid that holds them, as zig-zag varints of second differences, pressures in
/// 1/255 steps.
///
/// InkwellWire does not export its point encoder, so this writes the message itself; ``matchesChangeCodec()``
/// checks it against the points inside an encoded change before a run starts.
enum InkPoints {
    /// The grids InkwellWire tries, coarsest first.
    private static let scales: [UInt32] = (0...10).map { 1 << $0 }

    /// `points` with pressures of `pressureSteps`/255 as an encoded `Points` message.
    ///
    /// - Complexity: O(n) for n points.
    static func encode(_ points: [Point], pressureSteps: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + points.count * 5)
        if let scale = grid(for: points) {
            bytes.append(0x08)
            appendVarint(UInt64(scale), to: &bytes)
            var residuals: [UInt8] = []
            residuals.reserveCapacity(points.count * 4)
            let factor = Double(scale)
            var previous = (x: Int64(0), y: Int64(0))
            var beforePrevious = (x: Int64(0), y: Int64(0))
            for (index, point) in points.enumerated() {
                let current = (x: Int64(point.x * factor), y: Int64(point.y * factor))
                let residual: (x: Int64, y: Int64)
                switch index {
                case 0: residual = current
                case 1: residual = (current.x - previous.x, current.y - previous.y)
                default:
                    residual = (
                        current.x - (2 * previous.x - beforePrevious.x),
                        current.y - (2 * previous.y - beforePrevious.y)
                    )
                }
                appendVarint(zigZag(residual.x), to: &residuals)
                appendVarint(zigZag(residual.y), to: &residuals)
                beforePrevious = previous
                previous = current
            }
            if !residuals.isEmpty {
                bytes.append(0x12)
                appendVarint(UInt64(residuals.count), to: &bytes)
                bytes += residuals
            }
        } else if !points.isEmpty {
            bytes.append(0x1A)
            appendVarint(UInt64(points.count * 16), to: &bytes)
            for point in points {
                withUnsafeBytes(of: point.x.bitPattern.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: point.y.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        if !pressureSteps.isEmpty {
            bytes.append(0x22)
            appendVarint(UInt64(pressureSteps.count), to: &bytes)
            bytes += pressureSteps
        }
        return bytes
    }

    /// Whether ``encode(_:pressureSteps:)`` writes the same bytes that ChangeCodec writes for the points
    /// of an `addStroke`.
    static func matchesChangeCodec() -> Bool {
        var pen = LoadPen(seed: 7)
        let drawn = (0..<40).map { _ in pen.next() }
        let points = drawn.map(\.point)
        let steps = drawn.map(\.pressureStep)
        let change = BoardChange(
            id: ChangeID(replica: ReplicaID(high: 1, low: 2), seq: 1),
            stamp: Stamp(wallMilliseconds: 1),
            payload: BoardEdit(
                board: "main",
                operations: [
                    .addStroke(
                        StrokeStyle(colour: Colour(rgba: 0x1F1F_1FFF), width: 3),
                        points: points,
                        pressures: steps.map { Float($0) / 255 }
                    )
                ]
            )
        )
        let encoded = ChangeCodec.encode(change)
        let mine = encode(points, pressureSteps: steps)
        guard mine.count <= encoded.count else { return false }
        return (0...(encoded.count - mine.count)).contains { start in
            encoded[start..<(start + mine.count)].elementsEqual(mine)
        }
    }

    private static func grid(for points: [Point]) -> UInt32? {
        scales.first { scale in
            let factor = Double(scale)
            return points.allSatisfy { point in
                let x = point.x * factor
                let y = point.y * factor
                return x.rounded() == x && y.rounded() == y && abs(x) < 0x1p52 && abs(y) < 0x1p52
            }
        }
    }

    private static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
