import Foundation
import Synchronization

/// Samples a process's resident memory (`VmRSS`, and the kernel's high-water mark `VmHWM`, from
/// `/proc/PID/status`) every `interval` on a thread of its own, until stopped; phases marked on the way
/// give the timeline its sections. Linux only: elsewhere it records nothing.
final class ResidentMemory: Sendable {
    struct Sample: Sendable {
        /// Since sampling started.
        let at: Duration
        /// Kilobytes, as `/proc` gives them.
        let rss: Int
        let hwm: Int
    }

    struct Phase: Sendable {
        let name: String
        let at: Duration
    }

    /// What sampling found.
    struct Report: Sendable {
        let samples: [Sample]
        let phases: [Phase]

        /// The largest sampled `VmRSS`, in KiB.
        var peakRSS: Int { samples.map(\.rss).max() ?? 0 }
        /// The kernel's own peak, which also covers the moments between samples, in KiB.
        var highWaterMark: Int { samples.map(\.hwm).max() ?? 0 }

        /// Each phase's peak, then every few seconds' samples: what the suite prints.
        var timeline: String {
            var lines: [String] = []
            for (index, phase) in phases.enumerated() {
                let end = index + 1 < phases.count ? phases[index + 1].at : .seconds(1_000_000)
                let inside = samples.filter { $0.at >= phase.at && $0.at < end }
                guard let peak = inside.max(by: { $0.rss < $1.rss }) else { continue }
                lines.append(
                    "  \(Self.seconds(phase.at)) \(phase.name): peak RSS \(Self.mebibytes(peak.rss)) "
                        + "at \(Self.seconds(peak.at)), \(inside.count) samples"
                )
            }
            let every = samples.enumerated().filter { $0.offset % 50 == 0 }.map {
                "\(Self.seconds($0.element.at)) \(Self.mebibytes($0.element.rss))"
            }
            lines.append("  every 5 s: " + every.joined(separator: ", "))
            return lines.joined(separator: "\n")
        }

        static func mebibytes(_ kilobytes: Int) -> String {
            String(format: "%.1f MiB", Double(kilobytes) / 1_024)
        }

        static func seconds(_ duration: Duration) -> String {
            String(format: "%.1f s", Double(duration.wholeMilliseconds) / 1_000)
        }
    }

    private let pid: Int32
    private let started = ContinuousClock.now
    private let samples = Mutex<[Sample]>([])
    private let phases = Mutex<[Phase]>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(pid: Int32, interval: Duration = .milliseconds(100)) {
        self.pid = pid
        Thread.detachNewThread { [self] in
            while !stopping.load(ordering: .relaxed) {
                if let sample = read() { samples.withLock { $0.append(sample) } }
                Thread.sleep(forTimeInterval: Double(interval.wholeMilliseconds) / 1_000)
            }
            finished.signal()
        }
    }

    /// Starts a phase of the timeline.
    func mark(_ phase: String) {
        phases.withLock { $0.append(Phase(name: phase, at: .now - started)) }
    }

    /// Stops sampling (after one last sample) and returns what it found.
    func stop() -> Report {
        if let sample = read() { samples.withLock { $0.append(sample) } }
        stopping.store(true, ordering: .relaxed)
        finished.wait()
        return Report(samples: samples.withLock { $0 }, phases: phases.withLock { $0 })
    }

    /// One reading of `/proc/PID/status`; nil once the process has gone.
    private func read() -> Sample? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func kilobytes(_ field: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else {
                return nil
            }
            // "VmRSS:\t   12345 kB"
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
        }
        guard let rss = kilobytes("VmRSS"), let hwm = kilobytes("VmHWM") else { return nil }
        return Sample(at: .now - started, rss: rss, hwm: hwm)
    }
}
