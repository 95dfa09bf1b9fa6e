public import Foundation

/// The data sets in `../shared/data`, beside the package: read in place, never copied into it.
///
/// Tests that need a file run only where it is; elsewhere they are skipped, saying so. In CI
/// (`CI=true`), where the data is always provided, ``requireInCI(_:)`` turns a missing file into a failure,
/// so a moved or missing data set cannot pass as a green run.
public enum SharedData {
    /// The package root, from this file's path (Sources/InkwellTesting/SharedData.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Whether this process runs in CI.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A file of the shared data folder, by its path inside it (e.g. `shapes/dollar1-dev.jsonl`).
    public static func url(_ path: String) -> URL {
        packageRoot.appendingPathComponent("../shared/data").appendingPathComponent(path).standardizedFileURL
    }

    /// Whether the file is there; prints once per call that the tests needing it are skipped if not.
    public static func isPresent(_ path: String) -> Bool {
        let present = FileManager.default.fileExists(atPath: url(path).path)
        if !present {
            print("skipped: the shared data file \(url(path).path) is not on this machine; in CI this fails")
        }
        return present
    }

    /// The files of `paths` that are missing, where that is an error: in CI. Elsewhere, none.
    public static func missingInCI(_ paths: [String]) -> [String] {
        guard isCI else { return [] }
        return paths.filter { !FileManager.default.fileExists(atPath: url($0).path) }
    }
}
