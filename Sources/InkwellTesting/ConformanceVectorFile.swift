public import Foundation
public import Testing

/// A conformance-vector file under `Conformance/`: written when `INKWELL_WRITE_VECTORS=1`, otherwise
/// compared with what the code produces now, so the browser client's vectors never drift silently.
public struct ConformanceVectorFile: Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }

    /// The package's root folder, from this file's place in `Sources/InkwellTesting`.
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    public var url: URL { Self.packageRoot.appendingPathComponent("Conformance").appendingPathComponent(name) }

    /// Writes `object` as sorted, pretty-printed JSON when asked to, or expects the committed file to hold
    /// exactly that.
    public func check(_ object: Any, sourceLocation: SourceLocation = #_sourceLocation) throws {
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
