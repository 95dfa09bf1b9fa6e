import Foundation
import InkwellSync
import InkwellWire

extension AnchorWorkloads {
    /// W5: a new client's initial sync of a corpus of 1,000,000 changes over 10,000 boards (100 rooms of
    /// 100 boards; each board's 100 strokes pushed as one pack by its own author) from a real `inkwell
    /// serve` on loopback. Timed three ways: the socket alone (frames read, packs kept as bytes), the
    /// socket with every change decoded, and `SyncClient` storing everything in a new SQLite store.
    /// The floor: the bytes the sync put on the wire sent raw over a loopback TCP socket (equal bytes),
    /// and, as before, the corpus's encoded changes sent raw.
    ///
    /// The same corpus sealed with a key per room (end-to-end encryption) sits on the same server, and
    /// each path is timed plain and sealed in turn, the order swapped every run: the sealed reader opens
    /// every pack with its room's key, and `SyncClient` holds the keys in its rooms' credentials. No
    /// sealed figure is reported unless every sealed run decoded or stored every change, and a reader
    /// given a wrong key decoded and stored none.
    func w5() async -> [Figure] {
        do {
            return try await measureW5()
        } catch {
            FileHandle.standardError.write(Data("W5 failed: \(error)\n".utf8))
            return [Figure(workload: "W5", figure: "failed", value: 1)]
        }
    }

    private func measureW5() async throws -> [Figure] {
        let corpus = W5Corpus(boards: size(10_000), changes: size(1_000_000))
        let server = try BenchServer()
        defer { server.stop() }
        let seeding = try await ContinuousClock().measure { try await corpus.push(.plain, to: server.url) }
        try await corpus.push(.sealed, to: server.url)
        let wrongKey = try await corpus.wrongKeyCounts(from: server.url)

        var measured: [W5Variant: W5Measured] = [.plain: W5Measured(), .sealed: W5Measured()]
        for run in 0..<runs {
            let order: [W5Variant] = run % 2 == 0 ? [.plain, .sealed] : [.sealed, .plain]
            for variant in order {
                let (read, usage) = try await W5Usage.during(server) {
                    try await corpus.download(from: server.url, rooms: corpus.roomNames(variant), decodingWith: nil)
                }
                guard read.packs == corpus.boards else {
                    throw BenchError("\(variant): read \(read.packs) of \(corpus.boards) packs")
                }
                measured[variant]!.wireBytes = read.bytes
                measured[variant]!.socket.keep(read.seconds, usage)
            }
            for variant in order {
                let (read, usage) = try await W5Usage.during(server) {
                    try await corpus.download(
                        from: server.url,
                        rooms: corpus.roomNames(variant),
                        decodingWith: corpus.keys(variant)
                    )
                }
                guard read.decoded == corpus.changeCount, read.refused == 0 else {
                    throw BenchError(
                        "\(variant): decoded \(read.decoded) of \(corpus.changeCount) changes, \(read.refused) packs refused"
                    )
                }
                measured[variant]!.decoded = read.decoded
                measured[variant]!.decode.keep(read.seconds, usage)
            }
            for variant in order {
                let (client, usage) = try await W5Usage.during(server) {
                    try await corpus.syncClient(
                        from: server.url,
                        rooms: corpus.roomNames(variant),
                        keys: corpus.keys(variant)
                    )
                }
                guard client.stored == corpus.changeCount else {
                    throw BenchError("\(variant): the client stored \(client.stored) of \(corpus.changeCount) changes")
                }
                measured[variant]!.stored = client.stored
                measured[variant]!.store.keep(client.seconds, usage)
            }
            for variant in order {
                let (seconds, changes) = try corpus.openPacks(variant)
                guard changes == corpus.changeCount else {
                    throw BenchError("\(variant): opened \(changes) of \(corpus.changeCount) changes")
                }
                measured[variant]!.open.keep(seconds, W5Usage())
            }
        }
        let plain = measured[.plain]!
        // The floor at equal bytes: what the sync put on the wire (deflated packs), sent raw; and the
        // corpus's encoded changes sent raw, as the earlier figure did.
        var raws: [Double] = []
        var rawWires: [Double] = []
        for _ in 0..<runs {
            raws.append(try RawLoopback.seconds(sending: corpus.bytes))
            rawWires.append(try RawLoopback.seconds(sending: plain.wireBytes))
        }
        let rawSeconds = median(raws)
        let rawWireSeconds = median(rawWires)
        let sealed = measured[.sealed]!
        let megabytes = Double(corpus.bytes) / 1e6
        let changes = Double(corpus.changeCount)
        func figure(_ name: String, _ value: Double) -> Figure { Figure(workload: "W5", figure: name, value: value) }
        // Sealed against plain: the ratio, and what sealing added per change (in µs for times).
        func compared(_ name: String, _ plain: Double, _ sealed: Double, unit: String, scale: Double) -> [Figure] {
            [
                figure("sealed_\(name)_ratio", sealed / plain),
                figure("sealed_\(name)_added_\(unit)_per_change", (sealed - plain) * scale / changes),
            ]
        }
        // Over the runs, the median of sealed / plain of the two timed back to back: a slow spell of the
        // machine that spans a pair slows both, where the best of each may come from different spells.
        func paired(_ name: String, _ plain: [Double], _ sealed: [Double]) -> Figure {
            let ratios = zip(sealed, plain).map { $0 / $1 }.sorted()
            let middle = ratios.count / 2
            let median = ratios.count % 2 == 1 ? ratios[middle] : (ratios[middle - 1] + ratios[middle]) / 2
            return figure("sealed_\(name)_pair_ratio_median", median)
        }
        return [
            figure("boards", Double(corpus.boards)),
            figure("rooms", Double(corpus.rooms)),
            figure("changes", Double(corpus.changeCount)),
            figure("corpus_mb", megabytes),
            figure("wire_mb", Double(plain.wireBytes) / 1e6),
            figure("seed_s", seeding.seconds),
            figure("sync_s", plain.socket.seconds),
            figure("sync_MB_per_s", megabytes / plain.socket.seconds),
            // CPU seconds each side used during that sync (clock ticks of 10 ms): who is the bottleneck.
            figure("sync_server_cpu_s", plain.socket.serverCPU),
            figure("sync_client_cpu_s", plain.socket.clientCPU),
            figure("sync_decode_s", plain.decode.seconds),
            figure("sync_decode_MB_per_s", megabytes / plain.decode.seconds),
            figure("sync_decode_client_cpu_s", plain.decode.clientCPU),
            figure("client_store_s", plain.store.seconds),
            figure("client_store_MB_per_s", megabytes / plain.store.seconds),
            figure("client_store_client_cpu_s", plain.store.clientCPU),
            // Every pack verified and inflated in memory, no socket: this thread's CPU seconds.
            figure("packs_open_cpu_s", plain.open.seconds),
            figure("raw_loopback_s", rawSeconds),
            figure("raw_loopback_MB_per_s", megabytes / rawSeconds),
            figure("sync_percent_of_raw", rawSeconds / plain.socket.seconds * 100),
            // At equal bytes: the wire's bytes sent raw against the sync that read them, and against a
            // new device's whole path (verified, decoded, stored durably in SQLite): the aim is 50 %.
            figure("raw_loopback_wire_s", rawWireSeconds),
            figure("socket_percent_of_raw_at_equal_bytes", rawWireSeconds / plain.socket.seconds * 100),
            figure("store_percent_of_raw_at_equal_bytes", rawWireSeconds / plain.store.seconds * 100),
            // The same, sealed with a key per room.
            figure("sealed_wire_mb", Double(sealed.wireBytes) / 1e6),
            figure("sealed_sync_s", sealed.socket.seconds),
            figure("sealed_sync_server_cpu_s", sealed.socket.serverCPU),
            figure("sealed_sync_client_cpu_s", sealed.socket.clientCPU),
            figure("sealed_sync_decode_s", sealed.decode.seconds),
            figure("sealed_sync_decode_client_cpu_s", sealed.decode.clientCPU),
            figure("sealed_client_store_s", sealed.store.seconds),
            figure("sealed_client_store_client_cpu_s", sealed.store.clientCPU),
            figure("sealed_packs_open_cpu_s", sealed.open.seconds),
            // What makes the sealed figures count: every change opened, and nothing without the key.
            figure("sealed_changes_decoded", Double(sealed.decoded)),
            figure("sealed_changes_stored", Double(sealed.stored)),
            figure("sealed_wrong_key_changes_decoded", Double(wrongKey.decoded)),
            figure("sealed_wrong_key_changes_stored", Double(wrongKey.stored)),
        ]
            + compared("wire", Double(plain.wireBytes), Double(sealed.wireBytes), unit: "bytes", scale: 1)
            + compared("sync", plain.socket.seconds, sealed.socket.seconds, unit: "us", scale: 1e6)
            + compared("sync_decode", plain.decode.seconds, sealed.decode.seconds, unit: "us", scale: 1e6)
            + compared("client_store", plain.store.seconds, sealed.store.seconds, unit: "us", scale: 1e6)
            + compared("packs_open", plain.open.seconds, sealed.open.seconds, unit: "us", scale: 1e6)
            + [
                paired("sync", plain.socket.times, sealed.socket.times),
                paired("sync_decode", plain.decode.times, sealed.decode.times),
                paired("client_store", plain.store.times, sealed.store.times),
                // The client's CPU alone: SQLite's waits for the disk and other processes' turns left out.
                paired("client_store_client_cpu", plain.store.clientCPUs, sealed.store.clientCPUs),
                paired("packs_open", plain.open.times, sealed.open.times),
            ]
    }
}

/// The CPU seconds the server and this process used during one timed run.
private struct W5Usage {
    var server = 0.0
    var client = 0.0

    /// `body`'s result, with what each side used while it ran (clock ticks of 10 ms).
    static func during<Result>(
        _ server: BenchServer,
        _ body: () async throws -> Result
    ) async rethrows -> (Result, W5Usage) {
        let pid = server.process.processIdentifier
        let serverBefore = ProcessUsage.cpuSeconds(of: pid) ?? 0
        let clientBefore = ProcessUsage.ownCPUSeconds()
        let result = try await body()
        let usage = W5Usage(
            server: (ProcessUsage.cpuSeconds(of: pid) ?? 0) - serverBefore,
            client: ProcessUsage.ownCPUSeconds() - clientBefore
        )
        return (result, usage)
    }
}

/// A path's runs in order, and the fastest, with the CPU each side used during it.
private struct W5Runs {
    var times: [Double] = []
    var clientCPUs: [Double] = []
    var seconds = Double.infinity
    var serverCPU = 0.0
    var clientCPU = 0.0

    mutating func keep(_ seconds: Double, _ usage: W5Usage) {
        times.append(seconds)
        clientCPUs.append(usage.client)
        guard seconds < self.seconds else { return }
        (self.seconds, serverCPU, clientCPU) = (seconds, usage.server, usage.client)
    }
}

/// What one form of the corpus measured, over the runs.
private struct W5Measured {
    var wireBytes = 0
    var socket = W5Runs()
    var decode = W5Runs()
    var store = W5Runs()
    /// In this thread's CPU seconds.
    var open = W5Runs()
    var decoded = 0
    var stored = 0
}

extension W5Corpus {
    /// One sealed room read by a device holding another key for it: by the socket with every pack
    /// decoded, and by `SyncClient`. Both must come to nothing (every pack refused, no change stored),
    /// or the sealed runs could have passed without the key doing anything.
    func wrongKeyCounts(from url: String) async throws -> (decoded: Int, stored: Int) {
        let room = Self.roomName(0, .sealed)
        var random = SplitMix64(seed: 17)
        let wrong = [room: RoomKey.generate(using: &random)]
        let read = try await download(from: url, rooms: [room], decodingWith: wrong)
        let client = try await syncClient(from: url, rooms: [room], keys: wrong)
        guard read.packs > 0, read.refused == read.packs, read.decoded == 0, client.stored == 0 else {
            throw BenchError(
                "a wrong key: \(read.decoded) changes decoded (\(read.refused) of \(read.packs) packs refused), \(client.stored) stored"
            )
        }
        return (read.decoded, client.stored)
    }

    /// Every pack of `variant` in memory, no socket: verified, opened with its room's key when sealed,
    /// inflated and split into its changes, in this thread's CPU seconds.
    ///
    /// - Returns: the time, and the changes the packs held.
    func openPacks(_ variant: W5Variant) throws -> (seconds: Double, changes: Int) {
        let keys = keys(variant)
        let packs = packs(variant)
        var changes = 0
        let start = threadCPUSeconds()
        for (room, pack) in packs { changes += try PackCodec.decode(pack, room: room, key: keys[room]).changes.count }
        return (threadCPUSeconds() - start, changes)
    }
}

/// The CPU seconds this thread has used.
private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}
