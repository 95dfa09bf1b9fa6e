import Foundation
import InkwellGeometry
import InkwellSync

extension WireReader {
    /// An ink operation (`addStroke`, `appendPoints`) in canonical form, decoded; `nil` for any other
    /// operation and for anything the generated decoder should judge, including content it would refuse.
    static func inkOperation(_ operation: ArraySlice<UInt8>, in change: ChangeID) -> BoardOperation? {
        inkOperation(operation, operation.indices, in: change)
    }

    /// ``inkOperation(_:in:)`` of the operation at `range` of `bytes`.
    static func inkOperation(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, in change: ChangeID) -> BoardOperation? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        if let body = reader.lengthDelimited(1), reader.isAtEnd {
            var add = WireReader(bytes, from: body.lowerBound, to: body.upperBound)
            var colour: UInt32 = 0
            var width = 0.0
            if add.key(1, 5) {
                guard let value = add.fixed32() else { return nil }
                colour = value
            }
            if add.key(2, 1) {
                guard let value = add.fixed64() else { return nil }
                width = Double(bitPattern: value)
            }
            guard let range = add.lengthDelimited(3), add.isAtEnd else { return nil }
            if let points = Self.gridPoints(bytes, range) {
                return .addStroke(
                    StrokeStyle(colour: Colour(rgba: colour), width: width),
                    points: points,
                    pressures: nil
                )
            }
            guard let points = Self.points(bytes, range), let (decoded, pressures) = try? OperationCodec.decode(points)
            else { return nil }
            return .addStroke(
                StrokeStyle(colour: Colour(rgba: colour), width: width),
                points: decoded,
                pressures: pressures
            )
        }
        reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        if let body = reader.lengthDelimited(2), reader.isAtEnd {
            var append = WireReader(bytes, from: body.lowerBound, to: body.upperBound)
            guard let reference = append.lengthDelimited(1), let id = Self.strokeID(bytes, reference, in: change),
                let range = append.lengthDelimited(2), append.isAtEnd
            else { return nil }
            if let points = Self.gridPoints(bytes, range) { return .appendPoints(id, points: points, pressures: nil) }
            guard let points = Self.points(bytes, range), let (decoded, pressures) = try? OperationCodec.decode(points)
            else { return nil }
            return .appendPoints(id, points: decoded, pressures: pressures)
        }
        return nil
    }

    /// A `StrokeRef` in canonical form, checked as ``OperationCodec/decode(_:in:)-(WireStrokeRef,_)`` checks it:
    /// no replica means the change's own, a replica must be 16 bytes, the seq at least 1.
    private static func strokeID(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, in change: ChangeID) -> StrokeID? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        var replica = change.replica
        if let named = reader.lengthDelimited(1) {
            guard let value = ReplicaID(bytes: bytes[named]) else { return nil }
            replica = value
        }
        var seq: UInt64 = 0
        if reader.key(2, 0) {
            guard let value = reader.varint() else { return nil }
            seq = value
        }
        var index: UInt32 = 0
        if reader.key(3, 0) {
            guard let value = reader.varint(), value <= UInt64(UInt32.max) else { return nil }
            index = UInt32(value)
        }
        guard reader.isAtEnd, seq >= 1 else { return nil }
        return StrokeID(change: ChangeID(replica: replica, seq: seq), index: index)
    }

    /// The points of a `Points` message that holds only a grid and residuals (no raw values, no
    /// pressures), rebuilt as ``PointCodec/points(fromResiduals:scale:)`` rebuilds them, in one pass
    /// without an array of residuals; `nil` for any other message and for anything that function would
    /// refuse.
    ///
    /// - Complexity: O(points).
    static func gridPoints(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> [Point]? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        guard reader.key(1, 0), let scale = reader.varint(), scale.nonzeroBitCount == 1,
            scale <= UInt64(PointCodec.scales.last!), let packed = reader.lengthDelimited(2), reader.isAtEnd
        else { return nil }
        let factor = Double(scale)
        var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
        // Each point takes at least two bytes, so the array is allocated once, at its most.
        let capacity = min(packed.count / 2, BoardLimits.maximumPointsPerOperation)
        if capacity <= 64 {
            // A few points (live appends): read onto the stack, then into an array of their count. The
            // standard library allocates `Array(unsafeUninitializedCapacity:)` through unspecialised
            // code that looks the storage type up at run time: most of the cost of a one-point read.
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: capacity) { buffer in
                guard let count = readGridPoints(&values, factor: factor, into: buffer) else { return nil }
                return Array(UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
        var valid = true
        let points = [Point](unsafeUninitializedCapacity: capacity) { buffer, count in
            guard let read = readGridPoints(&values, factor: factor, into: buffer) else {
                valid = false
                return
            }
            count = read
        }
        return valid ? points : nil
    }

    /// Reads residuals from `values` to its end into `buffer`, rebuilding the points; returns how many,
    /// or `nil` for more than `buffer` holds, a truncated varint, or a point off the board (then what
    /// was written is plain `Point` values, which need no deinitialising).
    @inline(__always)
    private static func readGridPoints(
        _ values: inout WireReader,
        factor: Double,
        into buffer: UnsafeMutableBufferPointer<Point>
    ) -> Int? {
        // Each point is its residual plus the prediction from the point before it and that point's
        // step (the first point's residual is the point itself, and its step is zero, so the second
        // is predicted at the first): 2·p[i-1] − p[i-2], without a test for the first two per point.
        var count = 0
        var previous = (x: Int64(0), y: Int64(0))
        var step = (x: Int64(0), y: Int64(0))
        while !values.isAtEnd {
            guard count < buffer.count, let x = values.varint(), let y = values.varint() else { return nil }
            // An accepted point lies within `maximumCoordinate` × 1,024 < 2^40 grid steps of the
            // origin, so a step lies within 2^41, the prediction within 2^42, and its sum with any
            // residual is either exact or wraps past 2^62, where it fails the bound below: wrapping
            // refuses exactly what checked arithmetic refuses.
            let cx = previous.x &+ step.x &+ (Int64(bitPattern: x >> 1) ^ -Int64(bitPattern: x & 1))
            let cy = previous.y &+ step.y &+ (Int64(bitPattern: y >> 1) ^ -Int64(bitPattern: y & 1))
            let point = Point(Double(cx) / factor, Double(cy) / factor)
            guard abs(point.x) <= PointCodec.maximumCoordinate, abs(point.y) <= PointCodec.maximumCoordinate
            else { return nil }
            (buffer.baseAddress! + count).initialize(to: point)
            step = count == 0 ? (0, 0) : (cx &- previous.x, cy &- previous.y)
            previous = (cx, cy)
            count += 1
        }
        return count
    }

    private static func points(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> WirePoints? {
        var reader = WireReader(bytes, from: range.lowerBound, to: range.upperBound)
        var points = WirePoints()
        if reader.key(1, 0) {
            guard let scale = reader.varint(), scale <= UInt64(UInt32.max) else { return nil }
            points.scale = UInt32(scale)
        }
        if let packed = reader.lengthDelimited(2) {
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var residuals: [Int64] = []
            residuals.reserveCapacity(packed.count)
            while !values.isAtEnd {
                guard let value = values.varint() else { return nil }
                residuals.append(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
            }
            points.residuals = residuals
        }
        if let packed = reader.lengthDelimited(3) {
            guard packed.count.isMultiple(of: 8) else { return nil }
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var raw: [Double] = []
            raw.reserveCapacity(packed.count / 8)
            while let value = values.fixed64() { raw.append(Double(bitPattern: value)) }
            points.raw = raw
        }
        if let pressures = reader.lengthDelimited(4) { points.pressures = Data(bytes[pressures]) }
        if let packed = reader.lengthDelimited(5) {
            guard packed.count.isMultiple(of: 4) else { return nil }
            var values = WireReader(bytes, from: packed.lowerBound, to: packed.upperBound)
            var raw: [Float] = []
            raw.reserveCapacity(packed.count / 4)
            while let value = values.fixed32() { raw.append(Float(bitPattern: value)) }
            points.rawPressures = raw
        }
        return reader.isAtEnd ? points : nil
    }
}
