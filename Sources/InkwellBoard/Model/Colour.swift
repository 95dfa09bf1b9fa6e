/// An sRGB colour with straight (not premultiplied) alpha, 8 bits a channel.
public struct Colour: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Packed as `0xRRGGBBAA`: the form used in encodings.
    public var rgba: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }

    public init(rgba: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: rgba >> 24),
            green: UInt8(truncatingIfNeeded: rgba >> 16),
            blue: UInt8(truncatingIfNeeded: rgba >> 8),
            alpha: UInt8(truncatingIfNeeded: rgba)
        )
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque: for SVG and logs.
    public var hex: String {
        let digits = String(rgba, radix: 16)
        let full = String(repeating: "0", count: 8 - digits.count) + digits
        return "#" + (alpha == 255 ? String(full.prefix(6)) : full)
    }

    public static let black = Colour(red: 0, green: 0, blue: 0)
}
