import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellTesting

/// The board as a store holds it: what every replica must agree on.
func boardState(_ store: Store, room: String, board: String = "main") throws -> BoardState {
    var state = BoardState(board: BoardID(board))
    for change in try store.changes(room: room, document: board) { state.apply(try change.decoded(as: BoardEdit.self)) }
    return state
}

/// The board made of exactly `changes`, applied in the order given.
func referenceState(_ changes: [BoardChange], board: String = "main") -> BoardState {
    var state = BoardState(board: BoardID(board))
    state.apply(contentsOf: changes)
    return state
}

/// Fast reconnection and a printed seed for the jitter.
func endToEndConfiguration(seed: UInt64) -> SyncClient.Configuration {
    SyncClient.Configuration(
        backoff: Backoff(minimum: .milliseconds(20), maximum: .milliseconds(500)),
        randomSeed: seed
    )
}

/// Polls `condition` until it holds; fails with `what` after `timeout`.
func eventually(
    _ what: String,
    timeout: Duration = .seconds(60),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw ChildProcess.Failure("timed out: \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// Runs `body` while `clients` run, then stops them and waits for their `run()` to return.
func whileRunning(_ clients: [SyncClient], _ body: () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients { group.addTask { try await client.run() } }
        do {
            try await body()
        } catch {
            for client in clients { await client.stop() }
            throw error
        }
        for client in clients { await client.stop() }
        try await group.waitForAll()
    }
}

/// Runs `body` with a server, and stops the server afterwards whatever happened.
func withServer<T>(
    data: URL,
    port: Int = 0,
    openRooms: Bool = true,
    _ body: (ServerProcess) async throws -> T
) async throws -> T {
    let server = try await ServerProcess.start(data: data, port: port, openRooms: openRooms)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
