import Foundation
import Testing

/// A conformance-vector file under `Conformance/`: written when `INKWELL_WRITE_VECTORS=1`, otherwise
/// compared with what the code produces now, so the browser client's vectors never drift silently.
struct VectorFile {
    let name: String

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    var url: URL { Self.packageRoot.appendingPathComponent("Conformance").appendingPathComponent(name) }

    func check(_ object: Any, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        let text = String(decoding: data, as: UTF8.self) + "\n"
        if ProcessInfo.processInfo.environment["INKWELL_WRITE_VECTORS"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            print("wrote \(url.path)")
            return
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(
            committed == text,
            "Conformance/\(name) is stale: run INKWELL_WRITE_VECTORS=1 swift test and commit it",
            sourceLocation: sourceLocation
        )
    }
}
