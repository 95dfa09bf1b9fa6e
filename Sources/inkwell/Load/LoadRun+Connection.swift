import InkwellClient
import InkwellWire
import Synchronization

extension LoadRun {
    /// One member from connect to close: waits for its turn, says hello, subscribes, reads until the
    /// socket ends, draws if it is a drawer, and closes when the run does.
    func serve(_ member: LoadMember) async -> MemberStats {
        var stats = MemberStats()
        guard await member.admitted.value else {
            stats.connectError = "not connected: the run gave up waiting for earlier connections"
            return stats
        }
        let socket: SyncSocket
        do {
            socket = try await SyncSocket.connect(url: configuration.url, logger: logger)
        } catch {
            return failed(member, stats, error: "\(error)")
        }
        recorder.openedMembers.add(1, ordering: .relaxed)
        stats.connected = true
        do {
            try await socket.send(
                raw: SyncCodec.encode(
                    .hello(
                        protocolVersion: SyncProtocol.version,
                        minimumProtocolVersion: SyncProtocol.minimumVersion,
                        device: member.device,
                        agent: "inkwell-load/1"
                    )
                )
            )
            try await socket.send(raw: SyncCodec.encode(.subscribe(room: member.room, after: 0)))
        } catch {
            await socket.close()
            return failed(member, stats, error: "\(error)")
        }
        return await withTaskGroup(of: MemberStats.self) { group in
            group.addTask { await self.read(socket, as: member) }
            if member.drawer {
                group.addTask { await self.draw(on: socket, as: member) }
            }
            group.addTask {
                _ = await self.closing.value
                await socket.close()
                return MemberStats()
            }
            for await part in group { stats.merge(part) }
            return stats
        }
    }

    private func failed(_ member: LoadMember, _ stats: MemberStats, error: String) -> MemberStats {
        var stats = stats
        stats.connectError = error
        member.settle(.failed)
        recorder.failedMembers.add(1, ordering: .relaxed)
        return stats
    }

    /// Reads what the server sends until the socket ends, timing every pack, ack and presence.
    private func read(_ socket: SyncSocket, as member: LoadMember) async -> MemberStats {
        var stats = MemberStats()
        var progressFrames = 0
        do {
            for try await message in socket.messages {
                let now = ContinuousClock.now
                stats.framesReceived += 1
                switch message {
                case .packs(_, let packs, _):
                    if packs.count > 1 { stats.coalescedFrames += 1 }
                    for pack in packs {
                        guard let id = try? PackCodec.header(of: pack.bytes).id else { continue }
                        if let latency = recorder.received(id, at: now) { stats.remote.record(latency) }
                    }
                case .ack(_, let pack, _):
                    if let latency = recorder.acknowledged(pack, at: now) { stats.ack.record(latency) }
                case .presence(let presence):
                    received(presence, at: now, into: &stats)
                case .presences(let presences):
                    stats.presenceBatches += 1
                    for presence in presences { received(presence, at: now, into: &stats) }
                case .progress(let room, _, _, _):
                    // The first progress opens the catch-up, the second says it is done.
                    guard room == member.room else { break }
                    progressFrames += 1
                    if progressFrames == 2 {
                        stats.live = true
                        member.isLive.store(true, ordering: .releasing)
                        member.settle(.live)
                        recorder.becameLive(room: member.roomIndex)
                    }
                case .welcome:
                    break
                case .error(let code, let message, let fatal, _):
                    stats.errorFrames += 1
                    if stats.firstError == nil {
                        stats.firstError = "error \(code)\(fatal ? ", fatal" : ""): \(message)"
                    }
                }
            }
        } catch {
            if stats.firstError == nil { stats.firstError = "connection failed: \(error)" }
        }
        if stats.live {
            member.isLive.store(false, ordering: .releasing)
            recorder.left(room: member.roomIndex)
        } else {
            member.settle(.failed)
            recorder.failedMembers.add(1, ordering: .relaxed)
        }
        if recorder.phase < .closing {
            let closure = await socket.closure
            stats.unexpectedCloses = 1
            stats.unexpectedClose = "code \(closure.code.map { "\($0)" } ?? "none"): \(closure.reason ?? "")"
        }
        return stats
    }

    /// Times a presence frame against the frame its sender logged.
    private func received(_ presence: Presence, at now: ContinuousClock.Instant, into stats: inout MemberStats) {
        guard let cursor = presence.cursor, let ink = presence.ink, let sender = senders[presence.device] else {
            return
        }
        let sent = members[sender].sentPresence.withLock {
            $0.find(cursorX: cursor.x, cursorY: cursor.y, inkBytes: ink.points.count)
        }
        guard let sent else {
            if recorder.phase == .measuring { stats.presenceUnmatched += 1 }
            return
        }
        guard sent.measured else { return }
        stats.presenceReceipts += 1
        stats.presence.record(now - sent.sentAt)
    }
}
