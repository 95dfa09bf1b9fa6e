package import HTTPTypes

/// The headers every response carries, so a browser runs only the page's own files and gives nothing away.
///
/// The policy allows the page's own scripts and styles and nothing inline, `data:` and `blob:` images (the
/// favicon, PNG export), and connections to the server and its sync socket only. `Referrer-Policy` matters
/// because a room link can carry a capability in its query string, which a referrer would hand to any site
/// the page links to.
package enum SecurityHeaders {
    /// The Content-Security-Policy for a page whose sync socket is at `socketOrigin` (`ws://host:port`);
    /// nil leaves connections to the page's own origin (`'self'`), as a browser of CSP level 3 reads it.
    package static func contentSecurityPolicy(socketOrigin: String?) -> String {
        let connect = ["'self'", socketOrigin].compactMap { $0 }.joined(separator: " ")
        return [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data: blob:",
            "connect-src \(connect)",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// All of them, for a response to a page whose socket is at `socketOrigin`.
    package static func fields(socketOrigin: String?) -> HTTPFields {
        [
            .contentSecurityPolicy: contentSecurityPolicy(socketOrigin: socketOrigin),
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
            .xFrameOptions: "DENY",
        ]
    }
}

extension HTTPField.Name {
    static var referrerPolicy: Self { Self("Referrer-Policy")! }
    static var xFrameOptions: Self { Self("X-Frame-Options")! }
}
