public import Foundation

/// A folder for one test, removed when the test lets go of it.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// Makes `inkwell-NAME-UUID` in the system's temporary folder.
    public init(_ name: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("inkwell-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// A path inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
