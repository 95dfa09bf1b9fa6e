import CLibDeflate
import Synchronization

/// libdeflate's compressors and decompressors, kept for reuse: allocating one per body costs more than
/// deflating a small body (a compressor holds its hash tables, over 100 KiB at level 1). Each is used by
/// one thread at a time, as libdeflate requires: taken from the pool, used, given back.
enum LibDeflatePool {
    /// A compressor or decompressor. Unchecked: the pool hands each to one caller at a time, and no
    /// caller keeps it past its closure.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The most of each kind kept: about one per thread that compresses or inflates at once.
    private static let kept = 16

    private static let compressors = Mutex<[Int32: [Handle]]>([:])
    private static let decompressors = Mutex<[Handle]>([])

    /// Runs `body` with a compressor at `level`.
    static func withCompressor<Result>(level: Int32, _ body: (OpaquePointer) -> Result) -> Result {
        let pooled = compressors.withLock { $0[level]?.popLast() }
        guard let handle = pooled ?? libdeflate_alloc_compressor(level).map(Handle.init) else {
            fatalError("out of memory for a libdeflate compressor")
        }
        defer {
            let kept = compressors.withLock { pool in
                guard pool[level, default: []].count < Self.kept else { return false }
                pool[level, default: []].append(handle)
                return true
            }
            if !kept { libdeflate_free_compressor(handle.pointer) }
        }
        return body(handle.pointer)
    }

    /// Runs `body` with a decompressor.
    static func withDecompressor<Result>(_ body: (OpaquePointer) -> Result) -> Result {
        let pooled = decompressors.withLock { $0.popLast() }
        guard let handle = pooled ?? libdeflate_alloc_decompressor().map(Handle.init) else {
            fatalError("out of memory for a libdeflate decompressor")
        }
        defer {
            let kept = decompressors.withLock { pool in
                guard pool.count < Self.kept else { return false }
                pool.append(handle)
                return true
            }
            if !kept { libdeflate_free_decompressor(handle.pointer) }
        }
        return body(handle.pointer)
    }
}
