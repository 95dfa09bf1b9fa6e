import Foundation

/// The figures of a load run: as a table, or as one JSON object per figure.
struct LoadReport: Sendable {
    enum Unit: Sendable {
        case count
        case milliseconds
        case seconds
        case perSecond
        case percent
        case mebibytes
        case kibibytes
    }

    struct Line: Sendable {
        let name: String
        let value: Double?
        let unit: Unit
    }

    let configuration: LoadRun.Configuration
    let opened: Int
    /// Connections that had not closed when the report was made (a stuck server).
    let unfinished: Int
    let timeline: LoadRun.Timeline
    let totals: LoadRecorder.Totals
    let stats: MemberStats
    let ownPeakResidentBytes: Int
    let serverMemory: (resident: Int, peak: Int)?

    /// Whether the run failed as a measurement: connections missing, or nothing pushed.
    var failed: Bool {
        opened < configuration.connections || timeline.liveAtStart < configuration.connections || totals.pushes == 0
            || unfinished > 0
    }

    var lines: [Line] {
        let window = measuredSeconds
        var lines: [Line] = [
            Line(name: "connections requested", value: Double(configuration.connections), unit: .count),
            Line(name: "connections opened", value: Double(opened), unit: .count),
            Line(name: "connections failed", value: Double(configuration.connections - opened), unit: .count),
            Line(name: "connections live when drawing started", value: Double(timeline.liveAtStart), unit: .count),
            Line(name: "idle connections", value: Double(configuration.idleConnections), unit: .count),
            Line(name: "drawers", value: Double(configuration.rooms * configuration.drawers), unit: .count),
            Line(name: "measured window (s)", value: window, unit: .seconds),
            Line(name: "pushes", value: Double(totals.pushes), unit: .count),
            Line(name: "pushes per second", value: window.map { Double(totals.pushes) / $0 }, unit: .perSecond),
            Line(name: "pushes per second, target", value: targetPushesPerSecond, unit: .perSecond),
            Line(
                name: "presence frames per second",
                value: window.map { Double(totals.presenceFrames) / $0 },
                unit: .perSecond
            ),
            Line(name: "presence frames per second, target", value: targetPresencePerSecond, unit: .perSecond),
            Line(name: "push receipts expected", value: Double(totals.expectedReceipts), unit: .count),
            Line(name: "push receipts received", value: Double(totals.receipts), unit: .count),
            Line(name: "push receipts lost", value: Double(totals.outstandingReceipts), unit: .count),
            Line(name: "push receipts beyond expected", value: Double(totals.extraReceipts), unit: .count),
        ]
        lines += percentiles("push to remote receipt", stats.remote)
        lines.append(Line(name: "acks missing", value: Double(totals.pushes - totals.acks), unit: .count))
        lines += percentiles("push to ack", stats.ack)
        lines += [
            Line(name: "presence frames sent", value: Double(totals.presenceFrames), unit: .count),
            Line(name: "presence receipts expected", value: Double(totals.expectedPresenceReceipts), unit: .count),
            Line(name: "presence receipts received", value: Double(stats.presenceReceipts), unit: .count),
            Line(
                // The server replaces a sender's presence that a slow connection has not taken yet.
                name: "presence receipts lost or superseded",
                value: Double(
                    max(0, totals.expectedPresenceReceipts - stats.presenceReceipts - stats.presenceUnmatched)
                ),
                unit: .count
            ),
            Line(name: "presence receipts too late to time", value: Double(stats.presenceUnmatched), unit: .count),
            Line(name: "presence batch frames received", value: Double(stats.presenceBatches), unit: .count),
        ]
        lines += percentiles("presence to remote receipt", stats.presence)
        lines += [
            Line(name: "catch-up frames (slow-reader fallback)", value: Double(stats.coalescedFrames), unit: .count),
            Line(name: "error frames", value: Double(stats.errorFrames), unit: .count),
            Line(name: "connections closed by the server", value: Double(stats.unexpectedCloses), unit: .count),
            Line(name: "send failures", value: Double(stats.sendFailures), unit: .count),
            Line(name: "connections not closed when reported", value: Double(unfinished), unit: .count),
            Line(name: "frames received by the generator", value: Double(stats.framesReceived), unit: .count),
            Line(name: "drain after drawing stopped (s)", value: timeline.drained.seconds, unit: .seconds),
            Line(
                name: "generator lag behind schedule, p50 (ms)",
                value: stats.lateness.milliseconds(at: 0.5),
                unit: .milliseconds
            ),
            Line(
                name: "generator lag behind schedule, p99 (ms)",
                value: stats.lateness.milliseconds(at: 0.99),
                unit: .milliseconds
            ),
            Line(name: "generator CPU (% of one core)", value: cpuPercent { $0.ownCPUSeconds }, unit: .percent),
            Line(name: "generator peak RSS (MiB)", value: mebibytes(ownPeakResidentBytes), unit: .mebibytes),
        ]
        if configuration.serverPID != nil {
            lines += [
                Line(name: "server CPU (% of one core)", value: cpuPercent { $0.serverCPUSeconds }, unit: .percent),
                Line(
                    name: "server RSS at end (MiB)",
                    value: serverMemory.map { mebibytes($0.resident) },
                    unit: .mebibytes
                ),
                Line(name: "server peak RSS (MiB)", value: serverMemory.map { mebibytes($0.peak) }, unit: .mebibytes),
                Line(
                    name: "server RSS per connection (KiB)",
                    value: residentPerConnection.map { $0 / 1_024 },
                    unit: .kibibytes
                ),
                Line(
                    name: "other processes' CPU (% of one core)",
                    value: cpuPercent { $0.otherCPUSeconds }.map { max(0, $0) },
                    unit: .percent
                ),
            ]
        }
        return lines
    }

    /// A heading, the figures, and what went wrong first, if anything did.
    var table: String {
        var text = [
            "load: \(configuration.rooms) rooms × \(configuration.members) members, \(configuration.drawers) drawing "
                + "per room, and \(configuration.idleRooms) idle rooms; \(configuration.pointsPerFrame) points every "
                + "\(Int((configuration.presenceInterval.seconds * 1_000).rounded())) ms, a stroke every "
                + "\(configuration.framesPerStroke) frames; rooms \(configuration.roomPrefix)-*"
        ]
        for line in lines {
            text.append(line.name.padding(toLength: 44, withPad: " ", startingAt: 0) + format(line))
        }
        if let error = stats.connectError { text.append("first connect error: \(error)") }
        if let error = stats.firstError { text.append("first error: \(error)") }
        if let close = stats.unexpectedClose { text.append("first close by the server: \(close)") }
        return text.joined(separator: "\n")
    }

    /// `{"workload": "load", "figure": …, "value": …}` for each figure that has a value.
    var json: [String] {
        lines.compactMap { line in
            line.value.map { Figure(workload: "load", figure: line.name, value: $0).json }
        }
    }

    private var targetPushesPerSecond: Double {
        Double(configuration.rooms * configuration.drawers)
            / (configuration.presenceInterval.seconds
                * Double(configuration.framesPerStroke))
    }

    private var targetPresencePerSecond: Double {
        Double(configuration.rooms * configuration.drawers) / configuration.presenceInterval.seconds
    }

    private var measuredSeconds: Double? {
        guard let from = timeline.measuredFrom, let to = timeline.measuredTo else { return nil }
        return (to.instant - from.instant).seconds
    }

    private func percentiles(_ name: String, _ histogram: LatencyHistogram) -> [Line] {
        [
            Line(name: "\(name), p50 (ms)", value: histogram.milliseconds(at: 0.5), unit: .milliseconds),
            Line(name: "\(name), p90 (ms)", value: histogram.milliseconds(at: 0.9), unit: .milliseconds),
            Line(name: "\(name), p99 (ms)", value: histogram.milliseconds(at: 0.99), unit: .milliseconds),
            Line(name: "\(name), max (ms)", value: histogram.maximumMilliseconds, unit: .milliseconds),
            Line(name: "\(name), samples", value: Double(histogram.count), unit: .count),
        ]
    }

    private func cpuPercent(_ seconds: (LoadRun.Usage) -> Double?) -> Double? {
        guard let from = timeline.measuredFrom, let to = timeline.measuredTo, let start = seconds(from),
            let end = seconds(to), let window = measuredSeconds, window > 0
        else { return nil }
        return (end - start) / window * 100
    }

    /// What the server's resident memory grew by from before the first connection to the end of the
    /// measured window, per connection: the memory a connection and its share of rooms hold.
    private var residentPerConnection: Double? {
        guard let before = timeline.serverResidentBefore, let measured = timeline.serverResidentMeasured,
            configuration.connections > 0
        else { return nil }
        return Double(measured - before) / Double(configuration.connections)
    }

    private func mebibytes(_ bytes: Int) -> Double { Double(bytes) / Double(1 << 20) }

    private func format(_ line: Line) -> String {
        guard let value = line.value else { return "—".leftPadded(to: 12) }
        let text: String
        switch line.unit {
        case .count: text = String(Int(value))
        case .milliseconds: text = String(format: "%.1f", value)
        case .seconds, .perSecond: text = String(format: "%.1f", value)
        case .percent: text = String(format: "%.0f", value)
        case .mebibytes, .kibibytes: text = String(format: "%.0f", value)
        }
        return text.leftPadded(to: 12)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
