import Foundation

/// The files of the web root that the server gives out: the page, its stylesheet, its service worker and its
/// modules, and nothing else. Whatever else lies there (the page's tests, its benchmark, dotfiles, a data
/// directory by mistake) answers 404.
package enum WebFiles {
    /// The files at the top of the web root, `/` being `index.html`.
    static let topLevel: Set<String> = ["/", "/index.html", "/app.css", "/sw.js"]
    /// Folders served only with ``ServerConfiguration/servesTestPages``.
    static let testFolders: Set<String> = ["test", "bench"]

    /// Whether the request path `path` (percent-encoded, as on the request line) names a file the server gives
    /// out: one of ``topLevel``, a `.js` file under `js/`, or with `testPages` any file under ``testFolders``.
    /// No segment may be empty or start with `.`, which rules out dotfiles, `.` and `..` however encoded.
    package static func serves(_ path: String, testPages: Bool = false) -> Bool {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0"), !decoded.contains("\\") else {
            return false
        }
        if topLevel.contains(decoded) { return true }
        guard decoded.hasPrefix("/") else { return false }
        let segments = decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { return false }
        switch segments[0] {
        case "js": return segments.last!.hasSuffix(".js")
        case let folder where testFolders.contains(String(folder)): return testPages
        default: return false
        }
    }
}
