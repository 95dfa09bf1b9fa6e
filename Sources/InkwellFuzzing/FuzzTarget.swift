/// A decoder under fuzzing: what it takes, and what must hold of whatever bytes it is given.
///
/// Each check decodes the bytes and either gets a clean error (``FuzzVerdict/rejected``) or a value
/// that survives a round trip: encoded and decoded again, it is the same value and encodes to the same
/// bytes (only the bytes, for a value holding a NaN, which equals nothing). The same checks run under
/// libFuzzer (`Scripts/fuzz.sh`) and in `swift test` over the seed corpus (`Fuzz/Corpus/<target>/`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// One change, as a pack or a snapshot carries it.
    case change
    /// A signed pack as a client pushes it and the server stores it.
    case pack
    /// A document snapshot's body, as a snapshot's parts carry it.
    case snapshot
    /// A frame a client sends the server.
    case clientFrame = "client-frame"
    /// A frame the server sends a client.
    case serverFrame = "server-frame"
    /// Messages of the JSON stroke protocol (`interop-protocol.md`), one a line, as one app sends them.
    case interop
    /// A file of the shared-folder transport (``FolderLog``), as another machine's copy leaves it.
    case folder

    /// Decodes `bytes` as this target's input and checks what must hold.
    public func check(_ bytes: [UInt8]) -> FuzzVerdict {
        switch self {
        case .change: Self.checkChange(bytes)
        case .pack: Self.checkPack(bytes)
        case .snapshot: Self.checkSnapshot(bytes)
        case .clientFrame: Self.checkClientFrame(bytes)
        case .serverFrame: Self.checkServerFrame(bytes)
        case .interop: Self.checkInterop(bytes)
        case .folder: Self.checkFolder(bytes)
        }
    }
}

/// What one input did to a decoder.
public enum FuzzVerdict: Hashable, Sendable {
    /// A clean error: nothing decoded.
    case rejected
    /// Decoded, and every round trip it allowed held (`roundTrips` of them).
    case decoded(roundTrips: Int)
    /// Something that must hold did not: a bug.
    case failed(String)
}

extension FuzzVerdict {
    /// Whether `first`, a decoded value, survives a round trip: encoded and decoded again, it is the same
    /// value and encodes to the same bytes. A value holding a NaN equals nothing, not even the same bytes
    /// decoded twice (`==` on one array's own storage says true without looking): for one, the same
    /// bytes again is all that can be asked.
    static func roundTrips<Value: Equatable>(
        _ first: Value,
        encode: (Value) -> [UInt8],
        decode: ([UInt8]) -> Value?
    ) -> Bool {
        let encoded = encode(first)
        guard let again = decode(encoded), encode(again) == encoded else { return false }
        if first == again { return true }
        guard let other = decode(encoded) else { return false }
        return again != other
    }

    /// The bytes as lowercase hex, for a failure's message.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
