/// A compacted prefix of history: the state that results from every change inside ``cut``.
///
/// Baselines let a replica drop old changes (DESIGN §4). Two baselines merge as a join: the one whose
/// vector covers the other's already contains it and wins; otherwise both states and cuts are joined.
/// That is only sound because a baseline's state is a function of the changes it contains, which is
/// what ``absorb(_:apply:)`` maintains.
public struct Baseline<State> {
    /// Which changes the state contains, and the stamp of each timeline's last one.
    public private(set) var cut: Cut
    /// The state after every change inside ``cut``.
    public private(set) var state: State

    /// The baseline of a history with no changes yet.
    public init(empty state: State) {
        self.cut = Cut()
        self.state = state
    }

    /// A baseline read back from storage.
    public init(cut: Cut, state: State) {
        self.cut = cut
        self.state = state
    }

    /// Changes older than this are inside the baseline; undo is offered only for newer ones.
    public var cutoff: Stamp? { cut.stableCutoff }

    /// Folds changes removed by ``ChangeLog/compact(through:)`` into the state, in the order given
    /// (the total order), and extends the cut over them. Changes already inside are skipped.
    ///
    /// - Complexity: O(k) applications for k changes.
    public mutating func absorb<Payload>(
        _ changes: some Sequence<Change<Payload>>,
        apply: (inout State, Change<Payload>) -> Void
    ) {
        for change in changes where !cut.vector.contains(change.id) {
            precondition(change.id.seq == cut.vector[change.id.replica] + 1, "baseline must stay contiguous")
            apply(&state, change)
            cut.include(change.id, change.stamp)
        }
    }
}

extension Baseline: Mergeable where State: Mergeable {
    /// The covering baseline wins; concurrent ones are unioned.
    public mutating func merge(_ other: Baseline<State>) {
        switch cut.vector.compare(other.cut.vector) {
        case .equal, .after:
            return
        case .before:
            self = other
        case .concurrent:
            cut.merge(other.cut)
            state.merge(other.state)
        }
    }
}

extension Baseline: Equatable where State: Equatable {}
extension Baseline: Sendable where State: Sendable {}

extension Baseline: InvariantChecking where State: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try cut.checkInvariants()
        try state.checkInvariants()
    }
}

extension Baseline: CanonicallyEncodable where State: CanonicallyEncodable {
    public func encode(to encoder: inout CanonicalEncoder) {
        cut.encode(to: &encoder)
        state.encode(to: &encoder)
    }
}
