import Foundation
import InkwellGeometry
import InkwellTesting

/// Labelled synthetic strokes of every kind, with the untidiness measured on real ones (see `SyntheticStroke`).
enum SyntheticShapes {
    static let kinds = ["line", "rectangle", "ellipse", "triangle", "arrow", "diamond", "none"]

    /// One stroke meant as `kind`, in a frame about `size` pixels across, not yet turned or moved.
    static func stroke(
        _ kind: String,
        style: SyntheticStroke.Style = .measured,
        size: Double = 120,
        using generator: inout SeededGenerator
    ) -> SyntheticStroke {
        func draw(_ corners: [Point], closed: Bool) -> SyntheticStroke {
            SyntheticStroke(through: corners, closed: closed, style: style, size: size, using: &generator)
        }
        switch kind {
        case "line":
            return draw([Point(0, 0), Point(1, 0)], closed: false)
        case "rectangle":
            let height = generator.uniform(0.35...1)
            return draw([Point(0, 0), Point(0, height), Point(1, height), Point(1, 0)], closed: true)
        case "ellipse":
            let ratio = generator.uniform(0.4...1)
            let start = generator.uniform(0...(2 * Double.pi))
            let corners = (0..<48).map { index in
                let angle = start - 2 * Double.pi * Double(index) / 48
                return Point(0.5 * cos(angle), 0.5 * ratio * sin(angle))
            }
            return draw(corners, closed: true)
        case "triangle":
            let apex = generator.uniform(0.2...0.8)
            let height = generator.uniform(0.5...1)
            return draw([Point(apex, 0), Point(0, height), Point(1, height)], closed: true)
        case "arrow":
            let barb = generator.uniform(0.2...0.4)
            let spread = generator.uniform(25...45) * Double.pi / 180
            let first = Point(1 - barb * cos(spread), -barb * sin(spread))
            let second = Point(1 - barb * cos(spread), barb * sin(spread))
            return draw([Point(0, 0), Point(1, 0), first, Point(1, 0), second], closed: false)
        case "diamond":
            let height = generator.uniform(0.6...1.4)
            return draw(
                [Point(0.5, 0), Point(0, height / 2), Point(0.5, height), Point(1, height / 2)],
                closed: true
            )
        default:
            return freeStroke(style: style, size: size, using: &generator)
        }
    }

    /// Strokes that must stay ink: a zigzag, a spiral, a wave, a C, a star, a tick and a scribble.
    static func freeStroke(
        style: SyntheticStroke.Style = .measured,
        size: Double = 120,
        using generator: inout SeededGenerator
    ) -> SyntheticStroke {
        let corners: [Point]
        switch Int(generator.next() % 7) {
        case 0:
            corners = (0..<6).map { Point(Double($0) * 0.2, $0 % 2 == 0 ? 0 : 0.4) }
        case 1:
            corners = (0..<60).map { index in
                let angle = Double(index) * 0.3
                return Point(cos(angle), sin(angle)) * (0.1 + Double(index) * 0.008)
            }
        case 2:
            corners = (0..<40).map { Point(Double($0) / 39, 0.2 * sin(Double($0) / 39 * 4 * Double.pi)) }
        case 3:
            corners = (0..<30).map { index in
                let angle = Double.pi / 4 + Double(index) / 29 * 1.4 * Double.pi
                return Point(0.5 * cos(angle), 0.5 * sin(angle))
            }
        case 4:
            corners = (0..<6).map { index in
                let angle = -Double.pi / 2 + Double(index) * 4 * Double.pi / 5
                return Point(0.5 * cos(angle), 0.5 * sin(angle))
            }
        case 5:
            corners = [Point(0, 0.5), Point(0.3, 1), Point(1, 0)]
        default:
            var point = Point.zero
            corners = (0..<12).map { _ in
                point = point + Point(generator.uniform(-0.4...0.4), generator.uniform(-0.4...0.4))
                return point
            }
        }
        return SyntheticStroke(through: corners, closed: false, style: style, size: size, using: &generator)
    }

    /// The seed for the random tests: `INKWELL_SEED` if set, a fixed one otherwise, printed either way.
    static func seed(_ test: String) -> UInt64 {
        let seed = ProcessInfo.processInfo.environment["INKWELL_SEED"].flatMap(UInt64.init) ?? 20_071_007
        print("\(test): seed \(seed) (replay with INKWELL_SEED=\(seed))")
        return seed
    }
}
