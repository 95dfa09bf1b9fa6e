import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellTesting
import Testing

/// Writes `Conformance/selection.json`: a board, a selection and an edit → the operations the edit writes
/// and the board's hash once they are applied; a board and a lasso → the strokes it selects. The page's
/// `selection-edits.js` and lasso must reproduce every case (rotations within 1e-12: `cos` and `sin`
/// may differ in the last bit between libraries, and the author's value is what syncs).
@Suite struct SelectionVectorTests {
    struct Case {
        let name: String
        let board: [BoardChange]
        let selection: [StrokeID]
        let edit: [String: Any]
        let operations: [BoardOperation]
        /// Whether the board after the edit is in the file: not for rotations (see above).
        var exact = true
    }

    /// A board of four strokes: plain, partially erased and moved, a dot, and one raised above the rest;
    /// and its first author, who has seen it all and makes the edits (its next change is seq 6).
    static func board() -> (changes: [BoardChange], ids: [StrokeID], editor: Author) {
        var alice = Author(1)
        var bob = Author(2)
        let plain = alice.change(add(line(4, y: 10)))
        let erased = alice.change(
            .addStroke(
                StrokeStyle(colour: Colour(rgba: 0xE031_31FF), width: 3),
                points: line(6, y: 40),
                pressures: [0.25, 0.5, 0.75, 1, 1, 0.5]
            )
        )
        bob.saw(erased)
        let cut = bob.change(
            .erase(stroke(of: erased), [interval(1, 2.5)]),
            .set(stroke(of: erased), .transform(.translation(5, -2.5)))
        )
        let dot = alice.change(add([Point(100, 100)], style: StrokeStyle(colour: .black, width: 6)))
        let raised = alice.change(add(line(3, y: 70)))
        let lift = alice.change(.set(stroke(of: raised), .zOrder(3)))
        alice.saw(cut)
        return ([plain, erased, cut, dot, raised, lift], [plain, erased, dot, raised].map { stroke(of: $0) }, alice)
    }

    static func cases() -> [Case] {
        let (changes, ids, editor) = board()
        let state = BoardState.after(changes)
        let stack = Array(state.drawing)
        func strokes(_ selected: [StrokeID]) -> [DrawingStroke] { selected.compactMap(state.drawingStroke) }
        let two = [ids[0], ids[1]]
        var cases: [Case] = []
        let move = SelectionEdits.translation(dx: 12.3, dy: -7.94)
        cases.append(
            Case(
                name: "move snaps to the grid and composes after each transform",
                board: changes,
                selection: two,
                edit: ["kind": "move", "dx": 12.3, "dy": -7.94],
                operations: SelectionEdits.transform(strokes(two), by: move)
            )
        )
        let pivot = Point(20, 25)
        cases.append(
            Case(
                name: "scale about a corner",
                board: changes,
                selection: ids,
                edit: ["kind": "scale", "sx": 1.5, "sy": 0.75, "pivot": [pivot.x, pivot.y]],
                operations: SelectionEdits.transform(
                    strokes(ids),
                    by: SelectionEdits.scaling(sx: 1.5, sy: 0.75, about: pivot)
                )
            )
        )
        cases.append(
            Case(
                name: "rotate about the centre",
                board: changes,
                selection: two,
                edit: ["kind": "rotate", "angle": 0.5, "pivot": [pivot.x, pivot.y]],
                operations: SelectionEdits.transform(strokes(two), by: SelectionEdits.rotation(by: 0.5, about: pivot)),
                exact: false
            )
        )
        cases.append(
            Case(
                name: "a zero move writes nothing",
                board: changes,
                selection: two,
                edit: ["kind": "move", "dx": 0.01, "dy": -0.02],
                operations: SelectionEdits.transform(strokes(two), by: SelectionEdits.translation(dx: 0.01, dy: -0.02))
            )
        )
        let red = Colour(rgba: 0xE031_31FF)
        cases.append(
            Case(
                name: "recolour skips a stroke already that colour",
                board: changes,
                selection: ids,
                edit: ["kind": "colour", "colour": red.rgba],
                operations: SelectionEdits.recolour(strokes(ids), to: red)
            )
        )
        cases.append(
            Case(
                name: "width",
                board: changes,
                selection: ids,
                edit: ["kind": "width", "width": 3],
                operations: SelectionEdits.setWidth(of: strokes(ids), to: 3)
            )
        )
        cases.append(
            Case(
                name: "delete",
                board: changes,
                selection: [ids[2], ids[0]],
                edit: ["kind": "delete"],
                operations: SelectionEdits.delete([ids[2], ids[0]])
            )
        )
        cases.append(
            Case(
                name: "bring to front keeps the selection's own order",
                board: changes,
                selection: [ids[1], ids[0]],
                edit: ["kind": "front"],
                operations: SelectionEdits.bringToFront([ids[1], ids[0]], in: stack)
            )
        )
        cases.append(
            Case(
                name: "bring to front of what is on top already writes nothing",
                board: changes,
                selection: [ids[3]],
                edit: ["kind": "front"],
                operations: SelectionEdits.bringToFront([ids[3]], in: stack)
            )
        )
        cases.append(
            Case(
                name: "send to back",
                board: changes,
                selection: [ids[3], ids[2]],
                edit: ["kind": "back"],
                operations: SelectionEdits.sendToBack([ids[3], ids[2]], in: stack)
            )
        )
        let next = ChangeID(replica: editor.replica, seq: editor.seq + 1)
        cases.append(
            Case(
                name: "copy keeps erased parts, transforms and stacking",
                board: changes,
                selection: ids,
                edit: ["kind": "copy", "dx": 16, "dy": 16, "change": VectorJSON.id(next)],
                operations: SelectionEdits.copies(of: strokes(ids), dx: 16, dy: 16, change: next, above: stack)
            )
        )
        return cases
    }

    /// Lassos over the same board: around everything, around a moved stroke's new place (not its old
    /// one), around most of a stroke, and through a stroke's erased gap.
    static func lassoCases() -> [(name: String, polygon: [Point])] {
        [
            ("around everything", [Point(-20, -20), Point(200, -20), Point(200, 200), Point(-20, 200)]),
            ("around a moved stroke's new place", [Point(0, 30), Point(60, 30), Point(60, 45), Point(0, 45)]),
            ("around its old place only", [Point(-5, 35), Point(4, 35), Point(4, 45), Point(-5, 45)]),
            ("around a dot", [Point(95, 95), Point(105, 95), Point(105, 105), Point(95, 105)]),
            ("most but not 90 % of a stroke", [Point(-5, 5), Point(22, 5), Point(22, 15), Point(-5, 15)]),
            ("a crossed loop still encloses", [Point(-5, 60), Point(30, 80), Point(30, 60), Point(-5, 80)]),
        ]
    }

    @Test func selectionVectorsAreCurrent() throws {
        let editor = Self.board().editor
        let cases = try Self.cases().map { testCase -> [String: Any] in
            var expected: [String: Any] = ["operations": testCase.operations.map(VectorJSON.operation)]
            if testCase.exact {
                var author = editor
                let edit = author.change(testCase.operations)
                #expect(edit.id.seq == 6, "the copy case names seq 6's strokes")
                let after = BoardState.after(testCase.board + [edit])
                try after.checkInvariants()
                expected["hash"] = after.canonicalHash
                expected["strokes"] = after.drawing.map(VectorJSON.stroke)
                expected["change"] = VectorJSON.change(edit)
            }
            return [
                "name": testCase.name,
                "board": testCase.board.map(VectorJSON.change),
                "selection": testCase.selection.map(\.description),
                "edit": testCase.edit,
                "expected": expected,
            ]
        }
        let board = BoardState.after(Self.board().changes)
        let index = StrokeIndex(board)
        let lassos = Self.lassoCases().map { lasso -> [String: Any] in
            [
                "name": lasso.name,
                "polygon": VectorJSON.points(lasso.polygon),
                "selected": index.select(lasso: lasso.polygon, in: board).map(\.description),
            ]
        }
        try ConformanceVectorFile(name: "selection.json").check([
            "format": "inkwell-selection-conformance/1",
            "about": "Each case's `board` changes, applied in order to an empty board \"main\", then `edit` on the "
                + "`selection` writes exactly `expected.operations`; applied as `expected.change`, the board has "
                + "`expected.hash` and `expected.strokes`. A rotation's numbers agree within 1e-12. Each lasso, "
                + "over the first case's board, selects exactly `selected` (ids in order).",
            "cases": cases,
            "lassos": lassos,
        ])
    }

    /// What the cases say, checked here too, so the file cannot encode a wrong rule.
    @Test func theEditsDoWhatTheySay() throws {
        let (changes, ids, editor) = Self.board()
        var author = editor
        let state = BoardState.after(changes)
        let erased = try #require(state.drawingStroke(ids[1]))
        let move = SelectionEdits.translation(dx: 12.3, dy: -7.94)
        #expect(move == .translation(12.25, -8))
        let moved = SelectionEdits.transform([erased], by: move)
        #expect(moved == [.set(ids[1], .transform(.translation(17.25, -10.5)))])
        // A scale or rotation keeps its pivot in place.
        let pivot = Point(20, 25)
        for matrix in [
            SelectionEdits.scaling(sx: 1.5, sy: 0.75, about: pivot), SelectionEdits.rotation(by: 0.5, about: pivot),
        ] {
            let image = matrix.apply(to: pivot)
            #expect(abs(image.x - pivot.x) < 1e-12 && abs(image.y - pivot.y) < 1e-12)
        }
        // A copy looks exactly like its original, moved.
        let next = ChangeID(replica: author.replica, seq: author.seq + 1)
        let copy = author.change(
            SelectionEdits.copies(of: Array(state.drawing), dx: 16, dy: 16, change: next, above: Array(state.drawing))
        )
        let after = BoardState.after(changes + [copy])
        for (index, original) in state.drawing.enumerated() {
            let twin = try #require(after.drawingStroke(StrokeID(change: next, index: UInt32(index))))
            #expect(twin.pieces == original.pieces && twin.points == original.points && twin.colour == original.colour)
            #expect(twin.transform == original.transform.concatenating(.translation(16, 16)))
            #expect(twin.z > state.drawing.map(\.z).max()!)
        }
        #expect(Array(after.drawing.suffix(4)).map(\.id) == (0..<4).map { StrokeID(change: next, index: UInt32($0)) })
        // Front and back keep the selection's order and put it past every other stroke.
        let front = BoardState.after(
            changes + [author.change(SelectionEdits.bringToFront([ids[0], ids[2]], in: Array(after.drawing)))]
        )
        #expect(Array(front.drawing.suffix(2)).map(\.id) == [ids[0], ids[2]])
        let back = BoardState.after(
            changes + [author.change(SelectionEdits.sendToBack([ids[3], ids[1]], in: Array(state.drawing)))]
        )
        #expect(Array(back.drawing.prefix(2)).map(\.id) == [ids[1], ids[3]])
    }
}
