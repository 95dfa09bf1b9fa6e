import InkwellClient
import InkwellSync
import InkwellWire
import Synchronization

/// One connection of a load run: who it is, which room it is in, whether it draws, and the presence
/// frames it sent lately, so receivers can tell how long each one took.
final class LoadMember: Sendable {
    /// A presence frame as its receivers recognise it: by its cursor and the size of its ink.
    struct SentPresence: Sendable {
        var cursorX: Double
        var cursorY: Double
        var inkBytes: Int
        var sentAt: ContinuousClock.Instant
        var measured: Bool
    }

    /// The last presence frames sent: 64, so a frame is timed even when it arrives 64 intervals late.
    struct PresenceLog: Sendable {
        static let capacity = 64
        private var entries: [SentPresence] = []
        private var next = 0

        mutating func append(_ sent: SentPresence) {
            if entries.count < Self.capacity {
                entries.append(sent)
            } else {
                entries[next] = sent
                next = (next + 1) % Self.capacity
            }
        }

        /// The newest frame sent with this cursor and ink size. Two frames match alike only when a pen
        /// pinned at the canvas's edge repeats a cursor seconds apart: the newer is the one in flight,
        /// and taking the older timed a prompt frame as seconds late.
        func find(cursorX: Double, cursorY: Double, inkBytes: Int) -> SentPresence? {
            guard !entries.isEmpty else { return nil }
            for offset in 1...entries.count {
                let entry = entries[(next - offset + entries.count) % entries.count]
                if entry.cursorX == cursorX && entry.cursorY == cursorY && entry.inkBytes == inkBytes { return entry }
            }
            return nil
        }
    }

    /// Where the member stands, as the run's conductor polls it.
    enum Standing: UInt8 {
        case pending
        case live
        case failed
    }

    let index: Int
    let room: String
    let roomIndex: Int
    /// Signs this member's packs; its replica is the member's device.
    let key: AuthorKey
    var device: ReplicaID { key.replica }
    let drawer: Bool
    let seed: UInt64
    let isLive = Atomic<Bool>(false)
    private let standingValue = Atomic<UInt8>(Standing.pending.rawValue)
    let sentPresence = Mutex(PresenceLog())
    /// Resolved by the conductor when it is this member's turn to connect (false: the run gave up).
    let admitted = Once<Bool>()

    var standing: Standing { Standing(rawValue: standingValue.load(ordering: .acquiring)) ?? .failed }

    func settle(_ standing: Standing) {
        standingValue.store(standing.rawValue, ordering: .releasing)
    }

    init(index: Int, room: String, roomIndex: Int, key: AuthorKey, drawer: Bool, seed: UInt64) {
        self.index = index
        self.room = room
        self.roomIndex = roomIndex
        self.key = key
        self.drawer = drawer
        self.seed = seed
    }
}

/// What one connection saw: its own latency histograms and counts, merged into the report at the end.
struct MemberStats: Sendable {
    var connected = false
    var live = false
    /// Push → receipt by this member, for packs others pushed.
    var remote = LatencyHistogram()
    /// Push → ack, for this member's own pushes.
    var ack = LatencyHistogram()
    /// Presence sent → received by this member.
    var presence = LatencyHistogram()
    /// How late a drawer woke for its presence frames, against its schedule: the generator's own lag.
    var lateness = LatencyHistogram()
    var presenceReceipts = 0
    /// Measured-phase presence that matched none of its sender's recent frames: it came too late to time.
    var presenceUnmatched = 0
    /// `packs` frames holding more than one pack: catch-up after the server dropped this member to it.
    var coalescedFrames = 0
    /// Frames that carried several members' presence.
    var presenceBatches = 0
    var framesReceived = 0
    var errorFrames = 0
    var firstError: String?
    /// Connections the server ended before the run did, and how the first of them ended.
    var unexpectedCloses = 0
    var unexpectedClose: String?
    var connectError: String?
    var pushesSent = 0
    var presenceSent = 0
    var sendFailures = 0

    mutating func merge(_ other: MemberStats) {
        connected = connected || other.connected
        live = live || other.live
        remote.merge(other.remote)
        ack.merge(other.ack)
        presence.merge(other.presence)
        lateness.merge(other.lateness)
        presenceReceipts += other.presenceReceipts
        presenceUnmatched += other.presenceUnmatched
        coalescedFrames += other.coalescedFrames
        presenceBatches += other.presenceBatches
        framesReceived += other.framesReceived
        errorFrames += other.errorFrames
        firstError = firstError ?? other.firstError
        unexpectedCloses += other.unexpectedCloses
        unexpectedClose = unexpectedClose ?? other.unexpectedClose
        connectError = connectError ?? other.connectError
        pushesSent += other.pushesSent
        presenceSent += other.presenceSent
        sendFailures += other.sendFailures
    }
}
