public import InkwellGeometry

/// What a finished pen stroke becomes on pen-up: its points snapped to the ink grid, or, when shape
/// recognition is on and the stroke is a shape, the shape's clean outline as an ordinary stroke.
public struct PenUp: Sendable {
    public var recognizesShapes: Bool
    public var recognizer: ShapeRecognizer

    public init(recognizesShapes: Bool = true, recognizer: ShapeRecognizer = ShapeRecognizer()) {
        self.recognizesShapes = recognizesShapes
        self.recognizer = recognizer
    }

    /// The operations that commit a stroke, and the shape it was recognised as (`.none` for ink).
    ///
    /// - Parameter streamed: the stroke already sent while the pen was down, if it was streamed as
    ///   appends: a recognised shape replaces it in the same change, so one undo brings the ink back.
    public func operations(
        for points: [Point],
        pressures: [Float]?,
        style: StrokeStyle,
        replacing streamed: StrokeID? = nil
    ) -> (operations: [BoardOperation], shape: RecognizedShape) {
        let shape = recognizesShapes && points.count >= 2 ? recognizer.recognize(points) : .none
        guard shape != .none else {
            let ink = BoardOperation.addStroke(
                style,
                points: points.map(InkGrid.snap),
                pressures: pressures?.map(InkGrid.snap(pressure:))
            )
            return (streamed == nil ? [ink] : [], shape)
        }
        let outline = BoardOperation.addStroke(style, points: shape.polyline.map(InkGrid.snap), pressures: nil)
        return ((streamed.map { [.set($0, .deleted(true))] } ?? []) + [outline], shape)
    }
}
