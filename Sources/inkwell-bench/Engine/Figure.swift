import Foundation

/// One measured number, with what it measures and its unit.
struct Figure {
    let workload: String
    let figure: String
    let value: Double

    /// `{"workload": …, "figure": …, "value": …}`, keys in that order: the format scripts read. A value
    /// that is not finite is written as `null`, which JSON can carry.
    var json: String {
        let value = value.isFinite ? "\(value)" : "null"
        return #"{"workload": \#(Self.quoted(workload)), "figure": \#(Self.quoted(figure)), "value": \#(value)}"#
    }

    private static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])
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
    let measure: () async -> [Figure]
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
    return median(durations)
}

/// The middle value (the mean of the two middle ones for an even count); infinity for none.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .infinity }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Keeps a value alive so the optimiser cannot delete the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A set of workloads whose sizes follow `--scale`.
protocol ScaledWorkloads {
    var scale: Double { get }
}

extension ScaledWorkloads {
    /// `base` scaled, never below one.
    func size(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }
}
