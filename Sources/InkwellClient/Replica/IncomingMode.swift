/// What a replica does with changes that arrive for a document.
public enum IncomingMode: Hashable, Sendable {
    /// Applies them to the live document as they arrive.
    case live
    /// Stores them, applies nothing, and tells nobody until resumed; then applies them in one batch.
    case paused
    /// Stores them and keeps them from the live document until the app accepts them, after showing
    /// what arrived (``Arrivals``).
    case held
}
