import Foundation
import InkwellSync
import Synchronization

/// A process of the simulation.
enum SimulatedNode: Hashable, Sendable, CustomStringConvertible {
    case server
    case client(Int)

    var description: String {
        switch self {
        case .server: "the server"
        case .client(let index): "client \(index)"
        }
    }
}

/// Runs every task of the simulated processes on the simulation's thread, one job at a time, in an
/// order the seed picks: the server's connections and committer, each `SyncClient`'s actor, its
/// connection's tasks and its timers all run here, so a seed is a run, job for job.
///
/// Each process has an executor of its own (``ProcessExecutor``), given as the task executor preference
/// of every task started for it; child tasks and actors without an executor of their own inherit it. A crash kills the executor: its waiting jobs are dropped and later ones never
/// run, as a process that lost power runs nothing more. A job enqueued from another thread would make
/// the run depend on that thread's timing: it is counted, and the run fails for it.
final class SimulationScheduler: Sendable {
    /// One device process's executor.
    final class ProcessExecutor: TaskExecutor {
        /// The process it runs.
        let node: SimulatedNode
        private unowned let scheduler: SimulationScheduler
        private let dead = Atomic<Bool>(false)

        fileprivate init(node: SimulatedNode, scheduler: SimulationScheduler) {
            self.node = node
            self.scheduler = scheduler
        }

        var isDead: Bool { dead.load(ordering: .relaxed) }

        fileprivate func kill() { dead.store(true, ordering: .relaxed) }

        func enqueue(_ job: consuming ExecutorJob) {
            scheduler.enqueue(UnownedJob(job), on: self)
        }
    }

    private struct Ready {
        let job: UnownedJob
        let executor: ProcessExecutor
    }

    private struct State {
        var ready: [Ready] = []
        var order: SplitMix64
        var foreignJobs = 0
    }

    private let state: Mutex<State>
    private let thread = pthread_self()

    init(seed: UInt64) {
        state = Mutex(State(order: SplitMix64(seed: seed)))
    }

    /// Jobs enqueued from a thread other than the simulation's.
    var foreignJobs: Int { state.withLock(\.foreignJobs) }

    var isOnSimulationThread: Bool { pthread_equal(pthread_self(), thread) != 0 }

    func makeExecutor(for node: SimulatedNode) -> ProcessExecutor {
        ProcessExecutor(node: node, scheduler: self)
    }

    /// The process is gone: its jobs are dropped, now and from now on.
    func kill(_ executor: ProcessExecutor) {
        executor.kill()
        state.withLock { $0.ready.removeAll { $0.executor === executor } }
    }

    private func enqueue(_ job: UnownedJob, on executor: ProcessExecutor) {
        let foreign = !isOnSimulationThread
        state.withLock { state in
            if foreign { state.foreignJobs += 1 }
            guard !executor.isDead else { return }
            state.ready.append(Ready(job: job, executor: executor))
        }
    }

    /// Runs one ready job, picked by the seed among all processes' ready jobs (any order is one a
    /// multi-threaded executor could run them in). Returns the executor it ran on, or `nil` when no job
    /// is ready.
    func runOne() -> ProcessExecutor? {
        precondition(isOnSimulationThread, "the simulation's jobs run on its own thread")
        let next = state.withLock { state -> Ready? in
            guard !state.ready.isEmpty else { return nil }
            let index = Int.random(in: 0..<state.ready.count, using: &state.order)
            state.ready.swapAt(index, state.ready.count - 1)
            return state.ready.removeLast()
        }
        guard let next else { return nil }
        next.job.runSynchronously(on: next.executor.asUnownedTaskExecutor())
        return next.executor
    }
}
