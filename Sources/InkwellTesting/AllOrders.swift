public import InkwellSync

/// Exhaustive checks for small cases: every delivery order of a few changes must give the same state.
public enum AllOrders {
    /// Every permutation of `elements` (n! of them: keep n small).
    public static func permutations<Element>(of elements: [Element]) -> [[Element]] {
        guard elements.count > 1 else { return [elements] }
        return elements.indices.flatMap { index -> [[Element]] in
            var rest = elements
            let first = rest.remove(at: index)
            return permutations(of: rest).map { [first] + $0 }
        }
    }

    /// Applies `changes` to a fresh model in every order, and once more with every change applied
    /// twice, and returns the distinct canonical encodings seen: convergence means exactly one.
    public static func distinctStates<Model: ReplicatedModel>(
        of model: Model.Type,
        applying changes: [Change<Model.Operation>]
    ) -> Set<[UInt8]> {
        var states: Set<[UInt8]> = []
        for order in permutations(of: changes) {
            var replica = Model()
            for change in order { replica.apply(change) }
            states.insert(replica.canonicalEncoding())
            for change in order.reversed() { replica.apply(change) }
            states.insert(replica.canonicalEncoding())
        }
        return states
    }
}
