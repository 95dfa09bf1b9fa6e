/// A WebSocket frame built byte by byte (RFC 6455 §5.2), valid or deliberately not: any opcode,
/// reserved bits, FIN, mask or none, and a header length that may differ from the payload it carries.
struct RawFrame {
    static let continuation: UInt8 = 0x0
    static let text: UInt8 = 0x1
    static let binary: UInt8 = 0x2
    static let close: UInt8 = 0x8
    static let ping: UInt8 = 0x9
    static let pong: UInt8 = 0xA

    var fin = true
    /// RSV1, RSV2, RSV3 as the three bits 0b100, 0b010, 0b001.
    var reserved: UInt8 = 0
    var opcode: UInt8
    var payload: [UInt8]
    /// Clients must mask; nil sends the payload in the clear.
    var maskKey: [UInt8]?
    /// The length the header announces, when it should lie about the payload that follows.
    var announcedLength: UInt64?

    init(
        opcode: UInt8,
        payload: [UInt8],
        fin: Bool = true,
        reserved: UInt8 = 0,
        maskKey: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D],
        announcedLength: UInt64? = nil
    ) {
        self.opcode = opcode
        self.payload = payload
        self.fin = fin
        self.reserved = reserved
        self.maskKey = maskKey
        self.announcedLength = announcedLength
    }

    /// A masked binary frame.
    static func binary(_ payload: [UInt8], fin: Bool = true, mask: [UInt8]) -> RawFrame {
        RawFrame(opcode: binary, payload: payload, fin: fin, maskKey: mask)
    }

    /// The frame on the wire.
    var bytes: [UInt8] {
        let header = header
        guard let maskKey else { return header + payload }
        return header + Self.mask(payload, with: maskKey)
    }

    /// XORs `payload` with the repeated key, eight bytes at a time: the test masks megabytes, and a
    /// debug build is slow byte by byte.
    static func mask(_ payload: [UInt8], with key: [UInt8]) -> [UInt8] {
        var masked = payload
        let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(key[$1 & 3]) << (8 * UInt64($1)) }
        masked.withUnsafeMutableBytes { buffer in
            let words = buffer.count / 8
            for index in 0..<words {
                let value = buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                buffer.storeBytes(of: value ^ word.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
            for index in (words * 8)..<buffer.count { buffer[index] ^= key[index & 3] }
        }
        return masked
    }

    /// Everything before the payload: flags, opcode, length and masking key.
    var header: [UInt8] {
        let length = announcedLength ?? UInt64(payload.count)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (reserved & 0x7) << 4 | (opcode & 0x0F)]
        if length <= 125 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: length >> (56 - 8 * UInt64($0))) }
        }
        if let maskKey { bytes += maskKey }
        return bytes
    }

    /// A close frame's payload: the code, big-endian, then the reason.
    static func closePayload(_ code: UInt16, reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }
}

/// A frame the server sent (servers never mask).
struct ReceivedFrame {
    var fin: Bool
    var opcode: UInt8
    var payload: [UInt8]

    /// Takes one whole frame off the front of `buffer`, or nil while it is incomplete.
    static func take(from buffer: inout [UInt8]) -> ReceivedFrame? {
        guard buffer.count >= 2 else { return nil }
        var length = UInt64(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = UInt64(buffer[2]) << 8 | UInt64(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            offset = 10
        }
        let masked = buffer[1] & 0x80 != 0
        let maskOffset = offset
        if masked { offset += 4 }
        guard length <= UInt64(Int.max - offset), buffer.count >= offset + Int(length) else { return nil }
        var payload = Array(buffer[offset..<(offset + Int(length))])
        if masked {
            let key = Array(buffer[maskOffset..<(maskOffset + 4)])
            for index in payload.indices { payload[index] ^= key[index & 3] }
        }
        let frame = ReceivedFrame(fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, payload: payload)
        buffer.removeFirst(offset + Int(length))
        return frame
    }

    /// A close frame's code, if it carries one.
    var closeCode: UInt16? {
        guard opcode == RawFrame.close, payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }

    var closeReason: String {
        guard opcode == RawFrame.close, payload.count > 2 else { return "" }
        return String(decoding: payload[2...], as: UTF8.self)
    }
}
