import InkwellSync

/// Presence written straight into bytes. A drawing page or client sends one every animation frame,
/// and through the generated messages each cost a heap object per nested message, a `Data` per bytes
/// field and a size computed per level: about 30 % of the author's time in W1's live rows
/// (BENCHMARKS.md, "Live ink, libdeflate, and the like-for-like table again"). The bytes are those
/// swift-protobuf writes for the same `Presence` (proto3: fields in number order, defaults left out);
/// `PresenceEncodingTests` checks the two agree on random presences.
extension SyncCodec {
    /// A `ClientFrame` holding `presence` (its field 5).
    static func presenceClientFrame(_ presence: Presence) -> [UInt8] {
        let message = presenceMessage(presence)
        var frame = WireWriter(capacity: message.count + 6)
        frame.field(5, message)
        return frame.bytes
    }

    /// The `Presence` message alone.
    static func presenceMessage(_ presence: Presence) -> [UInt8] {
        var writer = WireWriter(capacity: 64 + presence.name.utf8.count + (presence.ink?.points.count ?? 0))
        if !presence.room.isEmpty { writer.field(1, presence.room.utf8) }
        writer.field(2, presence.device)
        if !presence.name.isEmpty { writer.field(3, presence.name.utf8) }
        writer.fixed32Field(4, presence.colour)
        if let cursor = presence.cursor {
            writer.fixed64Field(5, cursor.x.bitPattern)
            writer.fixed64Field(6, cursor.y.bitPattern)
            writer.varintField(7, 1)
        }
        if let ink = presence.ink {
            if !ink.board.isEmpty { writer.field(8, ink.board.utf8) }
            // InkInProgress: colour (1, fixed32), width (2, double), points (3, bytes); always present once
            // there is ink, even with every field at its default, as the generated encoder writes it.
            let size =
                (ink.colour == 0 ? 0 : 5) + (ink.width.bitPattern == 0 ? 0 : 9)
                + (ink.points.isEmpty ? 0 : WireWriter.fieldSize(ink.points.count))
            writer.key(9, 2)
            writer.varint(UInt64(size))
            writer.fixed32Field(1, ink.colour)
            writer.fixed64Field(2, ink.width.bitPattern)
            if !ink.points.isEmpty { writer.field(3, ink.points) }
        }
        if !presence.sealed.isEmpty { writer.field(10, presence.sealed) }
        return writer.bytes
    }
}
