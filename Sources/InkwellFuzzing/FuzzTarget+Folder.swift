import InkwellWire

/// The shared folder's file format: whatever a folder holds (a copy cut anywhere, damage, another
/// program's file) reads as its whole records up to a clean stop, and those records, written again, are
/// the very bytes they were read from; reading on from any record's start finds the same records.
extension FuzzTarget {
    static func checkFolder(_ bytes: [UInt8]) -> FuzzVerdict {
        let chunk = FolderLogReader.read(bytes[...], at: 0)
        guard chunk.next <= bytes.count else {
            return .failed("read past the end of \(FuzzVerdict.hex(bytes))")
        }
        guard let first = chunk.entries.first else {
            return chunk.next == 0 ? .rejected : .failed("moved on without a record: \(FuzzVerdict.hex(bytes))")
        }
        guard case .header(let room, let replica) = first.record, first.offset == FolderLog.fileHeaderBytes else {
            return .failed("a file whose first record is not its header: \(FuzzVerdict.hex(bytes))")
        }
        var written = FolderLog.fileStart(room: room, replica: replica)
        for entry in chunk.entries.dropFirst() {
            guard entry.offset == written.count else {
                return .failed("a record's offset is not where the one before it ends: \(FuzzVerdict.hex(bytes))")
            }
            written += FolderLog.encode(entry.record)
        }
        guard written.elementsEqual(bytes.prefix(chunk.next)) else {
            return .failed("the records written again are other bytes: \(FuzzVerdict.hex(bytes))")
        }
        // Read on from the middle record, as a reader that had read the ones before it does.
        let middle = chunk.entries[chunk.entries.count / 2]
        if middle.offset > FolderLog.fileHeaderBytes {
            let rest = FolderLogReader.read(bytes[middle.offset...], at: middle.offset)
            guard rest.entries == Array(chunk.entries[(chunk.entries.count / 2)...]), rest.next == chunk.next,
                rest.stop == chunk.stop
            else {
                return .failed("reading on from offset \(middle.offset) finds other records: \(FuzzVerdict.hex(bytes))")
            }
        }
        return .decoded(roundTrips: chunk.entries.count)
    }
}
