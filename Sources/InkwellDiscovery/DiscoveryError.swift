#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why discovery on the local network could not start.
public enum DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The mDNS port is held by a responder that does not share it.
    case portHeld(UInt16)
    /// A system call failed.
    case system(String, code: Int32)

    static func system(_ call: String) -> DiscoveryError { .system(call, code: errno) }

    public var description: String {
        switch self {
        case .portHeld(let port):
            "port \(port) is held by another mDNS responder (a running avahi-daemon?); stop it, or share the URL by hand"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }
}
