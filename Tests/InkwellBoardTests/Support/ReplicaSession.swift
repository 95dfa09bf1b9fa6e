import InkwellBoard
import InkwellSync

/// Replicas that each draw on their own view of the board and hear one another's changes late.
struct ReplicaSession {
    var authors: [Author]
    var views: [BoardModel]
    /// Changes each replica has not heard yet.
    var inboxes: [[BoardChange]]
    /// Every change made, in the order made.
    var changes: [BoardChange] = []

    init(replicas: Int, using generator: inout some RandomNumberGenerator) {
        authors = (1...replicas).map { Author(UInt64(20 + $0)) }
        views = Array(repeating: BoardModel(), count: replicas)
        inboxes = Array(repeating: [], count: replicas)
    }

    mutating func run(steps: Int, using generator: inout some RandomNumberGenerator) {
        for _ in 0..<steps {
            let index = Int.random(in: 0..<authors.count, using: &generator)
            // Hear some of what the others made; a replica now and then stays away for a while.
            if Int.random(in: 0..<4, using: &generator) != 0 {
                let heard = Int.random(in: 0...inboxes[index].count, using: &generator)
                for change in inboxes[index].prefix(heard) {
                    authors[index].saw(change)
                    views[index].apply(change)
                }
                inboxes[index].removeFirst(heard)
            }
            let position = OpStamp(
                stamp: .zero,
                change: ChangeID(replica: authors[index].replica, seq: authors[index].seq + 1)
            )
            let edit = views[index].randomOperation(at: position, using: &generator)
            let change = authors[index].change(edit.operations)
            views[index].apply(change)
            changes.append(change)
            for other in authors.indices where other != index { inboxes[other].append(change) }
        }
    }

    /// A random prefix of every timeline, each at least as far as `floor`'s.
    func randomCut(
        atLeast floor: VersionVector = VersionVector(),
        using generator: inout some RandomNumberGenerator
    )
        -> VersionVector
    {
        VersionVector(
            Dictionary(
                uniqueKeysWithValues: authors.map { author in
                    (author.replica, UInt64.random(in: floor[author.replica]...author.seq, using: &generator))
                }
            )
        )
    }
}
