extension [Point] {
    /// The stroke's drawn length; with `closed`, the segment back to the start counts too.
    ///
    /// - Complexity: O(n).
    func pathLength(closed: Bool = false) -> Double {
        guard count > 1 else { return 0 }
        var length = 0.0
        for index in 1..<count { length += self[index - 1].distance(to: self[index]) }
        if closed { length += self[count - 1].distance(to: self[0]) }
        return length
    }

    /// `count` points spaced evenly along the stroke, first and last kept; with `closed`, evenly around the loop
    /// (the closing segment included) and without repeating the start.
    ///
    /// Even spacing makes every later measure independent of how fast the pen moved and how often it was sampled.
    /// - Complexity: O(n + count).
    func resampled(count target: Int, closed: Bool = false) -> [Point] {
        guard let first else { return [] }
        let path = closed ? self + [first] : self
        let total = path.pathLength()
        let pieces = closed ? target : target - 1
        guard total > 0, pieces > 0 else { return [Point](repeating: first, count: target) }
        var result: [Point] = [first]
        result.reserveCapacity(target)
        var segment = 1
        var walked = 0.0
        var segmentLength = path[0].distance(to: path[1])
        for index in 1..<target {
            let distance = total * Double(index) / Double(pieces)
            while walked + segmentLength < distance, segment < path.count - 1 {
                walked += segmentLength
                segment += 1
                segmentLength = path[segment - 1].distance(to: path[segment])
            }
            let fraction = segmentLength > 0 ? Swift.min(1, Swift.max(0, (distance - walked) / segmentLength)) : 0
            result.append(path[segment - 1].interpolated(to: path[segment], fraction))
        }
        if !closed { result[target - 1] = path[path.count - 1] }
        return result
    }
}
