import InkwellGeometry
import InkwellSync

extension BoardState {
    /// The canonical bytes of what the board shows: equal drawings, equal bytes, on every replica and
    /// in every implementation (the browser client computes the same bytes; see `Conformance/`).
    ///
    /// Layout: a varint count of visible strokes, then bottom to top for each: the 16 replica bytes,
    /// seq and index as varints; colour `0xRRGGBBAA` as a varint; width, z and the six transform
    /// numbers as 8-byte big-endian doubles (−0 written as 0); a varint point count and each point's x
    /// and y as doubles; a varint 0, or 1 followed by one double per point for pressures, or for a text
    /// box 2 followed by the varint length of its text's UTF-8 bytes and the bytes, or for an image 3
    /// followed by the varint length of its blob's name and the name, its byte count as a varint, the
    /// varint length of its type's UTF-8 bytes and the bytes, and its height (each of these forms written 8
    /// higher for a highlighter's stroke or a filled one, which then writes its brush as a varint, 0 pen or
    /// 1 highlighter, and a varint 0, or 1 followed by its fill colour as a varint); a varint piece count
    /// and each piece's lower and upper as doubles. Varints are LEB128.
    public func canonicalEncoding() -> [UInt8] {
        canonicalEncoder().bytes
    }

    /// The FNV-1a fingerprint of ``canonicalEncoding()``, as 16 hex digits.
    public var canonicalHash: String {
        let digits = String(canonicalEncoder().fingerprint, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private func canonicalEncoder() -> CanonicalEncoder {
        var encoder = CanonicalEncoder()
        encoder.writeVarint(UInt64(stack.count))
        for stroke in drawing {
            stroke.id.encode(to: &encoder)
            encoder.writeVarint(UInt64(stroke.colour.rgba))
            for number in [stroke.width, stroke.z] { encoder.write(number) }
            let t = stroke.transform
            for number in [t.a, t.b, t.c, t.d, t.tx, t.ty] { encoder.write(number) }
            encoder.writeVarint(UInt64(stroke.points.count))
            for point in stroke.points {
                encoder.write(point.x)
                encoder.write(point.y)
            }
            // A highlighter's stroke, or one with a fill, says so after its form; others are as they
            // were before brushes and fills.
            let styled = stroke.brush != .pen || stroke.fill != nil
            let extra: UInt64 = styled ? 8 : 0
            if let image = stroke.image {
                encoder.writeVarint(3 + extra)
                encoder.writeBytes(image.blob)
                encoder.writeVarint(image.byteCount)
                encoder.writeBytes(image.type.utf8)
                encoder.write(image.height)
            } else if let text = stroke.text {
                encoder.writeVarint(2 + extra)
                encoder.writeBytes(text.utf8)
            } else if let pressures = stroke.pressures {
                encoder.writeVarint(1 + extra)
                for pressure in pressures { encoder.write(Double(pressure)) }
            } else {
                encoder.writeVarint(0 + extra)
            }
            if styled {
                encoder.writeVarint(UInt64(stroke.brush.rawValue))
                if let fill = stroke.fill {
                    encoder.writeVarint(1)
                    encoder.writeVarint(UInt64(fill.rgba))
                } else {
                    encoder.writeVarint(0)
                }
            }
            encoder.writeVarint(UInt64(stroke.pieces.count))
            for piece in stroke.pieces {
                encoder.write(piece.lower)
                encoder.write(piece.upper)
            }
        }
        return encoder
    }
}
