/// Runs a connection's rare, deep work (authorizing a room, reading a catch-up from the log) in a
/// child task, so that the memory it needs is given back when it ends.
///
/// The concurrency runtime's task allocator keeps every slab a task has grown until the task ends. A
/// connection's reader and writer live as long as the connection, so a subscription's database reads,
/// awaited on them directly, held about 20 KiB per connection from then on, idle or not
/// (BENCHMARKS.md, "Big rooms and idle crowds"). A child task's slabs are freed with it. Only for
/// what a connection does now and then: each call costs a task and a hop to the executor.
func inChildTask<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) async -> Value {
    await withTaskGroup(of: Value.self) { group in
        group.addTask(operation: body)
        guard let value = await group.next() else { preconditionFailure("a task group lost its only child") }
        return value
    }
}

/// ``inChildTask(_:)`` for work that throws.
func inChildTask<Value: Sendable>(
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask(operation: body)
        guard let value = try await group.next() else { preconditionFailure("a task group lost its only child") }
        return value
    }
}
