/// An image on the board as its `addImage` names it: the blob holding its bytes, and the box it fills before
/// its transform. The bytes travel apart from the board (see docs/ARCHITECTURE.md, "Images on the board").
public struct BoardImage: Hashable, Sendable {
    /// The blob's name: the SHA-256 of the bytes uploaded (sealed, in an encrypted room).
    public var blob: [UInt8]
    /// The blob's size in bytes.
    public var byteCount: UInt64
    /// Its media type: one of ``types``.
    public var type: String
    /// The box it fills, in board pixels.
    public var width: Double
    public var height: Double

    public init(blob: [UInt8], byteCount: UInt64, type: String, width: Double, height: Double) {
        self.blob = blob
        self.byteCount = byteCount
        self.type = type
        self.width = width
        self.height = height
    }

    /// The types a board shows: raster formats every browser decodes, and none that can carry script.
    public static let types: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The largest side of the box an image fills.
    public static let maximumSide = 100_000.0

    /// The largest blob an image names: 2⁵³ − 1, the most a page counts exactly.
    public static let maximumByteCount: UInt64 = (1 << 53) - 1

    /// The blob's name as 64 lowercase hex digits: its address on the server.
    public var blobHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(blob.count * 2)
        for byte in blob {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether a board takes it in: a 32-byte name, a size, a known type, a box of finite positive sides.
    public var isValid: Bool {
        blob.count == 32 && byteCount >= 1 && byteCount <= Self.maximumByteCount && Self.types.contains(type)
            && width.isFinite && width > 0 && width <= Self.maximumSide && height.isFinite && height > 0
            && height <= Self.maximumSide
    }
}
