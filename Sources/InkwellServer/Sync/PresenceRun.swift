import InkwellWire
import NIOCore

/// Consecutive presences in a connection's queue, sent as one frame: with ten members drawing, each
/// receives nine senders' presence many times a second, and one frame for all that piled up costs
/// the server (and the receiver) one frame's work instead of nine.
///
/// A run ends at any other item, so presence never overtakes a pack or an ack queued before it; it
/// also ends at ``maximumBytes``, to keep the frame well under the client's message limit.
struct PresenceRun {
    static let maximumBytes = 256 << 10

    private var presences: [ByteBuffer] = []
    private var bytes = 0

    /// Adds a presence to the run, first closing the run if it would grow past ``maximumBytes``.
    mutating func append(_ presence: ByteBuffer, into frames: inout [ByteBuffer]) {
        if bytes + presence.readableBytes > Self.maximumBytes { close(into: &frames) }
        presences.append(presence)
        bytes += presence.readableBytes
    }

    /// Ends the run: its frame, if it holds any presence, follows the frames before it.
    mutating func close(into frames: inout [ByteBuffer]) {
        guard !presences.isEmpty else { return }
        frames.append(ByteBuffer(bytes: SyncCodec.presenceFrame(presences.map(\.readableBytesView))))
        presences.removeAll(keepingCapacity: true)
        bytes = 0
    }
}
