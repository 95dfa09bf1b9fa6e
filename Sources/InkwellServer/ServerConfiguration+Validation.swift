public import Foundation

extension ServerConfiguration {
    /// Checks what can be wrong before anything is opened: a public URL that is not an origin, a trusted proxy
    /// that is not an IP address or block, and a data directory inside the web root, whose files the
    /// static-file server would be one mistake from giving out.
    ///
    /// - Throws: ``ServerConfigurationError``.
    public func validate() throws {
        for url in publicURLs where !Self.isOrigin(url) {
            throw ServerConfigurationError.publicURL(url.absoluteString)
        }
        _ = try proxies()
        if let webRoot, Self.isInside(dataDirectory, webRoot) {
            throw ServerConfigurationError.dataInsideWebRoot(data: dataDirectory, webRoot: webRoot)
        }
    }

    /// Whether `url` is `http` or `https` with a host, no path beyond `/`, no query, fragment or user.
    static func isOrigin(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { return false }
        return (url.path.isEmpty || url.path == "/") && url.query == nil && url.fragment == nil
    }

    /// Whether `path` is `folder` or lies below it, once both are made absolute and their symbolic links and
    /// `..` resolved. A path that does not exist yet is resolved as far as it exists.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        let path = resolved(path).pathComponents
        let folder = resolved(folder).pathComponents
        return path.count >= folder.count && Array(path.prefix(folder.count)) == folder
    }

    /// `path` absolute, its existing part with symbolic links resolved, `.` and `..` applied.
    private static func resolved(_ path: String) -> URL {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: url.path), url.pathComponents.count > 1 {
            missing.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        url = url.resolvingSymlinksInPath()
        for component in missing { url.appendPathComponent(component) }
        return url.standardizedFileURL
    }
}
