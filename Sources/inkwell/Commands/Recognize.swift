import ArgumentParser
import Foundation
import InkwellGeometry

extension Inkwell {
    /// Runs the shape recogniser over recorded gestures, as the board does on pen-up.
    struct Recognize: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recognise shapes in gestures stored as JSON lines.",
            discussion: """
                Each line is a JSON object with an "id" and "strokes": a list of strokes, each a list of [x, y] or \
                [x, y, t] points. The first stroke is recognised; a gesture of several strokes is left as ink. \
                Prints one JSON line per gesture: {"id": …, "shape": …, "geometry": {…}}. Malformed lines are \
                reported on standard error with their line number and skipped; the command then fails.
                """
        )

        @Argument(help: "The JSON-lines file to read.")
        var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw RecognizeError.unreadableFile(file)
            }
            let recognizer = ShapeRecognizer()
            var malformed = 0
            for (index, line) in String(decoding: data, as: UTF8.self).split(
                separator: "\n",
                omittingEmptySubsequences: false
            ).enumerated() {
                guard !line.allSatisfy(\.isWhitespace) else { continue }
                do {
                    let gesture = try Gesture(json: line)
                    let shape = gesture.strokes.count == 1 ? recognizer.recognize(gesture.strokes[0]) : .none
                    print(
                        "{\"id\": \(gesture.idJSON), \"shape\": \"\(shape.kind)\", \"geometry\": \(shape.geometryJSON())}"
                    )
                } catch {
                    malformed += 1
                    let reason = (error as? GestureError)?.reason ?? "unreadable"
                    FileHandle.standardError.write(Data("line \(index + 1): \(reason)\n".utf8))
                }
            }
            if malformed > 0 { throw RecognizeError.malformedLines(malformed) }
        }
    }
}

extension Inkwell.Recognize {
    /// Why the command failed, in words safe to show.
    struct RecognizeError: Error, CustomStringConvertible {
        private enum Code {
            case unreadableFile
            case malformedLines
        }

        private let code: Code
        let description: String

        static func unreadableFile(_ path: String) -> RecognizeError {
            RecognizeError(code: .unreadableFile, description: "cannot read \(path): no such file, or not readable")
        }

        static func malformedLines(_ count: Int) -> RecognizeError {
            RecognizeError(
                code: .malformedLines,
                description: "\(count) malformed line\(count == 1 ? "" : "s") skipped"
            )
        }
    }

    /// Why one line is not a gesture.
    struct GestureError: Error {
        let reason: String
    }

    /// One line of the input: an id and its strokes.
    struct Gesture {
        /// The id as JSON, as given (a string or a number), or `null`.
        var idJSON: String
        var strokes: [[Point]]

        init(json line: Substring) throws {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw GestureError(reason: "not a JSON object")
            }
            switch object["id"] {
            case let id as String:
                let encoded = (try? JSONSerialization.data(withJSONObject: [id])).map {
                    String(decoding: $0, as: UTF8.self)
                }
                idJSON = encoded.map { String($0.dropFirst().dropLast()) } ?? "null"
            case let id as NSNumber:
                idJSON = id.stringValue
            default:
                idJSON = "null"
            }
            guard let strokes = object["strokes"] as? [Any], !strokes.isEmpty else {
                throw GestureError(reason: "\"strokes\" must be a non-empty list of strokes")
            }
            self.strokes = try strokes.enumerated().map { (number, stroke) in
                guard let points = stroke as? [Any] else {
                    throw GestureError(reason: "stroke \(number + 1) is not a list of points")
                }
                return try points.map { entry in
                    guard let values = entry as? [Any], values.count == 2 || values.count == 3,
                        let x = (values[0] as? NSNumber)?.doubleValue, let y = (values[1] as? NSNumber)?.doubleValue,
                        x.isFinite, y.isFinite
                    else {
                        throw GestureError(reason: "stroke \(number + 1) has a point that is not [x, y] or [x, y, t]")
                    }
                    return Point(x, y)
                }
            }
        }
    }
}
