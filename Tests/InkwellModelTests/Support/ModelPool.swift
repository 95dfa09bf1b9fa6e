import InkwellModel
import InkwellSync
import PropertyBased

/// Random sets of changes for the law checks, drawn from a small pool of replicas, fields and amounts
/// so that their writes collide the way real replicas' do: equal stamps, the same field from several
/// replicas, two byte-spellings of one accented name, hostile amounts, operations no replica applies.
enum ModelPool {
    static let document = "2026-11-25"
    static let replicas = (1...3).map { ReplicaID(high: UInt64($0) << 56, low: UInt64($0)) }
    /// "é" precomposed and decomposed: equal as Swift strings, two fields as bytes.
    static let fields = ["rice", "tea", "\u{E9}", "e\u{301}", "x"]
    static let amounts: [Int64] = [1, 2, -1, 0, 100, .max, .min]

    /// An operation from a kind selector: mostly increments, then writes, removals, unknown bytes,
    /// and names or values out of bounds.
    static let operation = zip(
        Gen.int(in: 0...9),
        Gen.int(in: 0...(fields.count - 1)),
        Gen.int(in: 0...(amounts.count - 1)),
        Gen.uint8().array(of: 0...6)
    )
    .map { kind, field, amount, bytes -> ModelOperation in
        switch kind {
        case 0...3: .increment(field: fields[field], by: amounts[amount])
        case 4...5: .assign(field: fields[field], value: bytes)
        case 6: .remove(field: fields[field])
        case 7: .unknown(bytes)
        case 8: .increment(field: String(repeating: "a", count: ModelOperation.maximumFieldBytes + 1), by: 1)
        default:
            .assign(field: fields[field], value: [UInt8](repeating: 7, count: ModelOperation.maximumValueBytes + 1))
        }
    }

    /// A change: its author, wall time (often equal to another's), whether it is of another
    /// document, and its operations.
    static let changeSpec = zip(Gen.int(in: 0...2), Gen.uint64(in: 0...5), Gen.bool(0.1), operation.array(of: 0...4))

    /// Distinct changes: each spec is the next change of its replica, so ids never repeat.
    static let changes = changeSpec.array(of: 0...12).map { specs -> [Change<ModelEdit>] in
        var seqs = [UInt64](repeating: 0, count: replicas.count)
        return specs.map { replica, wall, elsewhere, operations in
            seqs[replica] += 1
            return Change(
                id: ChangeID(replica: replicas[replica], seq: seqs[replica]),
                stamp: Stamp(wallMilliseconds: 1_000 + wall),
                payload: ModelEdit(document: elsewhere ? "2026-11-26" : document, operations: operations)
            )
        }
    }

    /// The same changes by a group of three replicas of their own, so that changes drawn for different
    /// groups never share an id.
    static func authored(by group: UInt64, _ changes: [Change<ModelEdit>]) -> [Change<ModelEdit>] {
        changes.map { change in
            let author = ReplicaID(high: change.id.replica.high | group << 48, low: change.id.replica.low)
            return Change(
                id: ChangeID(replica: author, seq: change.id.seq),
                stamp: change.stamp,
                payload: change.payload
            )
        }
    }
}

extension ModelDocument {
    /// The document made of `batches`, applied one after the other.
    static func applying(_ batches: [[Change<ModelEdit>]]) -> ModelDocument {
        var document = ModelDocument(document: ModelPool.document)
        for batch in batches { _ = document.apply(contentsOf: batch) }
        return document
    }
}

extension Change<ModelEdit> {
    /// The change as another replica reads it: encoded, then decoded.
    var roundTripped: Change<ModelEdit> { encoded.decoded(as: ModelEdit.self)! }
}
