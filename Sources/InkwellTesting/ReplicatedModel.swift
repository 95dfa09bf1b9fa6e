public import InkwellSync

/// A replicated state that the ``ConvergenceHarness`` can drive: anything built on the engine
/// (a CRDT composite, a board) plugs in by saying how to invent a random local operation and how
/// to apply a change.
///
/// `apply` must make the state a function of the *set* of changes applied: any order, any
/// repetition. That is exactly what the harness tests.
public protocol ReplicatedModel {
    associatedtype Operation

    /// An empty replica.
    init()

    /// A random operation this replica could make now. `position` is the stamp its change will
    /// carry (the replica is `position.change.replica`), for operations that need unique tags.
    func randomOperation(at position: OpStamp, using generator: inout some RandomNumberGenerator) -> Operation

    /// Applies a local or remote change, possibly again, possibly before changes it depends on.
    mutating func apply(_ change: Change<Operation>)

    /// The canonical bytes of the state: equal states, equal bytes.
    func canonicalEncoding() -> [UInt8]
}
