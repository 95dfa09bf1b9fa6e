/// A domain name, as labels: `["_inkwell", "_tcp", "local"]`. Compared without regard to ASCII case,
/// as DNS does.
public struct DNSName: Hashable, Sendable, CustomStringConvertible {
    public var labels: [String]

    public init(labels: [String]) {
        self.labels = labels
    }

    /// `a.b.local` (a trailing dot is allowed).
    public init(_ text: String) {
        labels = text.split(separator: ".").map(String.init)
    }

    public var description: String { labels.joined(separator: ".") }

    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        lhs.labels.map { $0.lowercased() } == rhs.labels.map { $0.lowercased() }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(labels.map { $0.lowercased() })
    }

    /// The name with `label` in front: an instance of a service type.
    public func prefixed(by label: String) -> DNSName {
        DNSName(labels: [label] + labels)
    }

    /// Written uncompressed; labels longer than 63 bytes are cut.
    func write(to bytes: inout [UInt8]) {
        for label in labels {
            let utf8 = Array(label.utf8.prefix(63))
            bytes.append(UInt8(utf8.count))
            bytes += utf8
        }
        bytes.append(0)
    }
}
