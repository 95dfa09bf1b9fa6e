package import Foundation

/// The page's files (`index.html`, `app.css`, `sw.js`, `js/`), which SwiftPM copies into a resource folder
/// beside the executable, so a built `inkwell` serves the page whatever its working directory.
///
/// Looked up by hand, not through `Bundle.module`, which traps when the folder is missing: a server without
/// its page should say so and serve the rest.
package enum WebClient {
    /// The folder SwiftPM copies this target's resources into: `<package>_<target>`.
    package static let resourceFolder = "inkwell_InkwellWeb" + resourceSuffix

    /// The first of ``candidates`` that holds `index.html`, or `nil`.
    package static func directory() -> URL? {
        candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }

    /// Where the page may be, in order: beside the running executable (symbolic links resolved, then as
    /// started), then in the build folder it was built in, where `Bundle.module` looks too. Never the current
    /// directory.
    package static var candidates: [URL] {
        var folders: [URL] = []
        #if os(Linux)
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        #endif
        if let executable = Bundle.main.executableURL {
            folders.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
            folders.append(executable.deletingLastPathComponent())
        }
        folders.append(buildFolder)
        var seen: Set<String> = []
        return folders.flatMap(resourceDirectories(in:)).filter { seen.insert($0.path).inserted }
    }

    /// `.build/debug` or `.build/release` of the package this file was compiled in (the default scratch path).
    private static var buildFolder: URL {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        #if DEBUG
        return package.appendingPathComponent(".build/debug")
        #else
        return package.appendingPathComponent(".build/release")
        #endif
    }

    #if canImport(Darwin)
    private static let resourceSuffix = ".bundle"

    /// A bundle on Apple platforms may keep its files under `Contents/Resources`.
    private static func resourceDirectories(in folder: URL) -> [URL] {
        let bundle = folder.appendingPathComponent(resourceFolder).standardizedFileURL
        return [bundle, bundle.appendingPathComponent("Contents/Resources")]
    }
    #else
    private static let resourceSuffix = ".resources"

    private static func resourceDirectories(in folder: URL) -> [URL] {
        [folder.appendingPathComponent(resourceFolder).standardizedFileURL]
    }
    #endif
}
