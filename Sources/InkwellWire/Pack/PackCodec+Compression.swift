import CompressNIO
import NIOCore

extension PackCodec {
    /// How a pack or snapshot body is compressed: not at all, or raw deflate (RFC 1951) at a zlib level
    /// and strategy.
    ///
    /// The level and strategy change only how hard zlib looks for repeats: every one of them writes the
    /// same format, which any inflater reads (the envelope records only "deflate"). So a level can be
    /// chosen per use and changed at any time, and old and new bytes read the same.
    ///
    /// Chosen by measurement (BENCHMARKS.md, "Choosing the compression"; `inkwell-bench engine --filter
    /// wire_deflate`). A body of whole strokes is mostly varint point residuals, which look random to
    /// LZ77: zlib's level 6 takes it to 50–52 % at about 45 MB/s, level 1 to 54–56 % at 70–80 MB/s, and
    /// inflating runs at 300–500 MB/s whatever the level. Higher levels and `Z_FILTERED` buy 1 % for
    /// more time; `Z_RLE` and Huffman-only run 1.6× faster than level 1 but leave 80 %; windows smaller
    /// than 32 KiB are slower and larger. A body of small changes (one point, one attribute) is mostly
    /// repeated headers, and any level takes it to a fifth.
    /// - ``deflate``, packs (and snapshots) on the wire: level 1. Bytes on the wire still count, but the
    ///   writer's time is on the path of every push and every catch-up; level 1 costs 8 % more bytes
    ///   than level 6 for 1.6× the speed. A body that deflate does not make smaller (a one-stroke pack,
    ///   the usual push at pen-up) goes plain.
    /// - ``snapshot``, snapshots stored on the device: level 1 only when a sample from the middle of
    ///   the body deflates to at most half its size, else not compressed. A local snapshot is rewritten whole by
    ///   ``Store/snapshotIfNeeded(room:document:policy:)`` and read at every cold open; for a board
    ///   of whole strokes, deflating it would cost 25 times the encoding and double the decoding to
    ///   save 1.5 bytes a point of local disk. A board of small changes shrinks fivefold: worth it.
    public struct Compression: Sendable, Hashable, CustomStringConvertible {
        /// zlib's level (1–9), or nil for no compression.
        package let level: Int32?
        package let strategy: Strategy
        /// The base-two logarithm of the largest window zlib may use (9–15).
        package let windowBits: Int32
        /// Deflate only if a sample of the body shrinks to at most half.
        package let onlyIfHalved: Bool

        /// zlib's strategies (`Z_DEFAULT_STRATEGY`, `Z_FILTERED`, `Z_RLE`, `Z_HUFFMAN_ONLY`).
        package enum Strategy: Sendable, Hashable, CaseIterable {
            case `default`, filtered, rle, huffmanOnly
        }

        /// Not compressed.
        public static let none = Compression(level: nil, strategy: .default, windowBits: 15, onlyIfHalved: false)
        /// Packs and snapshots on the wire: raw deflate at zlib's level 1, unless that is no smaller.
        public static let deflate = Compression(level: 1, strategy: .default, windowBits: 15, onlyIfHalved: false)
        /// Snapshots stored on the device: level 1 if a sample shrinks to at most half, else none.
        public static let snapshot = Compression(level: 1, strategy: .default, windowBits: 15, onlyIfHalved: true)

        /// Raw deflate at `level` (1–9) with `strategy`, in a window of at most 2^`windowBits` bytes.
        package static func deflate(level: Int32, strategy: Strategy = .default, windowBits: Int32 = 15) -> Compression
        {
            precondition((1...9).contains(level), "zlib levels are 1–9")
            precondition((9...15).contains(windowBits), "zlib windows are 2^9–2^15 bytes")
            return Compression(level: level, strategy: strategy, windowBits: windowBits, onlyIfHalved: false)
        }

        public var description: String {
            guard let level else { return "none" }
            return "deflate level \(level)" + (strategy == .default ? "" : " \(strategy)")
                + (windowBits == 15 ? "" : " window \(windowBits)") + (onlyIfHalved ? " if halved" : "")
        }
    }

    /// `plain` compressed as `compression` says: the bytes, and whether they are deflated (else they are
    /// `plain` itself).
    ///
    /// - Complexity: O(`plain.count`).
    package static func compress(_ plain: [UInt8], _ compression: Compression) -> (bytes: [UInt8], deflated: Bool) {
        guard compression.level != nil, !plain.isEmpty else { return (plain, false) }
        if compression.onlyIfHalved {
            // From the middle: a snapshot's columns of seqs and stamps come first and always deflate
            // well; its operations, most of its bytes, follow and decide.
            let start = max(0, plain.count / 2 - (8 << 10))
            let sample = Array(plain[start..<min(plain.count, start + (16 << 10))])
            guard deflate(sample, compression).count * 2 <= sample.count else { return (plain, false) }
        }
        let deflated = deflate(plain, compression)
        return deflated.count < plain.count ? (deflated, true) : (plain, false)
    }

    /// `plain` raw-deflated as `compression` says (which must not be ``Compression/none``).
    ///
    /// - Complexity: O(`plain.count`).
    package static func deflate(_ plain: [UInt8], _ compression: Compression) -> [UInt8] {
        guard let level = compression.level else { return plain }
        let strategy: ZlibConfiguration.Strategy =
            switch compression.strategy {
            case .default: .default
            case .filtered: .filtered
            case .rle: .rle
            case .huffmanOnly: .huffmanOnly
            }
        // A 32 KiB window and memLevel 8 are zlib's defaults; a smaller body gets a smaller window and
        // hash table, which zlib must clear before it starts: a one-change pack would spend longer
        // clearing 256 KiB of state than compressing. Any inflater reads any window up to 32 KiB.
        var window: Int32 = 9
        while window < compression.windowBits && (1 << window) < plain.count { window += 1 }
        let configuration = ZlibConfiguration(
            windowSize: window,
            compressionLevel: level,
            memoryLevel: min(8, max(1, window - 7)),
            strategy: strategy
        )
        let compressor = try! ZlibCompressor(algorithm: .deflate, configuration: configuration)
        var input = ByteBuffer(bytes: plain)
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        try! compressor.deflate(from: &input, to: &output, flush: .finish)
        return Array(output.readableBytesView)
    }
}
