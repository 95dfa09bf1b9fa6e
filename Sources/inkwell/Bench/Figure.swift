import Foundation

/// One measured number, with what it measures and its unit.
struct Figure {
    let workload: String
    let figure: String
    let value: Double

    /// `{"workload": …, "figure": …, "value": …}`: the format scripts read.
    var json: String {
        let object: [String: Any] = ["workload": workload, "figure": figure, "value": value]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    var row: String {
        let padded = (workload + " / " + figure).padding(toLength: 48, withPad: " ", startingAt: 0)
        return padded + String(format: "%16.1f", value)
    }
}

/// A named workload that produces figures.
struct Workload {
    let name: String
    let measure: () -> [Figure]
}

/// Times `body` `runs` times and returns the median duration in seconds.
func medianSeconds(runs: Int, _ body: () -> Void) -> Double {
    medianSeconds(runs: runs, setup: {}) { _ in body() }
}

/// Times `body` on a fresh value from `setup` each run (setup not timed); returns the median in seconds.
func medianSeconds<State>(runs: Int, setup: () -> State, _ body: (inout State) -> Void) -> Double {
    let clock = ContinuousClock()
    let durations = (0..<runs).map { _ in
        var state = setup()
        let elapsed = clock.measure { body(&state) }
        blackHole(state)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
    return durations.sorted()[durations.count / 2]
}

/// Keeps a value alive so the optimiser cannot delete the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
