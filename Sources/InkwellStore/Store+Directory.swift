public import Foundation

extension Store {
    /// The file a store keeps in its directory.
    public static let fileName = "store.sqlite"

    /// Opens or creates the store kept in `directory`, creating the directory if it is missing: how
    /// command-line peers take `--data DIR`.
    ///
    /// - Throws: what ``init(path:configuration:)`` throws, or the file system's error when the
    ///   directory cannot be made.
    public convenience init(directory: String, configuration: Configuration = Configuration()) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try self.init(
            path: URL(fileURLWithPath: directory).appendingPathComponent(Self.fileName).path,
            configuration: configuration
        )
    }
}
