import InkwellSync
import Testing

@testable import InkwellClient
@testable import InkwellWire

@Suite struct SnapshotTrackerTests {
    let own = ReplicaID(high: 1, low: 1)
    let other = ReplicaID(high: 2, low: 2)

    /// A device's own changes pushed after it started following the room still count once acknowledged,
    /// at the position the server gave them: a snapshot standing for that position must hold them.
    @Test func acknowledgedPushesCountAtTheirPosition() {
        let tracker = SnapshotTracker()
        tracker.start(room: "r", base: (VersionVector([other: 3]), 4))
        let pack = PackID(bytes: Array(repeating: 7, count: 32))!
        tracker.pushed(pack, room: "r", changes: (1...20).map { ChangeID(replica: own, seq: $0) })
        #expect(tracker.required(room: "r", through: 9)[own] == 0, "not acknowledged yet")

        tracker.acknowledged(pack, room: "r", position: 9)
        #expect(tracker.required(room: "r", through: 9)[own] == 20)
        #expect(tracker.required(room: "r", through: 8)[own] == 0, "stored after a snapshot standing for 8")
        #expect(tracker.required(room: "r", through: 9)[other] == 3)
    }

    @Test func anAckForAnotherRoomOrAnUnknownPackChangesNothing() {
        let tracker = SnapshotTracker()
        tracker.start(room: "r", base: (VersionVector(), 0))
        let pack = PackID(bytes: Array(repeating: 1, count: 32))!
        tracker.pushed(pack, room: "r", changes: [ChangeID(replica: own, seq: 1)])
        tracker.acknowledged(PackID(bytes: Array(repeating: 2, count: 32))!, room: "r", position: 1)
        tracker.acknowledged(pack, room: "elsewhere", position: 1)
        #expect(tracker.required(room: "r", through: 5).isEmpty)
    }

    /// A snapshot taken in place of packs this device never received (a rebase) stands for what they held:
    /// a later snapshot, made or checked here, must stand for its cut too (simulation seed 7187).
    @Test func aRebaseStandsForItsCutInLaterSnapshots() {
        let tracker = SnapshotTracker()
        tracker.start(room: "r", base: (VersionVector([other: 3]), 4))
        tracker.settled(room: "r", through: 14, stoodFor: VersionVector([other: 6]))
        tracker.received(room: "r", position: 20, replica: own, seq: 2)
        #expect(tracker.required(room: "r", through: 21)[other] == 6)
        #expect(tracker.required(room: "r", through: 21)[own] == 2)
        // What the packs through a position held counts as it did: a snapshot taken without a cut adds none.
        let plain = SnapshotTracker()
        plain.start(room: "r", base: (VersionVector([other: 3]), 4))
        plain.received(room: "r", position: 10, replica: other, seq: 5)
        plain.settled(room: "r", through: 14)
        #expect(plain.required(room: "r", through: 21)[other] == 5)
    }

    /// What a device held when the connection started may hold changes live packs brought from past a gap
    /// in its log, after a position it is later rebased to: a rebase is held to its own timeline of the
    /// base alone, and to what came on this connection (simulation seed 14852).
    @Test func aRebaseIsHeldToTheBaseOfThisDevicesOwnTimelineAlone() {
        let tracker = SnapshotTracker()
        // Held through watermark 21, plus another author's change 9 that came live at 24.
        tracker.start(room: "r", base: (VersionVector([other: 9, own: 4]), 21))
        #expect(
            tracker.required(room: "r", through: 22) == VersionVector([other: 9, own: 4]),
            "a snapshot in the stream"
        )
        #expect(tracker.required(room: "r", through: 22, baseFor: own) == VersionVector([own: 4]), "a rebase")
        tracker.received(room: "r", position: 22, replica: other, seq: 8)
        #expect(tracker.required(room: "r", through: 22, baseFor: own) == VersionVector([other: 8, own: 4]))
        #expect(tracker.required(room: "r", through: 20, baseFor: own).isEmpty, "before the watermark: nothing")
    }
}
