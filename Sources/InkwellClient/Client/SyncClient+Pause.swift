public import InkwellStore
import InkwellSync

extension SyncClient {
    /// Keeps the local changes of a document queued instead of pushing them, until
    /// ``resumeSending(room:document:)``. Nothing is lost: they stay in the outbox, on disk.
    ///
    /// A timeline is pushed in order, so a change of another document made after a held one waits
    /// behind it too: the server never sees a timeline with a hole this device made.
    public func pauseSending(room: String, document: String) {
        pausedSending.insert(DocumentKey(room: room, document: document))
        publishProgress()
    }

    /// Pushes the document's queued changes again.
    public func resumeSending(room: String, document: String) {
        guard pausedSending.remove(DocumentKey(room: room, document: document)) != nil else { return }
        publishProgress()
        perform(session.outboxChanged())
    }

    /// The documents whose sending is paused.
    public var documentsPausedForSending: Set<DocumentKey> { pausedSending }

    /// The queued changes that may go now: each timeline up to its first change of a paused document.
    static func sendable(_ outbox: [StoredChange], paused: Set<DocumentKey>) -> [StoredChange] {
        guard !paused.isEmpty else { return outbox }
        var held: Set<TimelineKey> = []
        return outbox.filter { change in
            let timeline = TimelineKey(room: change.room, replica: change.id.replica)
            guard !held.contains(timeline) else { return false }
            if paused.contains(DocumentKey(room: change.room, document: change.document)) {
                held.insert(timeline)
                return false
            }
            return true
        }
    }

    private struct TimelineKey: Hashable {
        let room: String
        let replica: ReplicaID
    }
}
