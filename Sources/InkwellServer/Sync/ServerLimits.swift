import InkwellWire

/// The limits a server enforces on every connection, documented for clients and operators.
///
/// Each one bounds what a single peer can cost the server: memory (frame, message and buffer sizes),
/// CPU and disk (packs per second), and sockets (the header and hello deadlines, the ping interval).
public struct ServerLimits: Hashable, Sendable {
    /// One WebSocket frame, in and out. Larger messages travel as several frames: catch-up frames are
    /// fragmented at this size, and a browser's unfragmented push must fit in one.
    public var maximumFrameBytes: Int = 1 << 20
    /// One reassembled message (a push or any other client frame).
    public var maximumMessageBytes: Int = 8 << 20
    /// A pack's body once inflated: checked before a push is stored.
    public var maximumPackBodyBytes: Int = 8 << 20
    /// Pushes a connection may make per second (sustained); twice as many in a burst.
    public var packsPerSecond: Double = 200
    /// Bytes a connection may send per second (sustained), counted before a frame is parsed; a burst
    /// may reach ``byteBurst``. Over it, the connection is closed (`rateLimited`, 1008).
    public var bytesPerSecond: Double = 16_777_216
    /// The bytes a connection may send at once: at least one largest message.
    public var byteBurst: Double = 67_108_864
    /// Presence frames a connection may send per second (sustained), twice as many in a burst; more
    /// are dropped, not relayed: presence is ephemeral, and a page sends at most 20 a second.
    public var presencePerSecond: Double = 60
    /// Pushes of one connection waiting for their commit; reading pauses beyond it.
    public var maximumPushesInFlight: Int = 64
    /// Bytes of one connection's pushes waiting for their commit; reading pauses beyond it (a push
    /// larger than this is let in alone).
    public var maximumPushBytesInFlight: Int = 16 << 20
    /// Bytes of all connections' pushes waiting for their commit: the server's memory for pushes. Readers
    /// pause beyond it until a commit makes room.
    public var maximumPushBytesWaiting: Int = 256 << 20
    /// Bytes queued for one connection before live packs stop and it falls back to catch-up, and its
    /// reader stops reading until they are written. Answers to what it had read (acks, errors) may pass
    /// it by ``sendBufferHeadroom``; a connection whose queue reaches that is dropped.
    public var sendBufferBytes: Int = 4 << 20
    public var sendBufferHeadroom: Int = 1 << 20
    /// The largest catch-up frame (before fragmentation), in stored pack bytes.
    public var catchUpFrameBytes: Int = 4 << 20
    /// Seconds a new connection has to send its request head (a plain HTTP request or the WebSocket
    /// handshake); one that sends nothing, half a head or bytes that are not HTTP is closed.
    public var headerTimeout: Duration = .seconds(5)
    /// Seconds a new connection has to say hello.
    public var helloTimeout: Duration = .seconds(5)
    /// The server pings every this often; a peer that has not answered the previous ping is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// Seconds a closing connection waits for the peer's close frame before dropping the socket.
    public var closeTimeout: Duration = .milliseconds(500)
    /// Open WebSocket connections; more are refused with 503.
    public var maximumConnections: Int = 20_000
    /// Open WebSocket connections from one IP address; more are refused with 429. A school or office
    /// behind one address is a few hundred people.
    public var maximumConnectionsPerAddress: Int = 256
    /// Rooms one connection may follow at once; asking for more closes it (`tooManyRooms`).
    public var maximumRoomsPerConnection: Int = 1_000
    /// Refused subscriptions, rooms made and rotations tried by one connection before it is closed:
    /// bounds guessing room ids or capabilities, and minting rooms in a loop.
    public var maximumRoomRequestsPerConnection: Int = 256
    /// One blob.
    public var maximumBlobBytes: Int = 32 << 20
    /// The pack bytes one room may hold; a push past it is refused (`roomFull`, not fatal) and stays on
    /// its device. A year of a busy board's ink is a few tens of MiB.
    public var maximumRoomBytes: Int = 1 << 30
    /// The blobs of one room, together: an upload that would take the room past it is refused with 413.
    /// Each blob counts at least ``PackLog/minimumBlobCharge`` bytes.
    public var maximumBlobBytesPerRoom: Int = 256 << 20
    /// Blob bytes one IP address may upload per second (sustained); more are refused with 429.
    public var blobBytesPerSecondPerAddress: Double = 8_388_608
    /// Blob bytes one IP address may upload at once: at least one largest blob.
    public var blobByteBurstPerAddress: Double = 67_108_864

    public init() {}

    /// The limits a client needs to size its frames, as sent in `welcome`.
    var maximumClientFrameBytes: Int { min(maximumMessageBytes, SyncProtocol.maximumFrameBytes) }
}
