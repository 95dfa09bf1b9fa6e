/// A type that can verify its own internal consistency.
///
/// Tests call ``checkInvariants()`` after every mutation they make; production code may call it
/// behind `assert` in debug builds. Checking is O(size of the value).
public protocol InvariantChecking {
    /// Throws ``InvariantViolation`` describing the first broken invariant.
    func checkInvariants() throws(InvariantViolation)
}

/// A broken internal invariant: always a bug in Inkwell, never bad user input.
public struct InvariantViolation: Error, CustomStringConvertible, Sendable {
    /// The type whose invariant failed.
    public let type: String
    /// What failed, without user content.
    public let message: String

    public init(_ type: Any.Type, _ message: String) {
        self.type = String(describing: type)
        self.message = message
    }

    public var description: String { "invariant of \(type) violated: \(message)" }
}

extension InvariantChecking {
    /// Throws unless `condition` holds.
    @inlinable
    package func require(
        _ condition: Bool,
        _ message: @autoclosure () -> String
    ) throws(InvariantViolation) {
        if !condition { throw InvariantViolation(Self.self, message()) }
    }
}

extension Dictionary: InvariantChecking where Value: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        for value in values { try value.checkInvariants() }
    }
}

extension Optional: InvariantChecking where Wrapped: InvariantChecking {
    public func checkInvariants() throws(InvariantViolation) {
        try self?.checkInvariants()
    }
}
