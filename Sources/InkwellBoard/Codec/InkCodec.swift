public import InkwellGeometry
import InkwellSync
import SwiftProtobuf

/// The ink of a stroke still being drawn, as presence carries it (`Presence.ink.points`): an encoded
/// `Points` message, the same bytes a change holds for the same points, so a stroke costs a few bytes
/// a point while it is live too.
public enum InkCodec {
    /// The most bytes of ink this reads: a presence frame's limit.
    public static let maximumBytes = 64 << 10

    /// `points` (and their pressures, in 0…1) as an encoded `Points` message.
    ///
    /// Written directly, as a change's ink is (``PointsLayout``): a page re-sends the ink it has not saved
    /// yet in every animation frame's presence, and through the generated message this was two thirds of
    /// a presence's cost. The bytes are the generated encoder's (``generatedEncoding(_:pressures:)``).
    public static func encode(_ points: [Point], pressures: [Float]? = nil) -> [UInt8] {
        let layout = PointsLayout(points, pressures)
        var wire = WireWriter(capacity: layout.size)
        layout.write(to: &wire)
        assert(wire.bytes.count == layout.size, "ink is written at the size it was measured at")
        return wire.bytes
    }

    /// The same message through the generated encoder, which ``encode(_:pressures:)`` must equal.
    package static func generatedEncoding(_ points: [Point], pressures: [Float]? = nil) -> [UInt8] {
        try! OperationCodec.encode(points, pressures).serializedBytes()
    }

    /// The points and pressures of an encoded `Points` message, checked as a change's are.
    public static func decode(_ bytes: [UInt8]) throws(BoardCodecError) -> (points: [Point], pressures: [Float]?) {
        guard bytes.count <= InkCodec.maximumBytes else { throw .tooLarge("presence.ink") }
        let wire: WirePoints
        do {
            wire = try WirePoints(serializedBytes: bytes)
        } catch {
            throw .malformed("points")
        }
        let (points, pressures) = try OperationCodec.decode(wire)
        return (points, pressures)
    }
}
