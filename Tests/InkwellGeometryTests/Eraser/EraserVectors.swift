import Foundation
import InkwellGeometry

/// The conformance vectors in `Conformance/eraser.json`: inputs and what this code computes from them.
///
/// The browser client runs the same cases and must agree within ``tolerance``. Inputs are multiples of 1/64 px
/// so they print exactly; outputs are rounded to 1e-6.
struct EraserVectors: Codable, Equatable {
    struct SmoothingCase: Codable, Equatable {
        var name: String
        var points: [[Double]]
        /// Each segment's Bézier as `[startX, startY, c1X, c1Y, c2X, c2Y, endX, endY]`.
        var segments: [[Double]]
        var parameters: [Double]
        var expected: [[Double]]
    }

    struct EraserCase: Codable, Equatable {
        var name: String
        var points: [[Double]]
        var path: [[Double]]
        var radius: Double
        var cuts: [[Double]]
    }

    static let tolerance = 1e-6

    var version = 1
    var note =
        "Inkwell partial eraser and smoothing conformance vectors. Curve: centripetal Catmull-Rom as cubic Beziers, "
        + "segment i from point i to point i+1. A cut [a, b) is every parameter whose curve point is within radius "
        + "of the eraser path (one point: a tap). A one-point stroke is cut as [0, 1). Numbers rounded to 1e-6; "
        + "implementations must agree within 1e-6. Regenerate: INKWELL_WRITE_VECTORS=1 swift test --filter "
        + "EraserConformanceTests."
    var smoothing: [SmoothingCase]
    var eraser: [EraserCase]

    static func rounded(_ value: Double) -> Double {
        let rounded = (value * 1e6).rounded() / 1e6
        return rounded == 0 ? 0 : rounded
    }

    static func pair(_ point: Point) -> [Double] { [point.x, point.y] }

    static func smoothingCase(_ name: String, _ points: [Point]) -> SmoothingCase {
        let curve = SmoothCurve(points: points)
        let parameters = stride(from: 0.0, through: curve.endParameter, by: 0.25).map { $0 }
        return SmoothingCase(
            name: name,
            points: points.map(pair),
            segments: curve.segments.map { segment in
                [segment.start, segment.control1, segment.control2, segment.end].flatMap(pair).map(rounded)
            },
            parameters: parameters,
            expected: parameters.map { pair(curve.point(at: $0)).map(rounded) }
        )
    }

    static func eraserCase(_ name: String, _ points: [Point], _ path: [Point], radius: Double) -> EraserCase {
        let cuts = PartialEraser(radius: radius).cut(SmoothCurve(points: points), along: path)
        return EraserCase(
            name: name,
            points: points.map(pair),
            path: path.map(pair),
            radius: radius,
            cuts: cuts.map { [rounded($0.lower), rounded($0.upper)] }
        )
    }

    /// Recomputes every expected value from the stored inputs with the code as it is now.
    func recomputed() -> EraserVectors {
        func points(_ pairs: [[Double]]) -> [Point] { pairs.map { Point($0[0], $0[1]) } }
        var copy = self
        copy.smoothing = smoothing.map { Self.smoothingCase($0.name, points($0.points)) }
        copy.eraser = eraser.map { Self.eraserCase($0.name, points($0.points), points($0.path), radius: $0.radius) }
        return copy
    }

    /// The differences beyond ``tolerance`` between these vectors and `other`.
    func differences(from other: EraserVectors) -> [String] {
        func close(_ a: [[Double]], _ b: [[Double]]) -> Bool {
            a.count == b.count
                && zip(a, b).allSatisfy { x, y in
                    x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= Self.tolerance * 1.01 }
                }
        }
        var found: [String] = []
        if smoothing.count != other.smoothing.count || eraser.count != other.eraser.count {
            found.append("case counts differ")
        }
        for (a, b) in zip(smoothing, other.smoothing)
        where !(close(a.segments, b.segments) && close(a.expected, b.expected)) {
            found.append("smoothing \(a.name)")
        }
        for (a, b) in zip(eraser, other.eraser) where !close(a.cuts, b.cuts) {
            found.append("eraser \(a.name): \(a.cuts) vs \(b.cuts)")
        }
        return found
    }

    /// JSON with one case per line, stable from run to run.
    func encoded() -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        }
        func list(_ values: [Double]) -> String { "[" + values.map(number).joined(separator: ",") + "]" }
        func lists(_ values: [[Double]]) -> String { "[" + values.map(list).joined(separator: ",") + "]" }
        func string(_ text: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [text], options: [])
            return String(decoding: data, as: UTF8.self).dropFirst().dropLast().description
        }
        let smoothingLines = smoothing.map { item in
            "    {\"name\": \(string(item.name)), \"points\": \(lists(item.points)), "
                + "\"segments\": \(lists(item.segments)), \"parameters\": \(list(item.parameters)), "
                + "\"expected\": \(lists(item.expected))}"
        }
        let eraserLines = eraser.map { item in
            "    {\"name\": \(string(item.name)), \"points\": \(lists(item.points)), \"path\": \(lists(item.path)), "
                + "\"radius\": \(number(item.radius)), \"cuts\": \(lists(item.cuts))}"
        }
        return "{\n  \"version\": \(version),\n  \"note\": \(string(note)),\n  \"smoothing\": [\n"
            + smoothingLines.joined(separator: ",\n") + "\n  ],\n  \"eraser\": [\n"
            + eraserLines.joined(separator: ",\n") + "\n  ]\n}\n"
    }
}
