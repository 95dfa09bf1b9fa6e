extension ShapeRecognizer {
    /// A line if the stroke, hooks at its ends aside, stays close to its fitted line, and barely doubles back.
    ///
    /// The length is the resampled stroke's, so pixel noise in densely sampled, slow parts does not count.
    func line(_ samples: [Point]) -> RecognizedShape? {
        // Pen-down and pen-up hooks are left out of the fit and of the deviation, not of the length.
        let hook = Int(Double(samples.count - 1) * configuration.lineHook)
        let body = samples[hook...(samples.count - 1 - hook)]
        guard let fit = LineFit(body) else { return nil }
        var low = Double.infinity
        var high = -Double.infinity
        var deviation = 0.0
        for point in samples {
            low = min(low, fit.along(point))
            high = max(high, fit.along(point))
        }
        for point in body { deviation = max(deviation, abs(fit.across(point))) }
        let extent = high - low
        guard extent > 0, deviation <= configuration.lineMaxDeviation * extent,
            samples.pathLength() <= configuration.lineMaxPathRatio * extent
        else { return nil }
        let forward = fit.along(samples[samples.count - 1]) >= fit.along(samples[0])
        var direction = forward ? fit.direction : -fit.direction
        direction = snapped(direction, within: radians(configuration.lineSnapAngle))
        let middle = fit.center + fit.direction * ((low + high) / 2)
        return .line(middle - direction * (extent / 2), middle + direction * (extent / 2))
    }
}
