public import InkwellModel
public import InkwellSync

/// An app's data type, declared as a plain `Codable` struct whose stored properties are field
/// wrappers (``Counter``, ``Register``, ``CounterMap``, ``Members``). Each value of it lives in one
/// ``ModelDocument``; a replica reads it from there and writes the difference back as one change.
///
/// ```swift
/// struct Day: Model {
///     @CounterMap var foods: [String: Int64]
///     @Register var note: String?
/// }
/// try await replica.update(Day.self, room: "log", document: "2026-11-25") { $0.foods["rice", default: 0] += 1 }
/// ```
public protocol Model: Codable, Sendable {}

extension Model {
    /// The model as `document` holds it; a field never written reads as its empty value.
    ///
    /// - Throws: ``ModelError/unsupportedProperty(_:)`` for a stored property that is not a field.
    /// - Complexity: O(fields of the document) per map or set property, O(1) per counter or register.
    public init(_ document: ModelDocument) throws {
        try self.init(from: ModelDecoder(document: document))
    }

    /// The operations that turn `old` into `self`: increments by the difference of each counter, a
    /// write for each register that changed, an add or remove for each member that did.
    ///
    /// - Throws: ``ModelError/unsupportedProperty(_:)``, or ``ModelError/tooLarge(_:)`` for a value
    ///   or a member the document would not take (a register over 64 KiB, a field name over 256 bytes).
    public func operations(since old: Self) throws -> [ModelOperation] {
        let before = try ModelEncoder.fields(of: old)
        let after = try ModelEncoder.fields(of: self)
        var operations: [ModelOperation] = []
        for name in after.keys.sorted() {
            guard let new = after[name], let previous = before[name] else { continue }
            operations += ModelDiff.operations(from: previous, to: new, at: name)
        }
        if let invalid = operations.first(where: { !$0.isApplicable }) {
            throw ModelError.tooLarge(invalid.field ?? "")
        }
        return operations
    }
}

/// The operations between two values of one field.
enum ModelDiff {
    static func operations(from old: FieldSnapshot, to new: FieldSnapshot, at path: String) -> [ModelOperation] {
        switch (old, new) {
        case (.counter(let before), .counter(let after)):
            return increments(from: before, to: after, at: path)
        case (.register(let before), .register(let after)):
            guard before != after else { return [] }
            return [after.map { .assign(field: path, value: $0) } ?? .remove(field: path)]
        case (.counters(let before), .counters(let after)):
            return Set(before.keys).union(after.keys).sorted().flatMap { key in
                increments(from: before[key] ?? 0, to: after[key] ?? 0, at: path + "/" + key)
            }
        case (.members(let before), .members(let after)):
            let added = after.subtracting(before).map { ModelOperation.assign(field: member(path, $0), value: [1]) }
            let removed = before.subtracting(after).map { ModelOperation.remove(field: member(path, $0)) }
            return (added + removed).sorted { ($0.field ?? "") < ($1.field ?? "") }
        default:
            return []
        }
    }

    /// Increments whose sum is `after - before`, each within `Int64`.
    private static func increments(from before: Int64, to after: Int64, at field: String) -> [ModelOperation] {
        var difference = Int128(after) - Int128(before)
        var operations: [ModelOperation] = []
        while difference != 0 {
            let step = Int64(clamping: difference)
            operations.append(.increment(field: field, by: step))
            difference -= Int128(step)
        }
        return operations
    }

    private static func member(_ path: String, _ element: [UInt8]) -> String {
        path + "/" + String(decoding: element, as: UTF8.self)
    }
}
