public import InkwellStore

extension BlobHash {
    /// Parses a blob name from a URL, where only the canonical spelling is accepted: exactly 64 lowercase hex
    /// digits, so one blob has one URL (and one cache entry).
    public init?(urlComponent: some StringProtocol) {
        guard urlComponent.utf8.count == 64,
            urlComponent.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.init(hex: urlComponent)
    }
}
