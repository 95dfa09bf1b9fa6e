import InkwellClient
import InkwellWire
import NIOCore
import NIOPosix
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
        let socket: LoadSocket
        let ended = Once<LoadReceiver.Ending>()
        do {
            socket = try await LoadSocket.connect(
                url: configuration.url(for: member),
                group: MultiThreadedEventLoopGroup.singleton
            ) { loop in
                let promise = loop.makePromise(of: LoadReceiver.Ending.self)
                promise.futureResult.whenSuccess { ended.resolve($0) }
                return LoadReceiver(run: self, member: member, ended: promise)
            }
        } catch {
            return failed(member, stats, error: "\(error)")
        }
        recorder.openedMembers.add(1, ordering: .relaxed)
        stats.connected = true
        do {
            try socket.send(
                SyncCodec.encode(
                    .hello(
                        protocolVersion: SyncProtocol.version,
                        minimumProtocolVersion: SyncProtocol.minimumVersion,
                        device: member.device,
                        agent: "inkwell-load/1"
                    )
                )
            )
            try socket.send(SyncCodec.encode(.subscribe(room: member.room, after: 0, capability: "")))
        } catch {
            await socket.close()
            return failed(member, stats, error: "\(error)")
        }
        return await withTaskGroup(of: MemberStats.self) { group in
            group.addTask { await ended.value.stats }
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
}
