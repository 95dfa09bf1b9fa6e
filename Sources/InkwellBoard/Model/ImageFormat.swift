/// What an image file is, read from its first bytes rather than from its name: a board shows only the
/// types in ``BoardImage/types``, and a file that claims one and is another is refused before it is sent.
public enum ImageFormat {
    /// The file's media type, or `nil` when it is none a board shows.
    public static func type(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "image/webp"
        }
        return nil
    }

    /// The pixel size a PNG or GIF header states, or `nil` (other formats, or a header cut short).
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch type(of: bytes) {
        case "image/png" where bytes.count >= 24:
            let bigEndian = { (start: Int) in bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (bigEndian(16), bigEndian(20))
        case "image/gif" where bytes.count >= 10:
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        default:
            return nil
        }
    }
}
