/// Reads protocol-buffer bytes written the way ``WireWriter`` writes them, for the few messages that a
/// sync or a cold open reads by the thousand.
///
/// It is a fast path, not a decoder: it reads only the canonical form (known fields, in field-number
/// order, each once, with their declared wire types) and returns `nil` at anything else, so that the
/// generated decoder, with its checks and its errors, has the last word on every other input.
@frozen public struct WireReader {
    @usableFromInline let bytes: ArraySlice<UInt8>
    /// Where the next read starts.
    public var index: Int { position }
    @usableFromInline var position: Int
    @usableFromInline let end: Int

    @inlinable public init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes[...]
        self.position = start
        self.end = end ?? bytes.count
    }

    /// A reader of `bytes` (or of `start..<end` within them), at the indices of the array they are a
    /// slice of: a slice of a larger message is read where it lies, without a copy.
    @inlinable public init(_ bytes: ArraySlice<UInt8>, from start: Int? = nil, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start ?? bytes.startIndex
        self.end = end ?? bytes.endIndex
    }

    @inlinable public var isAtEnd: Bool { position == end }

    /// Keys, lengths and most residuals take one byte: that case is inlined, the rest is not.
    @inline(__always)
    @inlinable public mutating func varint() -> UInt64? {
        if position < end {
            let byte = bytes[position]
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return longVarint()
    }

    @inline(never)
    @usableFromInline mutating func longVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < end, shift < 64 {
            let byte = bytes[position]
            position += 1
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
    @inlinable public mutating func key(_ field: UInt64, _ wireType: UInt64) -> Bool {
        let start = position
        if position < end, varint() == field << 3 | wireType { return true }
        position = start
        return false
    }

    @inlinable public mutating func fixed32() -> UInt32? {
        guard end - position >= 4 else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 { value |= UInt32(bytes[position + offset]) << UInt32(8 * offset) }
        position += 4
        return value
    }

    @inlinable public mutating func fixed64() -> UInt64? {
        guard end - position >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[position + offset]) << UInt64(8 * offset) }
        position += 8
        return value
    }

    /// The next field's key, if it is `field` with wire type 2 (length-delimited); the reader moves past
    /// it only then.
    @inline(__always)
    @inlinable public mutating func lengthDelimited(_ field: UInt64) -> Range<Int>? {
        let start = position
        guard position < end, let key = varint(), key == field << 3 | 2, let length = varint(),
            length <= UInt64(end - position)
        else {
            position = start
            return nil
        }
        let range = position..<position + Int(length)
        position = range.upperBound
        return range
    }

    /// The UTF-8 text at `range`, or nil if it is not valid UTF-8. ASCII, what names almost always
    /// are, is taken after one pass over the bytes; `String(validating:as:)` costs a fifth of decoding a
    /// one-point change, and every pack entry names its room.
    @inlinable public static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            let text = UnsafeBufferPointer(rebasing: buffer[range])
            if text.allSatisfy({ $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
            return String(validating: text, as: UTF8.self)
        }
    }
}
