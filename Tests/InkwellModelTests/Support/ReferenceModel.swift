import InkwellModel
import InkwellSync

/// The model's meaning, written as plainly as possible: a counter is the sum of the applicable
/// increments of the distinct changes, a register the applicable write latest in the total order.
struct ReferenceModel {
    private var counters: [[UInt8]: Int128] = [:]
    private var writes: [[UInt8]: (stamp: OpStamp, value: [UInt8]?)] = [:]

    init(_ changes: [Change<ModelEdit>], document: String) {
        var seen: Set<ChangeID> = []
        for change in changes where change.payload.document == document && seen.insert(change.id).inserted {
            for (index, operation) in change.payload.operations.enumerated() where operation.isApplicable {
                let stamp = change.opStamp(index)
                switch operation {
                case .increment(let field, let by): counters[Array(field.utf8), default: 0] += Int128(by)
                case .assign(let field, let value): write(field, value, at: stamp)
                case .remove(let field): write(field, nil, at: stamp)
                case .unknown: break
                }
            }
        }
    }

    private mutating func write(_ field: String, _ value: [UInt8]?, at stamp: OpStamp) {
        let key = Array(field.utf8)
        if let current = writes[key], current.stamp > stamp { return }
        writes[key] = (stamp, value)
    }

    func counter(_ field: String) -> Int64 { Int64(clamping: counters[Array(field.utf8)] ?? 0) }
    func value(_ field: String) -> [UInt8]? { writes[Array(field.utf8)]?.value ?? nil }
}
