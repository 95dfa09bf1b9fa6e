extension SyncClient {
    /// Where the client stands with one room, for a harness that waits for it to settle.
    package struct Standing: Hashable, Sendable {
        /// Whether a connection is open.
        package var isConnected: Bool
        /// Packs pushed and not yet acknowledged.
        package var inFlight: Int
        /// Whether this connection caught the room up.
        package var caughtUp: Bool
        /// The position through which the room is held.
        package var watermark: UInt64
        /// The error code of the server's refusal of the room on this connection, if it refused it.
        package var refusalCode: UInt32?
    }

    /// Where the client stands with `room`, or `nil` for a room it does not follow.
    package func standing(in room: String) -> Standing? {
        guard let state = session.rooms[room] else { return nil }
        return Standing(
            isConnected: connection != nil,
            inFlight: session.inFlight.count,
            caughtUp: state.caughtUp,
            watermark: state.cursor.watermark,
            refusalCode: state.refusal?.code
        )
    }
}
