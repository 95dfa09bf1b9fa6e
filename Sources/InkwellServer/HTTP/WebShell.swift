import Crypto
import Foundation
import Synchronization

/// The web client's files under a versioned path, so that browsers keep them without asking.
///
/// The page is some 150 ES modules and a stylesheet, with no build step. Served as they are, with
/// `no-cache`, every reload revalidated each one through the service worker: about half a second before
/// a 2,000,000-point board could start loading (BENCHMARKS.md, "The web client at 2,000,000 points").
/// Now `index.html` names the entry module and the stylesheet under `/v/VERSION/`, VERSION being a hash of
/// every module's and the stylesheet's bytes. Relative imports resolve under the same prefix, so the
/// whole graph is versioned without rewriting a module; the server answers those paths as immutable,
/// and a new version of any file is a new path. `index.html` itself stays `no-cache`.
///
/// The version is worked out again when a file's size or modification time changes, so a server that
/// serves a working copy follows its edits. It looks at the files (some 150 `stat`s) at most once every
/// ``recheckInterval``, not on every page load.
final class WebShell: Sendable {
    /// How long a version stands before the files are looked at again.
    static let recheckInterval = Duration.seconds(1)

    /// A file's size and modification time: what says it may have changed.
    private struct Stamp: Equatable {
        let size: Int
        let modified: Double
    }

    private struct State {
        var stamps: [String: Stamp] = [:]
        var version = ""
        /// When the files were last looked at.
        var checked: ContinuousClock.Instant?
    }

    let root: String
    private let state = Mutex(State())

    init(root: String) {
        self.root = root
    }

    /// The version of the files served under `/v/`, 16 hex digits, from the files as they were at most
    /// ``recheckInterval`` ago: each file is looked at (not read unless one changed). For the page, which
    /// is asked for once a load.
    var version: String {
        let now = ContinuousClock.now
        let fresh = state.withLock { state in
            state.checked.map { now - $0 < Self.recheckInterval } == true ? state.version : nil
        }
        if let fresh { return fresh }
        let stamps = currentStamps()
        let known = state.withLock { state in
            guard state.stamps == stamps else { return String?.none }
            state.checked = now
            return state.version
        }
        if let known { return known }
        var hash = SHA256()
        for path in stamps.keys.sorted() {
            hash.update(data: Data(path.utf8))
            hash.update(data: Data([0]))
            hash.update(data: (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))) ?? Data())
        }
        let version = hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
        state.withLock { $0 = State(stamps: stamps, version: version, checked: now) }
        return version
    }

    /// `index.html` with its entry module and stylesheet named under the current version; nil when the web
    /// root has none.
    func index() -> [UInt8]? {
        guard let page = FileManager.default.contents(atPath: root + "/index.html") else { return nil }
        let prefix = "/v/\(version)"
        let text = String(decoding: page, as: UTF8.self)
            .replacingOccurrences(of: #"src="/js/"#, with: #"src="\#(prefix)/js/"#)
            .replacingOccurrences(of: #"href="/app.css""#, with: #"href="\#(prefix)/app.css""#)
        return Array(text.utf8)
    }

    /// The path a `/v/VERSION/…` path names, and whether VERSION is the current one; nil for any other
    /// path.
    func unversioned(_ path: String) -> (path: String, current: Bool)? {
        guard path.hasPrefix("/v/") else { return nil }
        let rest = path.dropFirst(3)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let named = String(rest[..<slash])
        let file = String(rest[slash...])
        guard file == "/app.css" || file.hasPrefix("/js/") else { return nil }
        return (file, named == lastVersion)
    }

    /// The version the page was last given (worked out now if it never was): a module's request compares
    /// with it instead of looking at every file again.
    private var lastVersion: String {
        let known = state.withLock(\.version)
        return known.isEmpty ? version : known
    }

    /// The modules and the stylesheet, by path under the root, with their stamps.
    private func currentStamps() -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        let manager = FileManager.default
        func note(_ path: String) {
            guard let attributes = try? manager.attributesOfItem(atPath: root + "/" + path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return }
            stamps[path] = Stamp(
                size: (attributes[.size] as? Int) ?? 0,
                modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            )
        }
        note("app.css")
        if let enumerator = manager.enumerator(atPath: root + "/js") {
            for case let path as String in enumerator where path.hasSuffix(".js") { note("js/" + path) }
        }
        return stamps
    }
}
