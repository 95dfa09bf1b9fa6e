import InkwellSync
import InkwellTesting

/// A document made of every CRDT the engine offers, replicated by sending each edit as a change.
///
/// Counter edits travel as deltas holding the author's new total, not as "+1", so that applying a
/// change twice is harmless; the other edits are idempotent by construction (unique op stamps).
struct Document: ReplicatedModel, Equatable {
    var fields = LWWMap<AtomKey<Int, String>, Int>()
    var tags = ORSet<Int>()
    var counter = PNCounter()
    var nested: [String: [String: GCounter]] = [:]
    var members = TwoPhaseSet<Int>()
    var highest = Max(0)

    enum Edit {
        case setField(AtomKey<Int, String>, Int?)
        case addTag(Int)
        case removeTags(Set<OpStamp>)
        case count(PNCounter)
        case countNested(String, String, GCounter)
        case addMember(Int)
        case removeMember(Int)
        case raise(Int)
    }

    init() {}

    mutating func apply(_ change: Change<Edit>) {
        let stamp = change.opStamp(0)
        switch change.payload {
        case .setField(let key, let value): fields.set(key, to: value, at: stamp)
        case .addTag(let element): tags.insert(element, tag: stamp)
        case .removeTags(let cancelled): tags.remove(tags: cancelled)
        case .count(let delta): counter.merge(delta)
        case .countNested(let outer, let inner, let delta): nested.merge([outer: [inner: delta]])
        case .addMember(let member): members.insert(member)
        case .removeMember(let member): members.remove(member)
        case .raise(let value): highest.raise(to: value)
        }
    }

    func randomOperation(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> Edit {
        let author = position.change.replica
        let small = Int.random(in: 0..<24, using: &generator)
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<30:
            let value =
                Int.random(in: 0..<10, using: &generator) == 0 ? nil : Int.random(in: 0...999, using: &generator)
            return .setField(AtomKey(small, ["colour", "width", "z"][small % 3]), value)
        case 30..<50:
            return .addTag(small)
        case 50..<60:
            guard let element = tags.elements.randomElement(using: &generator) else { return .addTag(small) }
            return .removeTags(tags.tags[element]!)
        case 60..<70:
            // The author's own totals plus this step, as a delta.
            var delta = PNCounter()
            let up = UInt64.random(in: 1...5, using: &generator)
            delta.increment(
                author,
                by: counter.increments.counts[author, default: 0] + (small.isMultiple(of: 2) ? up : 0)
            )
            delta.decrement(
                author,
                by: counter.decrements.counts[author, default: 0] + (small.isMultiple(of: 2) ? 0 : up)
            )
            return .count(delta)
        case 70..<80:
            let outer = "o\(small % 3)"
            let inner = "i\(small % 4)"
            var delta = GCounter()
            delta.increment(author, by: (nested[outer]?[inner]?.counts[author] ?? 0) + 1)
            return .countNested(outer, inner, delta)
        case 80..<88:
            return .addMember(small)
        case 88..<93:
            return .removeMember(small)
        default:
            return .raise(Int.random(in: 0...1_000_000, using: &generator))
        }
    }

    func canonicalEncoding() -> [UInt8] {
        var encoder = CanonicalEncoder()
        encoder.write(fields)
        encoder.write(tags)
        encoder.write(counter)
        encoder.write(nested)
        encoder.write(members)
        encoder.write(highest)
        return encoder.bytes
    }
}
