import InkwellSync

/// A document a replica holds in memory, with its changes not yet applied and its subscribers.
/// Confined to the replica's actor.
protocol AnyLiveDocument: AnyObject {
    var type: DocumentType { get }
    var mode: IncomingMode { get set }
    var arrivals: Arrivals { get }
    /// Applies what can be read of `changes`, or holds them when the mode says so.
    func take(_ changes: [EncodedChange], origin: LiveOrigin)
    /// Applies everything held, as one batch.
    func release(origin: LiveOrigin)
    func finish()
}

/// Where a batch handed to a live document came from.
enum LiveOrigin {
    case local, remote, accepted
}

/// The live state of one document of type `Document`.
final class LiveDocument<Document: ReplicatedDocument>: AnyLiveDocument {
    let room: String
    let name: String
    private(set) var state: Document
    var mode: IncomingMode = .live
    /// Changes received while paused or held, in arrival order.
    private var waiting: [EncodedChange] = []
    private(set) var arrivals = Arrivals()
    let updates = Broadcaster<DocumentUpdate<Document>>(buffering: .unbounded)

    init(room: String, name: String, state: Document) {
        self.room = room
        self.name = name
        self.state = state
    }

    var type: DocumentType { Document.Edit.documentType }

    func take(_ changes: [EncodedChange], origin: LiveOrigin) {
        guard origin == .local || mode == .live else {
            waiting += changes
            if mode == .held { for change in changes { arrivals.add(change) } }
            return
        }
        apply(changes, origin: origin)
    }

    func release(origin: LiveOrigin) {
        let released = waiting
        waiting = []
        arrivals = Arrivals()
        apply(released, origin: origin)
    }

    private func apply(_ changes: [EncodedChange], origin: LiveOrigin) {
        // A change of a schema newer than this version reads stays stored, for a version that does.
        let typed = changes.compactMap { $0.decoded(as: Document.Edit.self) }
        guard !typed.isEmpty else { return }
        let delta = state.apply(contentsOf: typed)
        let updateOrigin: DocumentUpdate<Document>.Origin =
            switch origin {
            case .local: .local
            case .remote: .remote
            case .accepted: .accepted
            }
        updates.send(
            DocumentUpdate(
                room: room,
                document: name,
                origin: updateOrigin,
                changes: typed.map(\.id),
                delta: delta,
                state: state
            )
        )
    }

    func finish() {
        updates.finish()
    }
}
