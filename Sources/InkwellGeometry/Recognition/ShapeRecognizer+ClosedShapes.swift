extension ShapeRecognizer {
    /// An ellipse, triangle, rectangle or diamond if the stroke closes on itself and one of them fits it well;
    /// the best fit wins.
    func closedShape(_ samples: [Point]) -> RecognizedShape? {
        let closure = Closure(
            samples: samples,
            tailFraction: configuration.maxClosingTail,
            overshootWeight: configuration.overshootWeight
        )
        guard closure.opening <= configuration.maxOpening,
            !closure.isCrossing(
                samples,
                minimumTail: configuration.crossingTail,
                minimumAngle: radians(configuration.crossingAngle)
            )
        else { return nil }
        let loop = Loop(Array(samples[closure.start...closure.end]), configuration: configuration)
        guard loop.perimeter > 0, abs(abs(loop.totalTurning) - 2 * Double.pi) <= radians(configuration.turningTolerance)
        else {
            return nil
        }
        let start = loop.points[0]
        var best: (shape: RecognizedShape, error: Double)?
        func consider(_ shape: RecognizedShape, _ error: Double, _ limit: Double) {
            guard error <= limit, error < best?.error ?? .infinity else { return }
            best = (shape, error)
        }
        if let ellipse = EllipseFit(loop) {
            consider(ellipseShape(ellipse), ellipse.error, configuration.maxEllipseError)
        }
        if let corners = loop.strongestCorners(3),
            let fit = PolygonFit(loop, corners: corners, trim: configuration.edgeTrim)
        {
            consider(
                .triangle(rotated(fit.vertices, toStartNearest: start)),
                loop.error(against: fit.vertices),
                configuration.maxTriangleError
            )
        }
        if let corners = loop.strongestCorners(4),
            let fit = PolygonFit(loop, corners: corners, trim: configuration.edgeTrim)
        {
            // Standing on its corners, a four-sided loop is a diamond, never a rectangle turned by 45°.
            if let diamond = diamond(from: fit) {
                consider(
                    .diamond(rotated(diamond, toStartNearest: start)),
                    loop.error(against: diamond),
                    configuration.maxDiamondError
                )
            } else if let rectangle = rectangle(from: fit) {
                consider(
                    .rectangle(rotated(rectangle, toStartNearest: start)),
                    loop.error(against: rectangle),
                    configuration.maxRectangleError
                )
            }
        }
        return best?.shape
    }

    /// The ellipse as it is drawn: a circle if its radii nearly agree, turned onto the axes if nearly aligned.
    func ellipseShape(_ fit: EllipseFit) -> RecognizedShape {
        let larger = max(fit.radiusX, fit.radiusY)
        if larger - min(fit.radiusX, fit.radiusY) <= configuration.circleTolerance * larger {
            let radius = (fit.radiusX + fit.radiusY) / 2
            return .ellipse(center: fit.center, radiusX: radius, radiusY: radius, rotation: 0)
        }
        let rotation = abs(fit.rotation) <= radians(configuration.axisSnapAngle) ? 0 : fit.rotation
        return .ellipse(center: fit.center, radiusX: fit.radiusX, radiusY: fit.radiusY, rotation: rotation)
    }
}
