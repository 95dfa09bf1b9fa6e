public import InkwellSync

/// The model as a live document of a replica.
extension ModelDocument: ReplicatedDocument {
    public typealias Edit = ModelEdit
    /// The fields whose counter or value reads differently after the batch.
    public typealias Delta = Set<String>

    /// Applies the changes of this document not applied before; operations that are unknown or out
    /// of bounds (``ModelOperation/isApplicable``) are skipped.
    ///
    /// - Complexity: O(size of the changes).
    public mutating func apply(contentsOf changes: [Change<ModelEdit>]) -> Set<String> {
        var before: [[UInt8]: Reading] = [:]
        for change in changes where change.payload.document == document {
            guard applied.insert(change.id).inserted else { continue }
            for (index, operation) in change.payload.operations.enumerated() where operation.isApplicable {
                guard let field = operation.field.map({ Array($0.utf8) }) else { continue }
                if before[field] == nil { before[field] = reading(field) }
                switch operation {
                case .increment(_, let by): add(by, to: field)
                case .assign(_, let value): registers.set(field, to: value, at: change.opStamp(index))
                case .remove: registers.set(field, to: nil, at: change.opStamp(index))
                case .unknown: break
                }
            }
        }
        var changed: Set<String> = []
        for (field, old) in before where reading(field) != old {
            changed.insert(String(decoding: field, as: UTF8.self))
        }
        return changed
    }

    /// ``canonicalHash``: the same on every replica that applied the same changes.
    public var fingerprint: String { canonicalHash }

    /// What a field reads as, to tell which fields a batch changed.
    private struct Reading: Equatable {
        let total: Int128
        let value: [UInt8]?
    }

    private func reading(_ field: [UInt8]) -> Reading {
        Reading(total: totals[field] ?? 0, value: registers[field])
    }

    /// Adds exactly; saturates only past `Int128`, which no count of real changes reaches, so that
    /// hostile amounts never trap.
    private mutating func add(_ amount: Int64, to field: [UInt8]) {
        let (sum, overflow) = (totals[field] ?? 0).addingReportingOverflow(Int128(amount))
        let total = overflow ? (amount < 0 ? Int128.min : Int128.max) : sum
        totals[field] = total == 0 ? nil : total
    }
}
