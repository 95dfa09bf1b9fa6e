public import InkwellSync

/// Keeps snapshots fresh in the background, away from the path of the edits that grow tails: after
/// commits, documents whose tail has grown long get a new snapshot; every
/// ``SnapshotPolicy/sweepInterval``, so do documents whose tail has aged, since commits alone never wake
/// a document nobody edits any more.
///
/// Given the app's document types, its snapshots leave out the changes their rules call inert, so the
/// store follows what still matters, not the whole history (``Store/snapshotIfNeeded(room:document:policy:types:)``).
public struct SnapshotWriter: Sendable {
    public let store: Store
    public let policy: SnapshotPolicy
    public let types: DocumentTypes?

    public init(store: Store, policy: SnapshotPolicy = SnapshotPolicy(), types: DocumentTypes? = nil) {
        self.store = store
        self.policy = policy
        self.types = types
    }

    /// Runs until the task is cancelled. A failed snapshot loses nothing (the changes stay stored)
    /// and is reported to `failed`, then tried again after later commits or at a later sweep.
    public func run(failed: @escaping @Sendable (DocumentKey, any Error) -> Void = { _, _ in }) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await followCommits(failed: failed) }
            group.addTask { await sweepEvery(failed: failed) }
        }
    }

    /// Looks once at the documents whose tails may be due and writes the snapshots that are.
    ///
    /// - Returns: the documents that got a new snapshot.
    /// - Throws: ``StoreError`` when the documents with tails cannot be listed.
    /// - Complexity: O(documents with a tail), plus the snapshots written.
    @discardableResult
    public func sweep(failed: (DocumentKey, any Error) -> Void = { _, _ in }) throws -> [DocumentKey] {
        try store.documentsWithDueTails(policy: policy).filter { key in
            do {
                return try store.snapshotIfNeeded(room: key.room, document: key.document, policy: policy, types: types)
            } catch {
                failed(key, error)
                return false
            }
        }
    }

    private func followCommits(failed: @Sendable (DocumentKey, any Error) -> Void) async {
        // Reading a document's rows costs O(tail): look again only after a tenth of the threshold of commits.
        let checkEvery = max(policy.tailThreshold / 10, 1)
        var commitsSinceCheck: [DocumentKey: Int] = [:]
        for await notification in store.notifications() {
            for key in notification.documents.sorted(by: { ($0.room, $0.document) < ($1.room, $1.document) }) {
                commitsSinceCheck[key, default: 0] += 1
                guard commitsSinceCheck[key]! >= checkEvery else { continue }
                commitsSinceCheck[key] = 0
                do {
                    try store.snapshotIfNeeded(room: key.room, document: key.document, policy: policy, types: types)
                } catch {
                    failed(key, error)
                }
            }
        }
    }

    private func sweepEvery(failed: @Sendable (DocumentKey, any Error) -> Void) async {
        while !Task.isCancelled {
            // A store that cannot be read now is read again at the next sweep.
            _ = try? sweep(failed: failed)
            do {
                try await Task.sleep(for: policy.sweepInterval)
            } catch {
                return
            }
        }
    }
}
