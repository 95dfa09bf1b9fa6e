import Foundation
import InkwellGeometry
import InkwellTesting
import Testing

/// Seeded random shapes, untidy as people draw them, at random rotation, scale and position.
@Suite struct SyntheticShapeTests {
    /// What each kind may turn into when turned: rectangles stay rectangles only while they do not stand on a
    /// corner (turned past about 30° a square is a diamond), and diamonds by definition stand upright.
    static func rotation(for kind: String, using generator: inout SeededGenerator) -> Double {
        switch kind {
        case "rectangle": generator.uniform(-25...25) * Double.pi / 180
        case "diamond": generator.uniform(-4...4) * Double.pi / 180
        default: generator.uniform(0...(2 * Double.pi))
        }
    }

    static func recognisedKinds(
        _ kind: String,
        count: Int,
        seed: UInt64,
        style: SyntheticStroke.Style = .measured
    ) -> Confusion {
        var generator = SeededGenerator(seed: seed)
        var confusion = Confusion()
        let recognizer = ShapeRecognizer()
        for _ in 0..<count {
            let stroke = SyntheticShapes.stroke(
                kind,
                style: style,
                size: generator.uniform(60...200),
                using: &generator
            )
            .transformed(
                angle: rotation(for: kind, using: &generator),
                scale: generator.uniform(0.1...20),
                offset: Point(generator.uniform(-1e5...1e5), generator.uniform(-1e5...1e5))
            )
            confusion.add(expected: kind, recognised: recognizer.recognize(stroke.points).kind)
        }
        return confusion
    }

    @Test(arguments: SyntheticShapes.kinds)
    func untidyShapesAreRecognisedAtAnyRotationScaleAndPosition(kind: String) {
        let seed = SyntheticShapes.seed("untidy \(kind)")
        let confusion = Self.recognisedKinds(kind, count: 300, seed: seed &+ UInt64(kind.utf8.count))
        print("Synthetic \(kind), 300 strokes:\n\(confusion.markdown())")
        #expect(confusion.recall(kind) >= (kind == "line" ? 0.98 : 0.95), "seed \(seed)")
    }

    @Test(arguments: SyntheticShapes.kinds)
    func cleanShapesAreAlwaysRecognised(kind: String) {
        let seed = SyntheticShapes.seed("clean \(kind)")
        let confusion = Self.recognisedKinds(kind, count: 50, seed: seed, style: .clean)
        #expect(confusion.recall(kind) == 1, "seed \(seed)\n\(confusion.markdown())")
    }
}
