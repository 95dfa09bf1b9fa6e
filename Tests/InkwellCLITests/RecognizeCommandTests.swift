import Foundation
import Testing

@Suite struct RecognizeCommandTests {
    /// Writes `lines` to a fresh temporary file and returns its path.
    static func file(_ lines: [String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recognize-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// A JSON stroke through `points`, a point every 10 ms.
    static func stroke(_ points: [(Double, Double)]) -> String {
        "[" + points.enumerated().map { "[\($1.0), \($1.1), \($0 * 10)]" }.joined(separator: ", ") + "]"
    }

    /// `corners` joined by straight runs of `steps` points each.
    static func polyline(_ corners: [(Double, Double)], steps: Int = 10) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for index in 1..<corners.count {
            let (x0, y0) = corners[index - 1]
            let (x1, y1) = corners[index]
            for step in 0..<steps {
                let t = Double(step) / Double(steps)
                points.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))
            }
        }
        return points + [corners[corners.count - 1]]
    }

    static let circle = (0...40).map { index in
        let angle = Double(index) / 40 * 2 * Double.pi
        return (100 + 50 * cos(angle), 100 + 50 * sin(angle))
    }

    @Test func printsOneLinePerGestureAndNamesMalformedLines() throws {
        let path = try Self.file([
            #"{"id": "line", "strokes": [\#(Self.stroke(Self.polyline([(0, 0), (100, 2)])))]}"#,
            #"{"id": "box", "strokes": [\#(Self.stroke(Self.polyline([(0, 0), (0, 60), (90, 60), (90, 0), (0, 0)])))]}"#,
            #"{"id": "not closed", "strokes": [[[0, 0]"#,
            #"{"id": "round", "strokes": [\#(Self.stroke(Self.circle))]}"#,
            #"{"id": "bad point", "strokes": [[[0, 0], ["x", 1]]]}"#,
            "",
            #"{"id": 7, "strokes": [\#(Self.stroke(Self.polyline([(0, 0), (40, 80), (80, 0)])))]}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try InkwellProcess.run(["recognize", path])
        #expect(result.status != 0, "malformed lines make the command fail at the end")
        #expect(result.standardError.contains("line 3: not a JSON object"), "\(result.standardError)")
        #expect(result.standardError.contains("line 5:"), "\(result.standardError)")
        #expect(result.standardError.contains("2 malformed lines skipped"), "\(result.standardError)")
        let objects = try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { "\($0["id"]!)" } == ["line", "box", "round", "7"])
        #expect(objects.map { $0["shape"] as? String } == ["line", "rectangle", "ellipse", "none"])
        let line = try #require(objects[0]["geometry"] as? [String: Any])
        #expect((line["points"] as? [[Double]])?.count == 2)
        let box = try #require(objects[1]["geometry"] as? [String: Any])
        #expect((box["points"] as? [[Double]])?.count == 4)
        let round = try #require(objects[2]["geometry"] as? [String: Any])
        let radius = try #require(round["radiusX"] as? Double)
        #expect(abs(radius - 50) < 1)
        #expect((objects[3]["geometry"] as? [String: Any])?.isEmpty == true)
    }

    @Test func aWellFormedFileSucceeds() throws {
        let path = try Self.file([#"{"id": "a", "strokes": [\#(Self.stroke(Self.circle))]}"#])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try InkwellProcess.run(["recognize", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(#""shape": "ellipse""#))
    }

    @Test func aMissingFileIsAClearError() throws {
        let result = try InkwellProcess.run(["recognize", "/nonexistent/gestures.jsonl"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("cannot read /nonexistent/gestures.jsonl"), "\(result.standardError)")
    }

    @Test func helpListsTheCommand() throws {
        let result = try InkwellProcess.run(["--help"])
        #expect(result.standardOutput.contains("recognize"))
    }
}
