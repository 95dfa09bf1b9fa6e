import InkwellGeometry
import Testing

@Suite struct IntervalSetTests {
    @Test func overlappingAndTouchingIntervalsCoalesce() {
        var set = IntervalSet()
        set.insert(ParameterInterval(5, 7))
        set.insert(ParameterInterval(1, 2))
        set.insert(ParameterInterval(2, 3))
        set.insert(ParameterInterval(6, 9))
        set.insert(ParameterInterval(4, 4))
        #expect(set.intervals == [ParameterInterval(1, 3), ParameterInterval(5, 9)])
        #expect(set.contains(1) && set.contains(2.5) && !set.contains(3) && !set.contains(4) && set.contains(8.99))
    }

    @Test func gapsAreWhatStaysVisible() {
        let erased = IntervalSet([ParameterInterval(1.5, 2), ParameterInterval(3, 3.25)])
        #expect(
            erased.gaps(in: 0, 4)
                == [ParameterInterval(0, 1.5), ParameterInterval(2, 3), ParameterInterval(3.25, 4)]
        )
        #expect(IntervalSet([ParameterInterval(0, 4)]).gaps(in: 0, 4).isEmpty, "erasing [0, n) hides it all")
        #expect(IntervalSet().gaps(in: 0, 4) == [ParameterInterval(0, 4)])
    }

    @Test func unionDoesNotDependOnInsertionOrder() {
        var generator = SystemRandomNumberGenerator()
        let intervals = (0..<30).map { _ in
            let a = Double(Int.random(in: 0...40, using: &generator)) / 4
            return ParameterInterval(a, a + Double(Int.random(in: 0...8, using: &generator)) / 4)
        }
        let reference = IntervalSet(intervals)
        for _ in 0..<20 {
            #expect(IntervalSet(intervals.shuffled(using: &generator)) == reference)
        }
        for parameter in stride(from: 0.0, through: 12, by: 0.125) {
            #expect(reference.contains(parameter) == intervals.contains { $0.contains(parameter) })
        }
    }
}
