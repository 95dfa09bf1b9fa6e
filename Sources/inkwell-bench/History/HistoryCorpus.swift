import Foundation
import InkwellBoard
import InkwellGeometry
import InkwellSync
import InkwellWire

/// One busy board's history: `changes` anchor-style strokes (W5's random walks on the ink grid) by
/// `authors` devices taking turns, each author's changes packed `perPack` at a time as its outbox
/// pushes them, in the order they were drawn.
///
/// With `deleting` above 0, that share of the changes instead deletes one of the author's own strokes
/// still shown (as the stroke eraser does), and every author settles its changes but its last 500, as the
/// page does once they leave the undo stacks, every 256 changes.
struct HistoryCorpus {
    static let room = "history-room"

    let changeCount: Int
    /// Encoded changes, summed.
    let bytes: Int
    let packs: [(room: String, pack: [UInt8])]

    init(changes: Int, authors: Int, perPack: Int, deleting: Double = 0) {
        var random = SplitMix64(seed: 21)
        var generator = PythonRandom(seed: 22)
        let keys = (0..<authors).map { _ in AuthorKey(using: &random) }
        var clock = HybridLogicalClock()
        let now = SystemWallClock().millisecondsSince1970()
        var seqs = [UInt64](repeating: 0, count: authors)
        var pending = [[[UInt8]]](repeating: [], count: authors)
        var packs: [(room: String, pack: [UInt8])] = []
        var total = 0
        func flush(_ author: Int) {
            guard !pending[author].isEmpty else { return }
            let pack = Pack(room: Self.room, changes: pending[author])
            packs.append((Self.room, PackCodec.encode(pack, signedBy: keys[author])))
            pending[author] = []
        }
        var shown = [[StrokeID]](repeating: [], count: authors)
        var settled = [UInt64](repeating: 0, count: authors)
        for index in 0..<changes {
            // Turns of a few strokes each, as people draw in bursts.
            let author = (index / 7) % authors
            seqs[author] += 1
            let id = ChangeID(replica: keys[author].replica, seq: seqs[author])
            let operation: BoardOperation
            if deleting > 0, seqs[author] > settled[author] + 756 {
                settled[author] = seqs[author] - 501
                operation = .settle(through: settled[author], inactive: [])
            } else if !shown[author].isEmpty, Double(random.next() % 1_000_000) < deleting * 1_000_000 {
                let victim = Int(random.next() % UInt64(shown[author].count))
                operation = .set(shown[author].remove(at: victim), .deleted(true))
            } else {
                operation = .addStroke(
                    StrokeStyle(
                        colour: Colour(rgba: generator.choice(AnchorStroke.palette)),
                        width: generator.choice(AnchorStroke.widths)
                    ),
                    points: AnchorStroke.walk(&generator, count: W5Corpus.pointsPerStroke).map(InkGrid.snap),
                    pressures: nil
                )
                if deleting > 0 { shown[author].append(StrokeID(change: id)) }
            }
            let change = BoardChange(
                id: id,
                stamp: clock.next(wallMilliseconds: now),
                payload: BoardEdit(board: "main", operations: [operation])
            )
            let encoded = ChangeCodec.encode(change)
            total += encoded.count
            pending[author].append(encoded)
            if pending[author].count == perPack { flush(author) }
        }
        for author in 0..<authors { flush(author) }
        changeCount = changes
        bytes = total
        self.packs = packs
    }
}
