import NIOCore

/// The frames of one write, gathered from a connection's queued items: frames as they are, each run
/// of presence as one frame (``PresenceRun``), and the queued bytes they account for. The pump and the
/// writer task gather alike, up to the first item that must wait (a catch-up or a close).
struct OutboundFrames {
    private var frames: [ByteBuffer] = []
    private var bytes = 0
    private var presences = PresenceRun()

    /// Adds a frame or a presence. Returns false, adding nothing, for an item that must wait.
    mutating func add(_ item: Outbound) -> Bool {
        switch item {
        case .frame(let buffer):
            presences.close(into: &frames)
            frames.append(buffer)
            bytes += buffer.readableBytes
        case .presence(let buffer):
            presences.append(buffer, into: &frames)
            bytes += buffer.readableBytes
        case .catchUp, .close:
            return false
        }
        return true
    }

    /// What was gathered, the last presence run closed, and the queued bytes it accounts for; the
    /// next frames start over.
    mutating func take() -> (frames: [ByteBuffer], bytes: Int) {
        presences.close(into: &frames)
        defer {
            frames.removeAll(keepingCapacity: true)
            bytes = 0
        }
        return (frames, bytes)
    }
}
