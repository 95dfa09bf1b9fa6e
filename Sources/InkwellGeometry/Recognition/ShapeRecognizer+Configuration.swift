extension ShapeRecognizer {
    /// Every threshold the recogniser uses. All are ratios or angles, so nothing depends on the drawing's size,
    /// position or sampling rate. Angles are in degrees. The defaults were tuned on subjects s01–s04 of the $1
    /// gesture logs; the line and diamond thresholds also on lines and diamonds derived from all seven subjects
    /// (see BENCHMARKS.md, "Shape recognition").
    public struct Configuration: Hashable, Sendable {
        /// Points the stroke is resampled to, evenly along its length, before anything is measured.
        public var sampleCount = 64
        /// Points a closed loop is resampled to; finer, so narrow rectangles keep four separate corners.
        public var loopSampleCount = 96

        /// The fraction of a line's samples, at each end, that may hook away from it.
        public var lineHook = 0.05
        /// A line's largest distance from its fitted line, hooks aside, as a fraction of its length.
        public var lineMaxDeviation = 0.08
        /// A line's drawn length over its straight extent: hooks at the ends and wobble raise it above 1.
        public var lineMaxPathRatio = 1.1
        /// A line within this angle of horizontal, vertical or a diagonal is turned onto it.
        public var lineSnapAngle = 5.0

        /// A closed shape's opening: the gap left between its ends plus `overshootWeight` times the overshoot cut
        /// off past the closing point, as fractions of the stroke's length.
        public var maxOpening = 0.17
        public var overshootWeight = 0.5
        /// How much of the stroke, both ends together, may overshoot the closing point and be cut off.
        public var maxClosingTail = 0.15
        /// A stroke whose ends both run on past the closing point by at least this fraction of its samples,
        /// and cross there at more than `crossingAngle`, is an ✗ or a fish, not a closed shape.
        public var crossingTail = 0.03
        public var crossingAngle = 45.0
        /// A closed shape turns once around in total: a loop whose total turn is further than this from 360° crosses
        /// itself (a star turns 720°, a figure eight or a fish 0°) and is not a shape.
        public var turningTolerance = 90.0

        /// Samples either side of a loop point whose directions are compared to measure the turn there.
        public var cornerWindow = 4
        /// The least turn, over the window, that counts as a corner.
        public var cornerAngle = 35.0
        /// Fraction of each polygon edge's samples, at either end, left out of the edge's line fit (rounded corners).
        public var edgeTrim = 0.2

        /// Each shape's largest mean distance of the stroke from its corrected outline, as a fraction of the
        /// stroke's length.
        public var maxEllipseError = 0.012
        public var maxTriangleError = 0.012
        public var maxRectangleError = 0.012
        public var maxDiamondError = 0.016

        /// An ellipse whose radii differ by less than this fraction of the larger becomes a circle.
        public var circleTolerance = 0.15
        /// An ellipse or rectangle within this angle of the axes is turned onto them.
        public var axisSnapAngle = 5.0
        /// A four-cornered loop whose diagonals are within this angle of horizontal and vertical is a diamond.
        public var diamondAxisTolerance = 15.0

        /// The arrow's tip is the point farthest from its tail; the shaft ends where the stroke, having come at
        /// least this fraction of the way, first turns back.
        public var arrowShaftReach = 0.75
        /// The shaft's largest distance from its chord, as a fraction of the arrow's length: people bow long shafts.
        public var arrowShaftDeviation = 0.15
        /// The head stays within this fraction of the arrow's length from the tip.
        public var arrowMaxHeadRadius = 0.72
        /// Each barb reaches at least this fraction of the arrow's length away from the shaft's line.
        public var arrowMinBarb = 0.08
        /// The head's drawn length is at most this multiple of the arrow's length.
        public var arrowMaxHead = 2.0

        public init() {}
    }
}
