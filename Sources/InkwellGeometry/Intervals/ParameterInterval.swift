/// A half-open interval `[lower, upper)` of a stroke's parameter space.
///
/// A stroke of n+1 points spans parameters `0...n`: parameter `i + f` is the fraction `f` of the
/// way from point `i` to point `i + 1` along the drawn curve. Erasing and visibility are expressed
/// in this space so they do not depend on how a renderer draws the curve.
public struct ParameterInterval: Hashable, Sendable {
    public var lower: Double
    public var upper: Double

    @inlinable public init(_ lower: Double, _ upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Covers nothing (`lower >= upper`).
    @inlinable public var isEmpty: Bool { !(lower < upper) }

    @inlinable public var length: Double { isEmpty ? 0 : upper - lower }

    @inlinable public func contains(_ parameter: Double) -> Bool {
        lower <= parameter && parameter < upper
    }

    /// Whether both ends are finite numbers.
    @inlinable public var isFinite: Bool { lower.isFinite && upper.isFinite }
}

extension ParameterInterval: CustomStringConvertible {
    public var description: String { "[\(lower), \(upper))" }
}
