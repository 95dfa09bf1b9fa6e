public import InkwellSync
public import PropertyBased
public import Testing

/// Checks the join-semilattice laws that make a ``Mergeable`` type safe to replicate.
///
/// Runs on random states drawn from `generator` through property-based testing, so a failure
/// shrinks to a small case and prints the seed that reproduces it. The generator should build
/// *reachable* states, e.g. by applying random operations from a shared pool, because the laws
/// only promise anything for states that real replicas can reach.
public enum MergeLaws {
    /// The number of random cases per law that every type is held to.
    public static let defaultCount = 1_000

    /// Verifies commutativity, associativity and idempotence (plus absorption, invariants after
    /// every merge, and byte-identical canonical encodings) over `count` random triples.
    public static func check<State: Mergeable & Equatable & Sendable>(
        _ generator: Generator<State, some Sequence>,
        count: Int = defaultCount,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await propertyCheck(count: count, input: generator, generator, generator) { a, b, c in
            let ab = a.merged(with: b)
            let ba = b.merged(with: a)
            #expect(ab == ba, "merge is not commutative", sourceLocation: sourceLocation)
            #expect(
                ab.merged(with: c) == a.merged(with: b.merged(with: c)),
                "merge is not associative",
                sourceLocation: sourceLocation
            )
            #expect(a.merged(with: a) == a, "merge is not idempotent", sourceLocation: sourceLocation)
            #expect(ab.merged(with: b) == ab, "merging a part back changed the whole", sourceLocation: sourceLocation)
            checkExtras(a: a, ab: ab, ba: ba, sourceLocation: sourceLocation)
        }
    }

    private static func checkExtras<State>(a: State, ab: State, ba: State, sourceLocation: SourceLocation) {
        if let checking = [a, ab] as? [any InvariantChecking] {
            for state in checking {
                #expect(throws: Never.self, sourceLocation: sourceLocation) { try state.checkInvariants() }
            }
        }
        if let ab = ab as? any CanonicallyEncodable, let ba = ba as? any CanonicallyEncodable {
            #expect(
                ab.canonicalBytes == ba.canonicalBytes,
                "equal states encode differently",
                sourceLocation: sourceLocation
            )
        }
    }
}
