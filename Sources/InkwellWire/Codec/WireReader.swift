/// Reads protocol-buffer bytes written the way ``WireWriter`` writes them, for the few messages that a
/// sync or a cold open reads by the thousand.
///
/// It is a fast path, not a decoder: it reads only the canonical form (known fields, in field-number
/// order, each once, with their declared wire types) and returns `nil` at anything else, so that the
/// generated decoder, with its checks and its errors, has the last word on every other input.
struct WireReader {
    private let bytes: [UInt8]
    private(set) var index: Int
    private let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.index = start
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { index == end }

    /// Keys, lengths and most residuals take one byte: that case is inlined, the rest is not.
    @inline(__always)
    mutating func varint() -> UInt64? {
        if index < end {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                return UInt64(byte)
            }
        }
        return longVarint()
    }

    @inline(never)
    private mutating func longVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < end, shift < 64 {
            let byte = bytes[index]
            index += 1
            // The tenth byte may carry only the top bit.
            if shift == 63, byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    /// Moves past the next key if it is `field` with `wireType`; else stays put.
    @inline(__always)
    mutating func key(_ field: UInt64, _ wireType: UInt64) -> Bool {
        let start = index
        if index < end, varint() == field << 3 | wireType { return true }
        index = start
        return false
    }

    mutating func fixed32() -> UInt32? {
        guard end - index >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 { value |= UInt32(bytes[index + offset]) << UInt32(8 * offset) }
        index += 4
        return value
    }

    mutating func fixed64() -> UInt64? {
        guard end - index >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
        index += 8
        return value
    }

    /// The next field's key, if it is `field` with wire type 2 (length-delimited); the reader moves past
    /// it only then.
    @inline(__always)
    mutating func lengthDelimited(_ field: UInt64) -> Range<Int>? {
        let start = index
        guard index < end, let key = varint(), key == field << 3 | 2, let length = varint(),
            length <= UInt64(end - index)
        else {
            index = start
            return nil
        }
        let range = index..<index + Int(length)
        index = range.upperBound
        return range
    }

    /// The UTF-8 text at `range`, or nil if it is not valid UTF-8. ASCII, what names almost always
    /// are, is taken after one pass over the bytes; `String(validating:as:)` costs a fifth of decoding a
    /// one-point change, and every pack entry names its room.
    static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            let text = UnsafeBufferPointer(rebasing: buffer[range])
            if text.allSatisfy({ $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
            return String(validating: text, as: UTF8.self)
        }
    }

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
