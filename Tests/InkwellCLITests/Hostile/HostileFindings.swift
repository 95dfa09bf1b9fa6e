import Foundation
import InkwellSync
import InkwellWire
import Testing

/// Problems found by a run, by the case they belong to.
struct HostileFindings {
    /// Problems of each case, by name; "" for those no case explains.
    private(set) var byCase: [String: [String]] = [:]

    mutating func add(_ problem: String, case name: String = "") {
        byCase[name, default: []].append(problem)
    }

    /// Records every problem as an issue: a known issue when its case has a known server bug, which
    /// must then show at least once.
    func record(cases: [HostileCase], sourceLocation: SourceLocation = #_sourceLocation) {
        var seen: Set<String> = []
        for hostile in cases where seen.insert(hostile.name).inserted {
            let problems = byCase[hostile.name] ?? []
            guard let bug = hostile.knownBug else {
                for problem in problems {
                    Issue.record("\(hostile.name): \(problem)", sourceLocation: sourceLocation)
                }
                continue
            }
            withKnownIssue(Comment(rawValue: bug), sourceLocation: sourceLocation) {
                for problem in problems {
                    Issue.record("\(hostile.name): \(problem)", sourceLocation: sourceLocation)
                }
            }
        }
        for (name, problems) in byCase where !seen.contains(name) {
            for problem in problems { Issue.record("\(name): \(problem)", sourceLocation: sourceLocation) }
        }
    }

    /// Adds the problems of how each connection ended, a violation closed later than `closeLimit` among them.
    mutating func add(_ observations: [HostileRun.Observation], closeLimit: Duration = HostileRun.closeLimit) {
        for observation in observations {
            if let problem = HostileRun.problem(with: observation, closeLimit: closeLimit) {
                add("[room \(observation.planned.room)] \(problem)", case: observation.name)
            }
        }
    }

    /// Adds what is wrong with a stopped server's log: anything but packs of changes by `authors` in
    /// `honestRoom`, and watermarks of `devices` there; any pack, device or room a hostile client sent.
    mutating func audit(
        data: URL,
        honestRoom: String?,
        authors: Set<ReplicaID> = [],
        devices honestDevices: Set<ReplicaID> = [],
        ledger: HostileLedger
    ) async throws {
        let audit = try await PackLogAudit(data: data)
        print("hostile clients: the log holds \(audit.packs.count) packs in rooms \(audit.rooms.sorted())")
        let hostilePacks = ledger.packs
        let hostileDevices = ledger.devices
        var explainedRooms: Set<String> = []
        for stored in audit.packs {
            let sender = hostilePacks[stored.id]
            if let sender {
                add("its pack \(stored.id) is stored in room \(stored.room) at \(stored.position)", case: sender)
                explainedRooms.insert(stored.room)
                continue
            }
            if stored.room != honestRoom { add("pack \(stored.id) of no known sender is stored in \(stored.room)") }
            do {
                let pack = try PackCodec.decode(stored.bytes, room: stored.room)
                if pack.id != stored.id { add("pack \(stored.id) is stored under the id of \(pack.id)") }
                for bytes in pack.changes {
                    let change = try ChangeCodec.decode(bytes)
                    if !authors.contains(change.id.replica) {
                        add("pack \(stored.id) holds a change by \(change.id.replica), not an honest peer")
                    }
                }
            } catch {
                add("stored pack \(stored.id) in \(stored.room) does not decode: \(error)")
            }
        }
        if let honestRoom, !audit.rooms.contains(honestRoom) { add("the honest room \(honestRoom) holds no pack") }
        for room in audit.rooms.subtracting([honestRoom].compactMap { $0 }).subtracting(explainedRooms) {
            add("room \(room) exists in the log")
        }
        for (room, devices) in audit.watermarkDevices {
            for device in devices {
                if let sender = hostileDevices[device] {
                    add("a watermark of its device is stored for room \(room)", case: sender)
                } else if room != honestRoom || !honestDevices.contains(device) {
                    add("a watermark of device \(device) is stored for room \(room)")
                }
            }
        }
    }
}
