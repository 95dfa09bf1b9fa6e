import Foundation
import GRDB
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting
import InkwellWire
import Testing

/// Access abuse against one real `inkwell serve` with guarded rooms (issue 19, "Bad input"): while three
/// honest peers draw in a board made by `inkwell share` (joined by its edit link) and a fourth follows it
/// with the view link, attackers use the board's links and the server's address the ways the access
/// rules forbid (``AccessAbuse``). Each attack must be refused, closed or throttled with its documented
/// code; the honest peers must converge on their own strokes; the log must hold nothing refused.
///
/// The server's resident memory is sampled every 100 ms throughout (``ResidentMemory``) and its peak
/// (VmHWM, which also covers the moments between samples) must stay under ``residentMemoryBound``,
/// 128 MiB. Measured on the 2-core machine with a debug build over four runs: about 46 MiB once started,
/// 52 MiB with the peers drawing, 65 MiB after 100 MiB of blob uploads (streamed to files, so what grows
/// is the allocator's high water, not the blobs), and a peak of 73.3 to 76.5 MiB while 128 flood
/// connections are held; the bound is about 1.7 times that.
///
/// `INKWELL_SEED` replays a run.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct AccessAbuseTests {
    static let honestPeers = 3
    static let strokesPerPeer = 40
    /// Points per second each honest peer draws: its strokes take about 20 s, longer than the attacks.
    static let drawingRate = 100
    /// `--connections-per-address`: the flood from 127.0.0.2 gets this many, the rest 429.
    static let connectionsPerAddress = 128
    /// The bound on the server's resident memory (VmHWM) over the whole suite, in MiB: about 1.7 times
    /// the 73.3–76.5 MiB peaks observed (see above).
    static let residentMemoryBound = 128

    @Test func abusiveClientsAreRefusedWhileHonestPeersConverge() async throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("access abuse: seed \(seed) (INKWELL_SEED=\(seed) replays)")
        var random = SeededGenerator(seed: seed)
        let started = ContinuousClock.now
        let scratch = try TemporaryDirectory("access-abuse")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

        // Guarded rooms (no --open-rooms); a public URL, so only its name is served; presence sent at once
        // rather than held 50 ms for more, which would coalesce the spammer's and hide the rate limit.
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.start(
            data: scratch.url.appendingPathComponent("server"),
            port: port,
            arguments: [
                "--public-url", "http://127.0.0.1:\(port)",
                "--connections-per-address", String(Self.connectionsPerAddress),
                "--presence-hold", "0",
                "--room-blob-bytes", String(AccessAbuse.roomBlobBytes),
                "--blob-bytes-per-second", String(AccessAbuse.blobBytesPerSecond),
                "--request-body-timeout", String(AccessAbuse.requestBodyTimeout),
            ],
            openRooms: false
        )
        let memory = ResidentMemory(pid: server.child.identifier)
        memory.mark("share and honest peers")

        let shared = try await InkwellProcess.running(["share", "--server", server.address, "--data", path("admin")])
        try #require(shared.status == 0, "share: \(shared.standardError)")
        let lines = shared.standardOutput.split(separator: "\n").map(String.init)
        let edit = try #require(lines.first.flatMap { RoomLink(String($0.dropFirst(5))) }, "\(lines)")
        let firstView = try #require(lines.last.flatMap { RoomLink(String($0.dropFirst(5))) }, "\(lines)")
        let key = try #require(edit.key, "a shared board is encrypted")
        var target = AbuseTarget(
            port: port,
            room: edit.room,
            edit: try #require(edit.capability),
            view: try #require(firstView.capability),
            key: key,
            adminData: path("admin"),
            connectionsPerAddress: Self.connectionsPerAddress
        )
        print("access abuse: room \(target.room), server on port \(port)")

        let peerDirectories = (0..<Self.honestPeers).map { path("peer\($0)") }
        let peers = try peerDirectories.map { directory in
            try ChildProcess([
                "join", edit.description, "--data", directory, "--draw", String(Self.strokesPerPeer),
                "--rate", String(Self.drawingRate), "--seed", String(random.next()), "--wait-synced", "--timeout",
                "120",
            ])
        }
        try await Task.sleep(for: .milliseconds(500))

        let ledger = AbuseLedger()
        var reports: [AbuseReport] = []
        func run(_ phase: String, _ body: @escaping @Sendable () -> AbuseReport) async {
            memory.mark(phase)
            let phaseStarted = ContinuousClock.now
            let report = await Blocking.run(body)
            print("access abuse: \(report.name) in \(ContinuousClock.now - phaseStarted)")
            reports.append(report)
        }

        // 2 first: every later case uses the view link in force after it.
        memory.mark("2. rotation")
        let rotationTarget = target
        let rotationSeed = random.next()
        let (rotation, newView) = await Blocking.run { AccessAbuse.rotation(rotationTarget, seed: rotationSeed) }
        reports.append(rotation)
        target.view = try #require(newView, "the rotation failed: \(rotation.problems)")
        let view = RoomLink(server: firstView.server, room: target.room, capability: newView, key: key)
        // The honest viewer follows with the new view link until the end.
        let viewer = try ChildProcess(["join", view.description, "--data", path("viewer")])

        let current = target
        let seeds = (0..<6).map { _ in random.next() }
        await run("1. view only") { AccessAbuse.viewOnly(current, ledger: ledger, seed: seeds[0]) }
        await run("3. wrong key") { AccessAbuse.wrongKey(current, ledger: ledger, seed: seeds[1]) }
        await run("4. flipped bits") { AccessAbuse.flippedBits(current, ledger: ledger, seed: seeds[2]) }
        /// The honest side while blob attacks run: peers still draw, and the server answers at once.
        @Sendable func honestSide() -> [String] {
            var problems: [String] = []
            if !peers.contains(where: \.isRunning) { problems.append("no honest peer is still drawing") }
            let asked = ContinuousClock.now
            if server.healthStatus() != 200 { problems.append("/healthz is not 200") }
            if ContinuousClock.now - asked > .seconds(2) {
                problems.append("/healthz took \(ContinuousClock.now - asked)")
            }
            return problems
        }
        let blobSeed = random.next()
        await run("9. blob flood") {
            AccessAbuse.blobFlood(current, ledger: ledger, seed: blobSeed, during: honestSide)
        }
        let slowSeed = random.next()
        await run("10. slow bodies") { AccessAbuse.slowBodies(current, seed: slowSeed, during: honestSide) }
        await run("5. guessing") { AccessAbuse.guessing(current, ledger: ledger, seed: seeds[3]) }
        await run("6. connection flood") {
            AccessAbuse.connectionFlood(current, seed: seeds[4]) {
                // The honest side while 127.0.0.2 holds all its slots.
                var problems: [String] = []
                let running = peers.filter(\.isRunning).count + (viewer.isRunning ? 1 : 0)
                if running < peers.count + 1 {
                    problems.append("only \(running) honest peers run while 127.0.0.2 is full")
                }
                if server.healthStatus() != 200 { problems.append("/healthz is not 200 while 127.0.0.2 is full") }
                return problems
            }
        }
        await run("7. rebinding") { AccessAbuse.rebinding(current, seed: seeds[5]) }
        let spamSeed = random.next()
        await run("8. presence spam") {
            AccessAbuse.presenceSpam(current, seed: spamSeed) {
                server.get("/metrics")?.body.split(separator: "\n")
                    .first { $0.hasPrefix("inkwell_presence_dropped_total ") }
                    .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
                    .map { Int($0) }
            }
        }
        memory.mark("honest peers finish")
        let stillDrawing = peers.filter(\.isRunning).count
        print("access abuse: attacks over after \(ContinuousClock.now - started); \(stillDrawing) peers still drawing")
        #expect(stillDrawing >= 1, "the honest peers should still be drawing when the attacks end")

        for report in reports.sorted(by: { $0.name < $1.name }) {
            print("  \(report.name): " + report.observed.joined(separator: "\n    "))
            for problem in report.problems { Issue.record("\(report.name): \(problem)") }
        }
        #expect(reports.count == 10)
        #expect(server.child.isRunning, "the server exited: \(server.child.standardError.suffix(4_000))")
        #expect(server.healthStatus() == 200)

        // The honest peers finish, the viewer stops, then each syncs once more: all hold the same board,
        // the honest strokes and none of the wrong key's.
        for (index, peer) in peers.enumerated() {
            let status = await peer.waitForExit(timeout: .seconds(120))
            #expect(status == 0, "peer \(index) exited with \(status): \(peer.standardError.suffix(2_000))")
        }
        let viewerStatus = await viewer.terminate()
        #expect(viewerStatus == 0, "the viewer exited with \(viewerStatus): \(viewer.standardError.suffix(2_000))")
        memory.mark("final syncs")
        var finals: [String] = []
        for (directory, link) in peerDirectories.map({ ($0, edit) }) + [(path("viewer"), view)] {
            let final = try await InkwellProcess.running([
                "join", link.description, "--data", directory, "--wait-synced",
            ])
            #expect(final.status == 0, "final sync of \(directory): \(final.standardError.suffix(2_000))")
            finals.append(final.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        print("access abuse: honest peers report\n  " + finals.joined(separator: "\n  "))
        #expect(finals.count == Self.honestPeers + 1 && Set(finals).count == 1, "the honest peers did not converge")
        let strokes = Self.honestPeers * Self.strokesPerPeer
        #expect(
            finals.allSatisfy { $0.contains(", \(strokes) strokes, hash ") },
            "expected the honest peers' \(strokes) strokes and none of the \(ledger.wrongKeyPacks.count) sealed with another key"
        )

        // Each honest store kept the wrong key's packs aside.
        var authors: Set<ReplicaID> = []
        for directory in peerDirectories + [path("viewer")] {
            let store = try Store(directory: directory)
            if directory != path("viewer") { authors.insert(try store.replica(for: target.room)) }
            let aside = Set(try store.storedAside(upTo: WireSchema.current).map { PackID(of: $0.bytes) })
            let missing = ledger.wrongKeyPacks.filter { !aside.contains($0) }
            #expect(missing.isEmpty, "\(directory) did not keep aside \(missing.count) wrong-key packs")
        }

        #expect(server.child.isRunning, "the server exited: \(server.child.standardError.suffix(4_000))")
        let exit = await server.child.terminate()
        #expect(exit == 0, "the server exited with \(exit) on SIGTERM: \(server.child.standardError.suffix(4_000))")

        let footprint = memory.stop()
        let peak = footprint.highWaterMark
        print(
            "access abuse: server memory peak VmRSS \(ResidentMemory.Report.mebibytes(footprint.peakRSS)), "
                + "VmHWM \(ResidentMemory.Report.mebibytes(peak)) (bound \(Self.residentMemoryBound) MiB), "
                + "\(footprint.samples.count) samples\n\(footprint.timeline)"
        )
        #expect(footprint.samples.count >= 100, "only \(footprint.samples.count) memory samples")
        #expect(peak < Self.residentMemoryBound * 1_024, "the server's peak resident memory is over the bound")

        try await audit(data: server.data, target: target, key: key, authors: authors, ledger: ledger)
        print("access abuse: done in \(ContinuousClock.now - started)")
    }

    /// The stopped server's log: packs only in the honest room, each by an honest peer or one of the
    /// wrong key's; none refused; one room registered; no watermark for a guessed room or the guesser.
    func audit(
        data: URL,
        target: AbuseTarget,
        key: RoomKey,
        authors: Set<ReplicaID>,
        ledger: AbuseLedger
    ) async throws {
        let log = try await PackLogAudit(data: data)
        let refused = ledger.refusedPacks
        let wrongKey = Set(ledger.wrongKeyPacks)
        var stored: Set<PackID> = []
        for pack in log.packs {
            stored.insert(pack.id)
            if let name = refused[pack.id] {
                Issue.record("\(name): its refused pack \(pack.id) is stored at \(pack.position)")
                continue
            }
            #expect(pack.room == target.room, "pack \(pack.id) is stored in \(pack.room)")
            if wrongKey.contains(pack.id) { continue }
            do {
                let opened = try PackCodec.decode(pack.bytes, room: target.room, key: key)
                #expect(authors.contains(opened.author), "pack \(pack.id) is by \(opened.author), not an honest peer")
            } catch {
                Issue.record("stored pack \(pack.id) does not open with the room's key: \(error)")
            }
        }
        #expect(wrongKey.isSubset(of: stored), "the server did not store the packs sealed with another key")
        let registered = log.registeredRooms
        #expect(
            Set(registered) == ledger.mintedRooms.union([target.room]),
            "rooms registered: \(registered.prefix(5)) (\(registered.count))"
        )
        // Blobs: each room within its quota, a file for each blob recorded and nothing else (no upload
        // left half-written), and nothing of the stalled uploads to the honest board.
        var perRoom: [String: Int] = [:]
        var hashes: Set<[UInt8]> = []
        for blob in log.blobs {
            perRoom[blob.room, default: 0] += blob.size
            hashes.insert(blob.hash)
        }
        for (room, bytes) in perRoom {
            #expect(bytes <= AccessAbuse.roomBlobBytes, "room \(room) holds \(bytes) blob bytes")
            #expect(ledger.mintedRooms.contains(room), "blobs are recorded for room \(room)")
        }
        let folder = data.appendingPathComponent("blobs").path
        var files: [String] = []
        let walk = FileManager.default.enumerator(atPath: folder)
        while let name = walk?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder), !isFolder.boolValue
            {
                files.append(name)
            }
        }
        let unfinished = files.filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(unfinished.isEmpty, "files left by unfinished uploads: \(unfinished)")
        #expect(files.count == hashes.count, "\(files.count) blob files for \(hashes.count) blobs recorded")
        let guessed = ledger.guessedRooms
        let guessers = ledger.guessingDevices
        #expect(guessed.count > 8_000)
        for (room, devices) in log.watermarkDevices {
            #expect(!guessed.contains(room) && room == target.room, "a watermark is stored for room \(room)")
            #expect(devices.isDisjoint(with: guessers), "a watermark of the guessing device is stored for \(room)")
        }
        print(
            "access abuse: the log holds \(log.packs.count) packs (\(wrongKey.count) sealed with another key), "
                + "\(registered.count) registered rooms, \(log.blobs.count) blobs, watermarks of \(log.watermarkDevices[target.room]?.count ?? 0) devices"
        )
    }
}
