import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import PropertyBased
import Testing

/// The rule for editing a selection while others edit the same strokes (ARCHITECTURE.md, "Editing a
/// selection"): a transform is the edit's matrix after the stroke's own, written as the stroke's
/// transform, so a concurrent partial erase still cuts the stroke where it did (the gap moves with the
/// ink), a concurrent recolour or width holds too, and of two concurrent transforms of a stroke the later
/// in the total order wins whole. Every order of delivery, with duplicates, gives the same board.
@Suite struct SelectionMergeTests {
    @Test func aTransformMergesWithConcurrentErasesRecoloursAndTransformsByTheRule() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var random = SplitMix64(seed: seed)
            var alice = Author(1)
            var bob = Author(2)
            var carol = Author(3)
            // Alice draws; everyone sees it. Bob's and Carol's clocks run ahead or behind hers.
            var base: [BoardChange] = []
            for _ in 0..<Int.random(in: 2...5, using: &random) {
                let points = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                    InkGrid.snap(
                        Point(Double.random(in: 0...300, using: &random), Double.random(in: 0...300, using: &random))
                    )
                }
                base.append(alice.change(add(points)))
            }
            bob.wall += UInt64.random(in: 0...20, using: &random)
            carol.wall += UInt64.random(in: 0...20, using: &random)
            for change in base {
                bob.saw(change)
                carol.saw(change)
            }
            let before = BoardState.after(base)
            let strokes = Array(before.drawing)
            func some() -> [DrawingStroke] {
                let chosen = strokes.filter { _ in Bool.random(using: &random) }
                return chosen.isEmpty ? [strokes[0]] : chosen
            }
            // Alice moves, scales or rotates a selection; Bob erases parts of some strokes; Carol recolours
            // some and, now and then, moves some herself.
            let matrix: Transform =
                switch Int.random(in: 0..<3, using: &random) {
                case 0: SelectionEdits.translation(dx: Double.random(in: -50...50, using: &random), dy: 7)
                case 1: SelectionEdits.scaling(sx: 1.5, sy: 0.5, about: Point(10, 20))
                default: SelectionEdits.rotation(by: Double.random(in: -3...3, using: &random), about: Point(50, 50))
                }
            let selected = some()
            let transformEdit = alice.change(SelectionEdits.transform(selected, by: matrix))
            let erasedStrokes = some()
            let eraseEdit = bob.change(
                erasedStrokes.map { stroke in
                    let end = Double(max(stroke.points.count - 1, 1))
                    let lower = Double.random(in: 0..<end, using: &random)
                    return .erase(
                        stroke.id,
                        [interval(lower, min(end, lower + Double.random(in: 0.1...2, using: &random)))]
                    )
                }
            )
            let recoloured = some()
            let red = Colour(red: 200, green: 0, blue: 0)
            var carolsOperations = SelectionEdits.recolour(recoloured, to: red)
            let carolMoves = Bool.random(using: &random) ? some() : []
            carolsOperations += SelectionEdits.transform(carolMoves, by: .translation(-3, 4))
            let carolsEdit = carol.change(carolsOperations)
            let edits = [transformEdit, eraseEdit, carolsEdit]

            var states: Set<[UInt8]> = []
            var reference: BoardState?
            for order in AllOrders.permutations(of: edits) {
                let board = BoardState.after(base + order + order.reversed())
                states.insert(board.canonicalEncoding())
                reference = board
            }
            #expect(states.count == 1, "seed \(seed): delivery order changed the board")
            guard let after = reference else { return }
            let erasedOnly = BoardState.after(base + [eraseEdit])
            for stroke in strokes {
                let final = try #require(after.drawingStroke(stroke.id))
                #expect(final.pieces == erasedOnly.drawingStroke(stroke.id)?.pieces, "seed \(seed): the erase holds")
                #expect(final.points == stroke.points, "seed \(seed): a transform never rewrites points")
                let recolouredHere = recoloured.contains { $0.id == stroke.id }
                #expect(final.colour == (recolouredHere ? red : stroke.colour), "seed \(seed): the recolour holds")
                var transform = stroke.transform
                let byAlice = selected.contains { $0.id == stroke.id }
                let byCarol = carolMoves.contains { $0.id == stroke.id }
                if byAlice && byCarol {
                    // Both moved it: the later change in the total order wins whole.
                    let aliceLater = (transformEdit.stamp, transformEdit.id) > (carolsEdit.stamp, carolsEdit.id)
                    transform = transform.concatenating(aliceLater ? matrix : .translation(-3, 4))
                } else if byAlice {
                    transform = transform.concatenating(matrix)
                } else if byCarol {
                    transform = transform.concatenating(.translation(-3, 4))
                }
                #expect(final.transform == transform, "seed \(seed): the transform rule")
            }
            // Undoing the transform brings every stroke back to where it was, keeping the others' edits.
            let undone = BoardState.after(base + edits + [alice.change(.undo(transformEdit.id))])
            for stroke in strokes where !carolMoves.contains(where: { $0.id == stroke.id }) {
                #expect(undone.drawingStroke(stroke.id)?.transform == stroke.transform, "seed \(seed): undo")
            }
        }
    }
}
