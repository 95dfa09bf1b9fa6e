import Foundation
import InkwellGeometry
import InkwellTesting
import Testing

/// Writes (with `INKWELL_WRITE_VECTORS=1`) or checks `Conformance/eraser.json`, which the browser client must match.
@Suite struct EraserConformanceTests {
    @Test func committedVectorsMatchWhatTheCodeComputes() throws {
        let generated = Self.vectors()
        let url = InkPaths.eraserVectors
        if ProcessInfo.processInfo.environment["INKWELL_WRITE_VECTORS"] == "1" {
            try generated.encoded().write(to: url, atomically: true, encoding: .utf8)
            print(
                "wrote \(generated.eraser.count) eraser and \(generated.smoothing.count) smoothing cases to \(url.path)"
            )
        }
        let data = try Data(contentsOf: url)
        let committed = try JSONDecoder().decode(EraserVectors.self, from: data)
        #expect(committed.differences(from: committed.recomputed()).isEmpty, "the code no longer computes the vectors")
        #expect(committed.differences(from: generated).isEmpty, "the vectors' inputs differ from the generator's")
        #expect(committed.eraser.count >= 30)
    }

    @Test func everyVectorAgreesWithTheBruteForceReference() throws {
        for item in Self.vectors().eraser {
            let points = item.points.map { Point($0[0], $0[1]) }
            let path = item.path.map { Point($0[0], $0[1]) }
            let curve = SmoothCurve(points: points)
            let cuts = item.cuts.map { ParameterInterval($0[0], $0[1]) }
            guard points.count > 1 else { continue }
            let problems = EraserReference.mismatches(cuts, curve: curve, path: path, radius: item.radius, slack: 0.1)
            #expect(problems.isEmpty, "\(item.name): \(problems)")
        }
    }

    /// Synthetic strokes only (never the $1 data): hand-made shapes plus seeded random walks.
    static func vectors() -> EraserVectors {
        func line(_ count: Int, step: Double = 10, y: Double = 0) -> [Point] {
            (0..<count).map { Point(Double($0) * step, y) }
        }
        let bend = [Point(0, 0), Point(20, 2), Point(40, 10), Point(52, 28), Point(55, 50), Point(50, 70)]
        let hairpin = [
            Point(0, 0), Point(30, 0), Point(45, 3), Point(48, 8), Point(44, 12), Point(30, 14), Point(0, 14),
        ]
        /// On the 1/64 px grid, so the inputs print exactly.
        func snapped(_ centre: Double, _ radius: Double, _ angle: Double) -> Point {
            let x: Double = centre + radius * cos(angle)
            let y: Double = centre + radius * sin(angle)
            return Point((x * 64).rounded() / 64, (y * 64).rounded() / 64)
        }
        let circle = (0...32).map { snapped(100, 40, Double($0) * Double.pi / 16) }
        let spiral = (0...60).map { snapped(200, 5 + Double($0) * 1.2, Double($0) * 0.35) }
        var cases: [EraserVectors.EraserCase] = [
            EraserVectors.eraserCase("tap in the middle of a line", line(11), [Point(50, 2)], radius: 5),
            EraserVectors.eraserCase("tap on the first point", line(6), [Point(0, 0)], radius: 4),
            EraserVectors.eraserCase("tap on the last point", line(6), [Point(50, 0)], radius: 4),
            EraserVectors.eraserCase("tap that misses", line(6), [Point(25, 9)], radius: 4),
            EraserVectors.eraserCase("tap just reaching the end", line(6), [Point(53.5, 0)], radius: 4),
            EraserVectors.eraserCase("tap just short of the end", line(6), [Point(54.5, 0)], radius: 4),
            EraserVectors.eraserCase("drag across a line", line(11), [Point(47, -30), Point(53, 30)], radius: 3),
            EraserVectors.eraserCase("drag across a bend", bend, [Point(20, 40), Point(70, 10)], radius: 4),
            EraserVectors.eraserCase("drag along part of a line", line(11), [Point(22, 1), Point(68, 1)], radius: 3),
            EraserVectors.eraserCase("drag along past the end", line(11), [Point(70, -2), Point(130, -2)], radius: 3),
            EraserVectors.eraserCase(
                "drag touching the start",
                line(11),
                [Point(-6, -20), Point(-6, 20)],
                radius: 6.5
            ),
            EraserVectors.eraserCase("drag parallel that misses", line(11), [Point(0, 8), Point(100, 8)], radius: 7.5),
            EraserVectors.eraserCase(
                "zigzag with three cuts",
                line(21),
                [
                    Point(20, -30), Point(20, 30), Point(100, 30), Point(100, -30), Point(160, -30), Point(160, 30),
                ],
                radius: 3
            ),
            EraserVectors.eraserCase("eraser covering the stroke", bend, [Point(30, 30)], radius: 80),
            EraserVectors.eraserCase("tap on the bend of a hairpin", hairpin, [Point(47, 7)], radius: 3),
            EraserVectors.eraserCase(
                "drag through both legs of a hairpin",
                hairpin,
                [Point(20, -10), Point(20, 25)],
                radius: 2
            ),
            EraserVectors.eraserCase(
                "tap at a circle's centre, radius inside",
                circle,
                [Point(100, 100)],
                radius: 39.5
            ),
            EraserVectors.eraserCase(
                "tap at a circle's centre, radius past it",
                circle,
                [Point(100, 100)],
                radius: 40.5
            ),
            EraserVectors.eraserCase("tap grazing a circle from outside", circle, [Point(145, 100)], radius: 5.25),
            EraserVectors.eraserCase("drag through a spiral", spiral, [Point(120, 200), Point(290, 210)], radius: 2.5),
            EraserVectors.eraserCase("dot tapped", [Point(10, 10)], [Point(12, 11)], radius: 3),
            EraserVectors.eraserCase("dot missed", [Point(10, 10)], [Point(14, 10)], radius: 3),
            EraserVectors.eraserCase("dot dragged across", [Point(10, 10)], [Point(0, 12), Point(20, 12)], radius: 3),
            EraserVectors.eraserCase(
                "two-point stroke, tap in the middle",
                [Point(0, 0), Point(30, 40)],
                [Point(15, 20)],
                radius: 5
            ),
            EraserVectors.eraserCase(
                "repeated points in stroke and path",
                [Point(0, 0), Point(0, 0), Point(10, 0), Point(10, 0), Point(20, 0), Point(30, 5)],
                [Point(10, 1), Point(10, 1), Point(12, 1)],
                radius: 2
            ),
            EraserVectors.eraserCase(
                "still stroke of one repeated point",
                [Point(3, 3), Point(3, 3), Point(3, 3)],
                [Point(3, 4)],
                radius: 2
            ),
        ]
        var random = InkRandom(seed: 20_261_122)
        for index in 0..<10 {
            let points = random.stroke(count: Int.random(in: 4...24, using: &random))
            let anchor = points[Int.random(in: 0..<points.count, using: &random)]
            let path = random.stroke(
                count: Int.random(in: 1...8, using: &random),
                origin: Point(anchor.x - 20, anchor.y - 20),
                step: 2...20
            )
            cases.append(
                EraserVectors.eraserCase("seeded random \(index + 1)", points, path, radius: random.coordinate(1...15))
            )
        }
        var smoothingRandom = InkRandom(seed: 7)
        let smoothing = [
            EraserVectors.smoothingCase("two points", [Point(0, 0), Point(30, 40)]),
            EraserVectors.smoothingCase("corner", [Point(0, 0), Point(20, 0), Point(20, 20)]),
            EraserVectors.smoothingCase(
                "uneven spacing",
                [Point(0, 0), Point(1, 1), Point(40, 2), Point(41, 30), Point(80, 31)]
            ),
            EraserVectors.smoothingCase(
                "repeated points",
                [Point(0, 0), Point(0, 0), Point(10, 5), Point(10, 5), Point(20, 0)]
            ),
            EraserVectors.smoothingCase("hairpin", hairpin),
            EraserVectors.smoothingCase("seeded random walk", smoothingRandom.stroke(count: 12)),
        ]
        return EraserVectors(smoothing: smoothing, eraser: cases)
    }
}
