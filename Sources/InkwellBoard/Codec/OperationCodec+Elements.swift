import Foundation
import InkwellGeometry
import InkwellSync

/// Text boxes and images to and from their messages: `AddText`, `InsertText`, `DeleteText`, `AddImage`.
extension OperationCodec {
    static func encodeAddText(_ style: TextStyle, at point: Point) -> WireAddText {
        var add = WireAddText()
        add.colour = style.colour.rgba
        add.size = style.size
        add.x = point.x
        add.y = point.y
        return add
    }

    static func encodeInsertText(
        _ box: StrokeID,
        after anchor: TextSequence.Anchor?,
        text: String,
        in change: ChangeID
    ) -> WireInsertText {
        var insert = WireInsertText()
        insert.box = encode(box, in: change)
        if let anchor {
            insert.after = encode(StrokeID(anchor.run), in: change)
            insert.offset = anchor.offset
        }
        insert.text = text
        return insert
    }

    static func encodeDeleteText(_ box: StrokeID, _ ranges: [TextRange], in change: ChangeID) -> WireDeleteText {
        var delete = WireDeleteText()
        delete.box = encode(box, in: change)
        delete.ranges = ranges.map { range in
            var wire = WireTextRange()
            wire.run = encode(StrokeID(range.run), in: change)
            wire.from = range.offsets.lowerBound
            wire.to = range.offsets.upperBound
            return wire
        }
        return delete
    }

    static func encodeAddImage(_ image: BoardImage, at point: Point) -> WireAddImage {
        var add = WireAddImage()
        add.blob = Data(image.blob)
        add.size = image.byteCount
        add.type = image.type
        add.x = point.x
        add.y = point.y
        add.width = image.width
        add.height = image.height
        return add
    }

    static func decode(_ add: WireAddImage) -> BoardOperation {
        .addImage(
            BoardImage(
                blob: Array(add.blob),
                byteCount: add.size,
                type: add.type,
                width: add.width,
                height: add.height
            ),
            at: Point(add.x, add.y)
        )
    }

    static func decode(_ add: WireAddText) -> BoardOperation {
        .addText(TextStyle(colour: Colour(rgba: add.colour), size: add.size), at: Point(add.x, add.y))
    }

    static func decode(_ insert: WireInsertText, in change: ChangeID) throws(BoardCodecError) -> BoardOperation {
        let box = try decode(insert.box, in: change)
        var anchor: TextSequence.Anchor?
        if insert.hasAfter {
            anchor = TextSequence.Anchor(run: try decode(insert.after, in: change).operation, offset: insert.offset)
        } else if insert.offset != 0 {
            throw .invalidField("insertText.offset")
        }
        return .insertText(box, after: anchor, text: insert.text)
    }

    static func decode(_ delete: WireDeleteText, in change: ChangeID) throws(BoardCodecError) -> BoardOperation {
        let box = try decode(delete.box, in: change)
        guard delete.ranges.count <= BoardLimits.maximumIntervalsPerErase else { throw .tooLarge("deleteText.ranges") }
        var ranges: [TextRange] = []
        ranges.reserveCapacity(delete.ranges.count)
        for range in delete.ranges {
            guard range.from < range.to else { throw .invalidField("deleteText.ranges") }
            ranges.append(TextRange(run: try decode(range.run, in: change).operation, offsets: range.from..<range.to))
        }
        return .deleteText(box, ranges)
    }
}
