import Foundation
import NIOSSL

extension SyncServer {
    /// The server's TLS context from PEM files: the certificate chain (leaf first) and its private key, TLS 1.2
    /// at least, HTTP/1.1 offered by ALPN. Read and checked here, so a wrong file stops the server before it
    /// listens rather than failing every handshake.
    static func tlsContext(_ files: ServerConfiguration.TLSFiles) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(
                Array(try Data(contentsOf: URL(fileURLWithPath: files.certificateChain)))
            )
        } catch {
            throw ServerConfigurationError.tls("could not read a PEM certificate chain from \(files.certificateChain)")
        }
        guard !chain.isEmpty else {
            throw ServerConfigurationError.tls("no certificate in \(files.certificateChain)")
        }
        do {
            key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
        } catch {
            throw ServerConfigurationError.tls("could not read a PEM private key from \(files.privateKey)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        do {
            // Building the context checks that the key belongs to the certificate.
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw ServerConfigurationError.tls(
                "the private key does not match the certificate, or is not usable: \(error)"
            )
        }
    }
}
