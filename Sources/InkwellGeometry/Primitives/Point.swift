/// A point or vector in board coordinates (pixels at zoom 1, y pointing down).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable public init(x: Double, y: Double) {
        self.init(x, y)
    }

    public static let zero = Point(0, 0)

    @inlinable public static func + (lhs: Point, rhs: Point) -> Point { Point(lhs.x + rhs.x, lhs.y + rhs.y) }
    @inlinable public static func - (lhs: Point, rhs: Point) -> Point { Point(lhs.x - rhs.x, lhs.y - rhs.y) }
    @inlinable public static func * (lhs: Point, rhs: Double) -> Point { Point(lhs.x * rhs, lhs.y * rhs) }
    @inlinable public static func * (lhs: Double, rhs: Point) -> Point { Point(lhs * rhs.x, lhs * rhs.y) }
    @inlinable public static func / (lhs: Point, rhs: Double) -> Point { Point(lhs.x / rhs, lhs.y / rhs) }
    @inlinable public static prefix func - (point: Point) -> Point { Point(-point.x, -point.y) }

    /// The dot product, treating both points as vectors.
    @inlinable public func dot(_ other: Point) -> Double { x * other.x + y * other.y }

    /// The z component of the cross product: positive when `other` turns clockwise on screen (y down).
    @inlinable public func cross(_ other: Point) -> Double { x * other.y - y * other.x }

    @inlinable public var lengthSquared: Double { x * x + y * y }

    @inlinable public var length: Double { lengthSquared.squareRoot() }

    @inlinable public func distance(to other: Point) -> Double { (self - other).length }

    @inlinable public func distanceSquared(to other: Point) -> Double { (self - other).lengthSquared }

    /// The point a fraction `t` of the way to `other`.
    @inlinable public func interpolated(to other: Point, _ t: Double) -> Point {
        Point(x + (other.x - x) * t, y + (other.y - y) * t)
    }

    /// Whether both coordinates are finite numbers.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension Point: CustomStringConvertible {
    public var description: String { "(\(x), \(y))" }
}
