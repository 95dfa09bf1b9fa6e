import Logging
import Synchronization

extension PackLog {
    /// The fault that stopped the log, if one has: from then on every commit is refused with it, without
    /// touching the file, until the server restarts. Reads go on while they succeed.
    ///
    /// Fail-stop rather than retry: after a failed `fsync` the kernel may have dropped the pages it could
    /// not write and report the next `fsync` as a success, so a later commit that seems to succeed proves
    /// nothing about the earlier ones. An operator frees the space or replaces the disk, then restarts.
    public var fault: StorageFault? { failure.withLock { $0 } }

    /// Runs a commit, unless the log has failed; an error from it fails the log (cancellation aside).
    func committing<Value>(_ commit: () throws -> Value) throws -> Value {
        if let fault { throw fault }
        do {
            return try commit()
        } catch {
            throw record(error, committing: true)
        }
    }

    /// ``committing(_:)-(()->Value)`` for a commit that does not block the caller's thread.
    func committing<Value>(_ commit: () async throws -> Value) async throws -> Value {
        if let fault { throw fault }
        do {
            return try await commit()
        } catch {
            throw record(error, committing: true)
        }
    }

    /// Runs a read; an error that says the file cannot be read fails the log.
    func reading<Value>(_ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch {
            throw record(error, committing: false)
        }
    }

    /// ``reading(_:)-(()->Value)`` for a read that does not block the caller's thread.
    func reading<Value>(_ read: () async throws -> Value) async throws -> Value {
        do {
            return try await read()
        } catch {
            throw record(error, committing: false)
        }
    }

    /// Counts a storage error and, if it is the first fault, stops the log and logs why.
    ///
    /// - Returns: what to throw: the fault, or `error` itself when it is no fault (a cancelled access).
    private func record(_ error: any Error, committing: Bool) -> any Error {
        guard let fault = StorageFault(error, committing: committing) else { return error }
        metrics?.storageError(fault.kind)
        let first = failure.withLock { failure in
            guard failure == nil else { return false }
            failure = fault
            return true
        }
        if first {
            metrics?.storageStopped()
            logger.critical(
                "the pack log has failed: no more pushes are stored until the server restarts",
                metadata: ["reason": "\(fault.reason)", "error": "\(error)"]
            )
        }
        return fault
    }
}
