/// A ``ServerConfiguration`` the server refuses to start with; the description says what to change.
public struct ServerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case publicURL
        case dataInsideWebRoot
        case tls
        case trustedProxy
    }

    private let code: Code
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// A public URL that is not an `http` or `https` origin.
    public static func publicURL(_ url: String) -> Self {
        Self(.publicURL, "the public URL \(url) is not an http or https origin (scheme, host and port only)")
    }

    /// The data directory is, or lies inside, the web root.
    public static func dataInsideWebRoot(data: String, webRoot: String) -> Self {
        Self(
            .dataInsideWebRoot,
            "the data directory \(data) lies inside the web root \(webRoot), which the server gives files from: "
                + "choose a data directory outside it"
        )
    }

    /// A trusted proxy that is not an IP address or block; `correction` is the block meant, when the text has
    /// bits set past its prefix.
    public static func trustedProxy(_ text: String, correction: String? = nil) -> Self {
        guard let correction else {
            return Self(.trustedProxy, "the trusted proxy \(text) is not an IP address or block such as 10.0.0.0/8")
        }
        return Self(
            .trustedProxy,
            "the trusted proxy \(text) has bits set past its prefix: did you mean \(correction)?"
        )
    }

    /// The certificate chain or private key could not be read or does not make a TLS configuration.
    public static func tls(_ detail: String) -> Self {
        Self(.tls, "TLS: \(detail)")
    }
}
