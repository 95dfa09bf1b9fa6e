import Foundation
import InkwellGeometry
import InkwellTesting

/// The human-drawn gestures of the $1 study (Wobbrock, Wilson and Li, UIST '07), read from the shared data folder.
///
/// The file is never copied into the project: its licence allows measurement only. Tests that need it are enabled
/// only when it is present.
struct DollarDataSet {
    struct Gesture {
        var id: String
        var label: String
        var subject: String
        var points: [Point]
        var times: [Double]

        /// The shape the gesture should be recognised as: three labels map directly, a circle is an ellipse and
        /// the other twelve labels are free strokes that must stay ink.
        var expected: String {
            switch label {
            case "rectangle", "triangle", "arrow": label
            case "circle": "ellipse"
            default: "none"
            }
        }
    }

    static let path = "shapes/dollar1-dev.jsonl"
    static let url = SharedData.url(path)

    /// Whether the file is there; says so once if not.
    static let isPresent = SharedData.isPresent(path)

    /// Read once per test process.
    static let shared: DollarDataSet = try! DollarDataSet(contentsOf: url)

    var gestures: [Gesture]

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        gestures = try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let stroke = (object["strokes"] as! [[[Double]]])[0]
            return Gesture(
                id: object["id"] as! String,
                label: object["label"] as! String,
                subject: object["subject"] as! String,
                points: stroke.map { Point($0[0], $0[1]) },
                times: stroke.map { $0[2] }
            )
        }
    }
}

/// Counts of (expected, recognised) kinds, with the figures the targets are stated in.
struct Confusion {
    static let kinds = ["line", "rectangle", "ellipse", "triangle", "arrow", "diamond", "none"]

    private(set) var counts: [String: [String: Int]] = [:]

    mutating func add(expected: String, recognised: String) {
        counts[expected, default: [:]][recognised, default: 0] += 1
    }

    func count(_ expected: String, _ recognised: String) -> Int { counts[expected]?[recognised] ?? 0 }

    func total(expected: String) -> Int { Self.kinds.reduce(0) { $0 + count(expected, $1) } }

    func total(recognised: String) -> Int { Self.kinds.reduce(0) { $0 + count($1, recognised) } }

    /// Of the strokes meant as `kind`, the fraction recognised as `kind` (for "none": left alone).
    func recall(_ kind: String) -> Double { Double(count(kind, kind)) / Double(max(1, total(expected: kind))) }

    /// Of the strokes recognised as `kind`, the fraction meant as `kind`.
    func precision(_ kind: String) -> Double { Double(count(kind, kind)) / Double(max(1, total(recognised: kind))) }

    /// A Markdown table, one column per recognised kind: one row per expected kind present, with recall and
    /// precision, or one row per label in `rows`.
    func markdown(rows: [String]? = nil) -> String {
        guard let rows else { return markdown(kinds: Self.kinds.filter { total(expected: $0) > 0 }) }
        var lines = ["| label \\ recognised | " + Self.kinds.joined(separator: " | ") + " |"]
        lines.append("| --- |" + String(repeating: " ---: |", count: Self.kinds.count))
        for label in rows {
            lines.append("| \(label) | " + Self.kinds.map { String(count(label, $0)) }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    private func markdown(kinds rows: [String]) -> String {
        var lines = ["| drawn \\ recognised | " + Self.kinds.joined(separator: " | ") + " | recall | precision |"]
        lines.append("| --- |" + String(repeating: " ---: |", count: Self.kinds.count + 2))
        for kind in rows {
            let cells = Self.kinds.map { String(count(kind, $0)) }
            let precision = total(recognised: kind) > 0 ? percent(precision(kind)) : "–"
            lines.append(
                "| \(kind) | " + cells.joined(separator: " | ") + " | \(percent(recall(kind))) | \(precision) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    private func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
}
