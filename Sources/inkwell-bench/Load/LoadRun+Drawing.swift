import InkwellBoard
import InkwellClient
import InkwellGeometry
import InkwellSync
import InkwellWire
import Synchronization

extension LoadRun {
    /// Draws until the run stops drawing: every presence interval a few more points of the stroke as
    /// presence (cursor and ink), and at the end of each stroke its `addStroke` change as a pushed pack.
    func draw(on socket: LoadSocket, as member: LoadMember) async -> MemberStats {
        let start = await drawingStarts.value
        guard member.isLive.load(ordering: .acquiring) else { return MemberStats() }
        var stats = MemberStats()
        var pen = LoadPen(seed: member.seed)
        let interval = configuration.presenceInterval
        let framesPerStroke = configuration.framesPerStroke
        // Drawers start at random points of a stroke, so pushes spread evenly over time.
        let offset = interval * Double(framesPerStroke) * pen.draw(in: 0...1)
        let palette: [UInt32] = [0x1F1F_1FFF, 0xD7263DFF, 0x1B998BFF, 0x2E86ABFF, 0xF46036FF]
        let style = StrokeStyle(colour: Colour(rgba: palette[member.index % palette.count]), width: 3)
        let name = "load \(member.index)"
        let wall = SystemWallClock()
        var clock = HybridLogicalClock()
        var points: [Point] = []
        var steps: [UInt8] = []
        var seq: UInt64 = 0
        var tick = 0
        while true {
            let scheduled = start + offset + interval * tick
            try? await Task.sleep(until: scheduled, clock: .continuous)
            tick += 1
            let phase = recorder.phase
            guard phase < .draining else { break }
            if phase == .measuring { stats.lateness.record(ContinuousClock.now - scheduled) }
            for _ in 0..<configuration.pointsPerFrame {
                let next = pen.next()
                points.append(next.point)
                steps.append(next.pressureStep)
            }
            let ink = InkCodec.encode(points, pressures: steps.map { Float($0) / 255 })
            let cursor = points[points.count - 1]
            let presence = SyncCodec.encode(
                ClientMessage.presence(
                    Presence(
                        room: member.room,
                        device: member.device,
                        name: name,
                        colour: style.colour.rgba,
                        cursor: (cursor.x, cursor.y),
                        ink: (board: "main", colour: style.colour.rgba, width: style.width, points: ink)
                    )
                )
            )
            let measured = recorder.sendingPresence(room: member.roomIndex)
            let sentAt = ContinuousClock.now
            member.sentPresence.withLock {
                $0.append(
                    .init(cursorX: cursor.x, cursorY: cursor.y, inkBytes: ink.count, sentAt: sentAt, measured: measured)
                )
            }
            do {
                try socket.send(presence)
            } catch {
                stats.sendFailures += 1
                break
            }
            stats.presenceSent += 1
            guard tick % framesPerStroke == 0 else { continue }
            // The pen lifts: the stroke becomes a change, pushed as a pack of its own.
            seq += 1
            let id = ChangeID(replica: member.device, seq: seq)
            let change = BoardChange(
                id: id,
                stamp: clock.next(wallMilliseconds: wall.millisecondsSince1970()),
                payload: BoardEdit(
                    board: "main",
                    operations: [.addStroke(style, points: points, pressures: steps.map { Float($0) / 255 })]
                )
            )
            let bytes = PackCodec.encode(
                Pack(room: member.room, changes: [ChangeCodec.encode(change)]),
                signedBy: member.key
            )
            let pack = PackID(of: bytes)
            let push = SyncCodec.encode(.push(room: member.room, pack: bytes))
            recorder.pushing(pack, room: member.roomIndex, at: .now)
            do {
                try socket.send(push)
            } catch {
                stats.sendFailures += 1
                break
            }
            stats.pushesSent += 1
            points.removeAll(keepingCapacity: true)
            steps.removeAll(keepingCapacity: true)
            pen.lift()
        }
        return stats
    }
}
