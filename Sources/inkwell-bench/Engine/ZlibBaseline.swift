import CompressNIO
import NIOCore

/// zlib's raw deflate through compress-nio, as packs were deflated before libdeflate: the baseline the
/// `wire_packs_deflate` figures compare libdeflate with, in the same run.
enum ZlibBaseline {
    /// `plain` raw-deflated at zlib's `level`, with a window and hash table no larger than the body needs.
    static func deflate(_ plain: [UInt8], level: Int32) -> [UInt8] {
        var window: Int32 = 9
        while window < 15 && (1 << window) < plain.count { window += 1 }
        let configuration = ZlibConfiguration(
            windowSize: window,
            compressionLevel: level,
            memoryLevel: min(8, max(1, window - 7)),
            strategy: .default
        )
        let compressor = try! ZlibCompressor(algorithm: .deflate, configuration: configuration)
        var input = ByteBuffer(bytes: plain)
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        try! compressor.deflate(from: &input, to: &output, flush: .finish)
        return Array(output.readableBytesView)
    }

    /// A raw deflate stream inflated by zlib into a buffer of `size` bytes.
    static func inflate(_ compressed: [UInt8], size: Int) -> [UInt8] {
        var compressed = ByteBuffer(bytes: compressed)
        var plain = ByteBufferAllocator().buffer(capacity: size)
        let decompressor = CompressionAlgorithm.deflate().decompressor
        try! decompressor.startStream()
        try! decompressor.streamInflate(from: &compressed, to: &plain)
        try! decompressor.finishStream()
        return Array(plain.readableBytesView)
    }
}
