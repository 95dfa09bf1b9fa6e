import InkwellBoard
import InkwellGeometry
import InkwellSync
import Testing

@Suite struct StrokeIndexTests {
    @Test func thePartialEraserCutsOnlyWhatIsStillVisible() throws {
        var alice = Author(1)
        let drawn = alice.change(add(line(11)))
        var board = BoardState.after([drawn])
        var index = StrokeIndex(board)
        let id = stroke(of: drawn)

        // A vertical swipe across x = 50 with radius 5 cuts about [4.5, 5.5).
        let cut = index.partialErase(along: [Point(50, -20), Point(50, 20)], radius: 5, in: board)
        guard case .erase(let target, let intervals) = try #require(cut.first) else {
            Issue.record("expected an erase")
            return
        }
        #expect(target == id)
        #expect(intervals.count == 1)
        #expect(abs(intervals[0].lower - 4.5) < 0.01 && abs(intervals[0].upper - 5.5) < 0.01)

        let delta = board.apply(alice.change(cut))
        index.update(from: board, after: delta)
        #expect(board.pieces(id)?.count == 2)
        #expect(
            index.partialErase(along: [Point(50, -20), Point(50, 20)], radius: 5, in: board).isEmpty,
            "nothing left there"
        )
    }

    @Test func theStrokeEraserDeletesWholeStrokesItTouches() {
        var alice = Author(1)
        let near = alice.change(add(line(5, y: 0), style: StrokeStyle(colour: .black, width: 10)))
        let far = alice.change(add(line(5, y: 100)))
        let board = BoardState.after([near, far])
        let index = StrokeIndex(board)
        // 6 px above the centre line: beyond radius 2, but within it once half the 10 px width counts.
        let operations = index.strokeErase(along: [Point(20, -6)], radius: 2, in: board)
        #expect(index.strokeErase(along: [Point(20, -8)], radius: 2, in: board).isEmpty, "8 px is beyond 2 + 5")
        #expect(operations == [.set(stroke(of: near), .deleted(true))])
    }

    @Test func theLassoSelectsEnclosedStrokes() {
        var alice = Author(1)
        let inside = alice.change(add([Point(10, 10), Point(20, 12), Point(30, 10)]))
        let outside = alice.change(add([Point(200, 10), Point(220, 12)]))
        let board = BoardState.after([inside, outside])
        let selected = StrokeIndex(board).select(
            lasso: [Point(0, 0), Point(50, 0), Point(50, 50), Point(0, 50)],
            in: board
        )
        #expect(selected == [stroke(of: inside)])
    }

    @Test func deltasKeepTheIndexInStep() {
        var alice = Author(1)
        let first = alice.change(add(line(5)))
        var board = BoardState(board: "main")
        var index = StrokeIndex(board)
        // Apply first, then update: an argument `board` would be read before the apply runs.
        func apply(_ change: BoardChange) {
            let delta = board.apply(change)
            index.update(from: board, after: delta)
        }
        apply(first)
        #expect(index.count == 1)
        apply(alice.change(.set(stroke(of: first), .deleted(true))))
        #expect(index.count == 0)
        apply(alice.change(add(line(5))))
        #expect(index.count == 1)
        apply(alice.change(.clear))
        #expect(index.count == 0)
    }

    /// The index must find exactly what a scan of every stroke finds.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func erasingThroughTheIndexMatchesABruteForceScan(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var alice = Author(1)
        var changes: [BoardChange] = []
        for _ in 0..<300 {
            var point = Point(
                Double.random(in: 0...1_000, using: &generator),
                Double.random(in: 0...1_000, using: &generator)
            )
            let points = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                point =
                    point
                    + Point(
                        Double.random(in: -15...15, using: &generator),
                        Double.random(in: -15...15, using: &generator)
                    )
                return point
            }
            changes.append(alice.change(add(points)))
        }
        let board = BoardState.after(changes)
        let index = StrokeIndex(board)
        for _ in 0..<50 {
            let start = Point(
                Double.random(in: 0...1_000, using: &generator),
                Double.random(in: 0...1_000, using: &generator)
            )
            let path = [
                start,
                start
                    + Point(
                        Double.random(in: -60...60, using: &generator),
                        Double.random(in: -60...60, using: &generator)
                    ),
            ]
            let radius = Double.random(in: 1...20, using: &generator)
            let eraser = PartialEraser(radius: radius)
            let expected = board.drawing.compactMap { stroke -> StrokeID? in
                eraser.cut(SmoothCurve(points: stroke.points), along: path).isEmpty ? nil : stroke.id
            }
            let found = index.partialErase(along: path, radius: radius, in: board).compactMap {
                operation -> StrokeID? in
                if case .erase(let id, _) = operation { id } else { nil }
            }
            #expect(Set(found) == Set(expected), "seed \(seed)")
        }
    }
}
