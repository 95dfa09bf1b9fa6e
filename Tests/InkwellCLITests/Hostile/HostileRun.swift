import Foundation
import InkwellTesting
import Synchronization

/// Runs hostile connections on threads of their own (their socket calls block, so they must not sit
/// on Swift's cooperative pool) and collects how each one ended.
enum HostileRun {
    /// One connection to make.
    struct Planned: Sendable {
        let hostile: HostileCase
        let room: String
        let seed: UInt64
        /// When it starts, after the run starts.
        let delay: Duration
        /// Whether it answers the server's close frame (an honest peer does; a hostile one may not).
        let answersClose: Bool
    }

    /// What happened to one connection.
    struct Observation: Sendable {
        let planned: Planned
        /// How the server ended it, or why the attack could not even be made.
        let ending: Result<RawWebSocket.Ending, SetupFailure>

        var name: String { planned.hostile.name }
    }

    struct SetupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The longest a violation may take to be closed on a quiet server (the server's close timeout,
    /// 500 ms, for a peer that does not answer, and as long again to find the violation and write the
    /// close), and how long a connection is watched for it.
    static let closeLimit: Duration = .seconds(1)
    /// The same while honest peers draw and dozens of hostile connections start at once, all on the
    /// server's two cores: finding a violation waits its turn on a busy machine, and has taken up to
    /// 964 ms there. A server that never drops the socket is still caught, by ``watchLimit``.
    static let closeLimitUnderLoad: Duration = .milliseconds(1_500)
    static let watchLimit: Duration = .seconds(3)
    /// The header and hello deadlines (ServerLimits.headerTimeout and helloTimeout, both 5 s) plus the
    /// same second.
    static let deadlineLimit: Duration = .seconds(6)

    /// Runs every planned connection, concurrently, and returns when all have ended.
    static func run(_ plan: [Planned], port: Int, ledger: HostileLedger) async -> [Observation] {
        let observations = Collected()
        let group = DispatchGroup()
        for planned in plan {
            group.enter()
            let thread = Thread {
                Thread.sleep(forTimeInterval: Double(planned.delay.wholeMilliseconds) / 1_000)
                let observation = perform(planned, port: port, ledger: ledger)
                observations.items.withLock { $0.append(observation) }
                group.leave()
            }
            thread.start()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return observations.items.withLock { $0 }
    }

    private final class Collected: Sendable {
        let items = Mutex<[Observation]>([])
    }

    /// Makes one connection's attack and watches how it ends.
    static func perform(_ planned: Planned, port: Int, ledger: HostileLedger) -> Observation {
        var context = HostileContext(
            name: planned.hostile.name,
            port: port,
            room: planned.room,
            seed: planned.seed,
            ledger: ledger
        )
        do {
            let attack = try planned.hostile.attack(&context)
            defer { attack.socket.socket.close() }
            let ending = attack.socket.awaitEnding(
                since: attack.sentAt,
                limit: planned.hostile.waitsForDeadline ? deadlineLimit + .seconds(2) : watchLimit,
                answeringClose: planned.answersClose
            )
            return Observation(planned: planned, ending: .success(ending))
        } catch {
            return Observation(planned: planned, ending: .failure(SetupFailure(description: "\(error)")))
        }
    }

    /// What is wrong with how a connection ended, or nil if the server did as documented.
    static func problem(with observation: Observation, closeLimit: Duration = closeLimit) -> String? {
        let hostile = observation.planned.hostile
        let ending: RawWebSocket.Ending
        switch observation.ending {
        case .failure(let failure): return "could not make the attack: \(failure)"
        case .success(let value): ending = value
        }
        let limit = hostile.waitsForDeadline ? deadlineLimit : closeLimit
        guard let closedAfter = ending.closedAfter else {
            return
                "not closed within \(hostile.waitsForDeadline ? deadlineLimit + .seconds(2) : watchLimit) (\(ending))"
        }
        if closedAfter > limit { return "closed after \(closedAfter.wholeMilliseconds) ms, over \(limit) (\(ending))" }
        if !hostile.expected.isEmpty {
            guard let code = ending.closeCode, hostile.expected.contains(code) else {
                return "expected close code \(hostile.expected.sorted()), got \(ending)"
            }
        }
        return nil
    }
}
