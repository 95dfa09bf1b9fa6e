/// A block of IP addresses, `ADDRESS/PREFIX` or a single `ADDRESS`, as `--trusted-proxy` takes it.
package struct AddressBlock: Hashable, Sendable, CustomStringConvertible {
    /// The block's first address: no bits set past the prefix.
    package let base: IPAddress
    /// Leading bits every address of the block shares, counted over the 128 bits of ``IPAddress``
    /// (an IPv4 `/24` is 120).
    package let prefixLength: Int

    /// Reads `text`: an IPv4 or IPv6 address, with a prefix length up to its width or without one.
    ///
    /// - Throws: ``ServerConfigurationError/trustedProxy(_:correction:)`` for anything else, and for a block
    ///   with bits set past its prefix (`10.0.0.1/8`): its prefix or its address is then a mistake.
    package init(_ text: String) throws(ServerConfigurationError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { throw .trustedProxy(text) }
        let width = parts[0].contains(":") ? 128 : 32
        var length = width
        if parts.count == 2 {
            let digits = parts[1].utf8
            guard (1...3).contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }),
                let given = Int(parts[1]), given <= width
            else { throw .trustedProxy(text) }
            length = given
        }
        prefixLength = length + (128 - width)
        base = address.masked(to: prefixLength)
        guard base == address else { throw .trustedProxy(text, correction: description) }
    }

    /// Whether `address` lies in the block.
    package func contains(_ address: IPAddress) -> Bool {
        address.masked(to: prefixLength) == base
    }

    /// The block as `--trusted-proxy` takes it, with its prefix.
    package var description: String {
        "\(base)/\(base.isIPv4 ? prefixLength - 96 : prefixLength)"
    }
}
