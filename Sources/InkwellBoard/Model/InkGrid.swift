public import InkwellGeometry

/// The grid that pen input is snapped to before it becomes a change: 1/8 pixel, and pressure in
/// 1/255 steps.
///
/// Snapping when a stroke is made, not when it is sent, is what keeps the author's board and
/// every other board bit-identical: the wire carries grid values exactly (1/8 is a power of two,
/// so every implementation computes the same doubles), and the author already holds those values.
public enum InkGrid {
    /// Grid steps per board pixel.
    public static let stepsPerPixel = 8.0

    public static func snap(_ point: Point) -> Point {
        Point((point.x * stepsPerPixel).rounded() / stepsPerPixel, (point.y * stepsPerPixel).rounded() / stepsPerPixel)
    }

    public static func snap(pressure: Float) -> Float {
        Float((min(max(pressure, 0), 1) * 255).rounded()) / 255
    }
}
