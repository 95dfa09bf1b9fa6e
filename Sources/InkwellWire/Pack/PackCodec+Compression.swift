import CLibDeflate

extension PackCodec {
    /// How a pack or snapshot body is compressed: not at all, or raw deflate (RFC 1951) at a level of
    /// libdeflate's (1–12).
    ///
    /// The level changes only how hard the compressor looks for repeats: every level writes the same
    /// format, which any inflater reads (the envelope records only "deflate"), the page's
    /// `DecompressionStream` included. So a level can be chosen per use and changed at any time, and old
    /// and new bytes read the same.
    ///
    /// libdeflate compresses and inflates whole buffers, which is all Inkwell ever has: a pack or a
    /// snapshot is built, then sent; received, then read. Against zlib's streams it needs no stream state
    /// set up and torn down per body, and its loops are faster: 2.3 times zlib's level 1 deflating a
    /// snapshot body, 2.0 times inflating it (BENCHMARKS.md, "Live ink, libdeflate, and the like-for-like
    /// table again"; `inkwell-bench engine --filter wire_packs_deflate`). A body of whole strokes is mostly
    /// varint point residuals, which look random to LZ77: level 1 takes it to about 53 %. A body of small
    /// changes (one point, one attribute) is mostly repeated headers, and any level takes it to a fifth.
    /// - ``deflate``, packs (and snapshots) on the wire: level 1, and only when that saves at least a fifth
    ///   of the body (``worthwhileShare``): every receiver inflates what one writer deflated, and a body
    ///   that deflate barely shrinks (a one-stroke pack, the usual push at pen-up) costs each of them
    ///   more time than its few bytes save.
    /// - ``snapshot``, snapshots stored on the device: level 1 only when a sample from the middle of
    ///   the body deflates to at most half its size, else not compressed. A local snapshot is rewritten whole by
    ///   ``Store/snapshotIfNeeded(room:document:policy:)`` and read at every cold open; for a board
    ///   of whole strokes, deflating it would cost many times the encoding and double the decoding to
    ///   save 1.5 bytes a point of local disk. A board of small changes shrinks fivefold: worth it.
    public struct Compression: Sendable, Hashable, CustomStringConvertible {
        /// libdeflate's level (1–12), or nil for no compression.
        package let level: Int32?
        /// Deflate only if a sample of the body shrinks to at most half.
        package let onlyIfHalved: Bool

        /// Not compressed.
        public static let none = Compression(level: nil, onlyIfHalved: false)
        /// Packs and snapshots on the wire: raw deflate at level 1, when that saves at least a fifth.
        public static let deflate = Compression(level: 1, onlyIfHalved: false)
        /// Snapshots stored on the device: level 1 if a sample shrinks to at most half, else none.
        public static let snapshot = Compression(level: 1, onlyIfHalved: true)

        /// Raw deflate at libdeflate's `level` (1–12).
        package static func deflate(level: Int32) -> Compression {
            precondition((1...12).contains(level), "libdeflate's levels are 1–12")
            return Compression(level: level, onlyIfHalved: false)
        }

        public var description: String {
            guard let level else { return "none" }
            return "deflate level \(level)" + (onlyIfHalved ? " if halved" : "")
        }
    }

    /// The share of a body's bytes that deflate must save for the body to go deflated: a fifth.
    package static let worthwhileShare = (numerator: 1, denominator: 5)

    /// `plain` compressed as `compression` says: the bytes, and whether they are deflated (else they are
    /// `plain` itself, which is also what a body that deflate would not shrink by ``worthwhileShare``
    /// gets).
    ///
    /// - Complexity: O(`plain.count`).
    package static func compress(_ plain: [UInt8], _ compression: Compression) -> (bytes: [UInt8], deflated: Bool) {
        guard let level = compression.level, !plain.isEmpty else { return (plain, false) }
        if compression.onlyIfHalved {
            // From the middle: a snapshot's columns of seqs and stamps come first and always deflate
            // well; its operations, most of its bytes, follow and decide.
            let start = max(0, plain.count / 2 - (8 << 10))
            let sample = Array(plain[start..<min(plain.count, start + (16 << 10))])
            guard deflate(sample, compression).count * 2 <= sample.count else { return (plain, false) }
        }
        // libdeflate gives up as soon as the output would pass the room it has: a body not worth
        // deflating costs no more than finding that out.
        let worthwhile = plain.count - plain.count * worthwhileShare.numerator / worthwhileShare.denominator
        guard let deflated = deflate(plain, level: level, within: worthwhile) else { return (plain, false) }
        return (deflated, true)
    }

    /// `plain` raw-deflated as `compression` says (which must not be ``Compression/none``).
    ///
    /// - Complexity: O(`plain.count`).
    package static func deflate(_ plain: [UInt8], _ compression: Compression) -> [UInt8] {
        guard let level = compression.level else { return plain }
        return deflate(plain, level: level, within: nil)!
    }

    /// `plain` raw-deflated at `level`, or nil when that takes more than `limit` bytes (no limit: deflate's
    /// worst case, which always fits).
    private static func deflate(_ plain: [UInt8], level: Int32, within limit: Int?) -> [UInt8]? {
        LibDeflatePool.withCompressor(level: level) { compressor in deflate(plain, with: compressor, within: limit) }
    }

    private static func deflate(_ plain: [UInt8], with compressor: OpaquePointer, within limit: Int?) -> [UInt8]? {
        let capacity = limit ?? libdeflate_deflate_compress_bound(compressor, plain.count)
        guard capacity > 0 else { return nil }
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            written = plain.withUnsafeBytes { input in
                libdeflate_deflate_compress(compressor, input.baseAddress, input.count, buffer.baseAddress, capacity)
            }
            count = written
        }
        return written == 0 ? nil : output
    }

    /// A raw deflate stream inflated to exactly `size` bytes: streams that inflate to more or fewer bytes,
    /// streams cut short and streams followed by other bytes throw.
    ///
    /// - Complexity: O(`size`).
    package static func inflate(_ compressed: [UInt8], size: Int) throws(WireError) -> [UInt8] {
        var read = 0
        var result = LIBDEFLATE_BAD_DATA
        // At least one byte of room, so that an empty body's buffer has an address.
        let plain = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, count in
            result = compressed.withUnsafeBytes { input in
                LibDeflatePool.withDecompressor { decompressor in
                    // No actual output count: libdeflate then refuses a stream that inflates to fewer
                    // than `size` bytes (LIBDEFLATE_SHORT_OUTPUT), as it refuses one that inflates to more.
                    libdeflate_deflate_decompress_ex(
                        decompressor,
                        input.baseAddress,
                        input.count,
                        buffer.baseAddress,
                        size,
                        &read,
                        nil
                    )
                }
            }
            count = result == LIBDEFLATE_SUCCESS ? size : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS:
            // libdeflate stops at the stream's end: bytes after it are not part of the declared body.
            guard read == compressed.count else { throw .invalidField("pack.body_size") }
            return plain
        case LIBDEFLATE_SHORT_OUTPUT, LIBDEFLATE_INSUFFICIENT_SPACE:
            throw .invalidField("pack.body_size")
        default:
            throw .malformed("pack body compression")
        }
    }
}
