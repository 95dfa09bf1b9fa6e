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
/// of every task started for it; child tasks and actors without an executor of their own inherit it.
/// A crash kills the executor: the process's tasks are cancelled, and what they still run reaches
/// nothing (its network refuses it, its files are closed), as a process that lost power does nothing
/// more; run down, they free their memory, so a long run of seeds does not grow. A job enqueued from
/// another thread would make the run depend on that thread's timing: it is counted, and the run fails.
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

        /// The tasks started for the process, which a crash cancels.
        private let roots = Mutex<[Task<Void, Never>]>([])

        var isDead: Bool { dead.load(ordering: .relaxed) }

        /// Starts one of the process's own tasks on this executor.
        func start(_ operation: sending @escaping @isolated(any) () async -> Void) {
            let task = Task(executorPreference: self, operation: operation)
            roots.withLock { $0.append(task) }
        }

        fileprivate func kill() {
            dead.store(true, ordering: .relaxed)
            for task in roots.withLock({ $0 }) { task.cancel() }
        }

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

    /// The process is gone: its tasks are cancelled, and run down with nothing reaching the world (what
    /// they hold refuses them: the simulation's network, closed files), so that their memory goes too.
    func kill(_ executor: ProcessExecutor) {
        executor.kill()
    }

    private func enqueue(_ job: UnownedJob, on executor: ProcessExecutor) {
        let foreign = !isOnSimulationThread
        state.withLock { state in
            if foreign { state.foreignJobs += 1 }
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
