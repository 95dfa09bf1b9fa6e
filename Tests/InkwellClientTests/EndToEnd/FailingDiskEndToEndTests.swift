import CInkwellCrashVFS
import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellTesting
import Testing

/// A device whose disk fails while it syncs, against the real `inkwell serve`: what its store could not
/// take is done again once the disk is back, without the user drawing again. The store's files go through
/// the crash VFS (CInkwellCrashVFS.h), which makes their disk fail on demand.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FailingDiskEndToEndTests {
    static let room = "failing-disk"

    /// The server acks a push while the device's disk fails, so the change cannot be taken off the
    /// outbox. The client ends the connection for it: the next one, once the disk is back, pushes the
    /// change again, the server (which holds it) acks it again, and the outbox empties. Left on the
    /// connection, the change would wait in the outbox until the user drew something else.
    @Test func anAckTheStoreCouldNotTakeIsTakenOnTheNextConnection() async throws {
        let seed = seed("anAckTheStoreCouldNotTakeIsTakenOnTheNextConnection")
        var random = SeededGenerator(seed: seed)
        try #require(inkwell_crash_vfs_register() == 0)
        let serverData = try TemporaryDirectory("failing-disk-server")
        let device = try TemporaryDirectory("failing-disk-device")
        // The VFS names files by their real path (the temporary folder may be a link).
        let folder = device.url.resolvingSymlinksInPath().path
        try #require(inkwell_crash_vfs_arm(folder) == 0)
        defer { inkwell_crash_vfs_disarm(folder) }
        try await withServer(data: serverData.url) { server in
            let store = try Store(directory: folder)
            let client = try SyncClient(
                store: store,
                url: server.syncURL,
                rooms: [Self.room],
                configuration: endToEndConfiguration(seed: seed)
            )
            try await whileRunning([client]) {
                try await eventually("the device is welcomed") { await client.statistics.connectionsOpened > 0 }
                _ = try await client.record(randomStroke(using: &random), room: Self.room)
                try await eventually("the first change is acknowledged") {
                    await client.statistics.changesAcknowledged == 1
                }

                // Recorded and pushed while the disk works; then it fails before the ack comes back.
                let framesBefore = await client.statistics.framesReceived
                _ = try await client.record(randomStroke(using: &random), room: Self.room)
                inkwell_crash_vfs_set_disk(folder, Int32(INKWELL_DISK_FAILING.rawValue))
                try await eventually("the ack arrives", timeout: .seconds(20)) {
                    await client.statistics.framesReceived > framesBefore
                }
                #expect(
                    await client.statistics.changesAcknowledged == 1,
                    "the ack came while the disk failed, and the store could not take it"
                )

                // While the disk fails, each connection pushes the change once, and ends when its ack
                // cannot be taken: no storm of pushes at the speed of the network.
                let before = await client.statistics
                try await Task.sleep(for: .seconds(1))
                let during = await client.statistics
                let pushes = during.packsPushed - before.packsPushed
                let connections = during.connectionsOpened - before.connectionsOpened
                #expect(
                    pushes <= connections + 1,
                    "\(pushes) pushes on \(connections) connections while the disk failed"
                )
                inkwell_crash_vfs_set_disk(folder, Int32(INKWELL_DISK_HEALTHY.rawValue))
                try await eventually("the outbox empties once the disk is back", timeout: .seconds(15)) {
                    try store.outboxSize().changes == 0
                }
                #expect(await client.statistics.changesAcknowledged == 2)
            }
        }
    }
}
