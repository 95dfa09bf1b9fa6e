/// An axis-aligned rectangle: bounding boxes, dirty regions, spatial-index queries.
public struct Rect: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest rectangle holding every point; `nil` for none.
    @inlinable public init?(bounding points: some Sequence<Point>) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        while let point = iterator.next() { include(point) }
    }

    @inlinable public var width: Double { maxX - minX }
    @inlinable public var height: Double { maxY - minY }
    @inlinable public var center: Point { Point((minX + maxX) / 2, (minY + maxY) / 2) }

    @inlinable public mutating func include(_ point: Point) {
        minX = Swift.min(minX, point.x)
        minY = Swift.min(minY, point.y)
        maxX = Swift.max(maxX, point.x)
        maxY = Swift.max(maxY, point.y)
    }

    @inlinable public func union(_ other: Rect) -> Rect {
        Rect(
            minX: Swift.min(minX, other.minX),
            minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX),
            maxY: Swift.max(maxY, other.maxY)
        )
    }

    /// Grown by `amount` on every side (a stroke's half width, an eraser's radius).
    @inlinable public func expanded(by amount: Double) -> Rect {
        Rect(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount)
    }

    /// Whether the rectangles overlap or touch.
    @inlinable public func intersects(_ other: Rect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    @inlinable public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}
