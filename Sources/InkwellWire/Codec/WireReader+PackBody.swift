import InkwellSync

extension WireReader {
    /// The entries of an encoded `PackBody`: each entry's room (empty when absent) and change bytes.
    static func packBody(_ bytes: [UInt8]) -> [(room: String, change: [UInt8])]? {
        var reader = WireReader(bytes)
        var entries: [(room: String, change: [UInt8])] = []
        // Entries of strokes take a few hundred bytes; one-point changes, about sixty.
        entries.reserveCapacity(bytes.count / 256)
        // The entries of a pack almost always share one room: its text is made once.
        var previousRoom: (bytes: Range<Int>, text: String)?
        while !reader.isAtEnd {
            guard let entry = reader.lengthDelimited(1) else { return nil }
            var inner = WireReader(bytes, from: entry.lowerBound, to: entry.upperBound)
            var room = ""
            if let range = inner.lengthDelimited(1) {
                if let previousRoom, bytes[range].elementsEqual(bytes[previousRoom.bytes]) {
                    room = previousRoom.text
                } else {
                    // Invalid UTF-8 is for the generated decoder to refuse.
                    guard let text = Self.text(bytes, range) else { return nil }
                    room = text
                    previousRoom = (range, text)
                }
            }
            var change: [UInt8] = []
            if let range = inner.lengthDelimited(2) { change = Array(bytes[range]) }
            guard inner.isAtEnd else { return nil }
            entries.append((room, change))
        }
        return entries
    }
}
