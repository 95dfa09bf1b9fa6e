import Foundation
import InkwellSync

extension ChangeColumns {
    /// The columns as `ChangeColumns` stores them: seqs and stamps as differences, which are small.
    ///
    /// - Complexity: O(changes + operations).
    var wire: WireChangeColumns {
        var wire = WireChangeColumns()
        wire.schemaVersion = schemaVersion
        wire.replicas = replicas.map { Data($0.bytes) }
        wire.replicaIndexes = replicaOf
        var lastSeq = [UInt64](repeating: 0, count: replicas.count)
        wire.seqDeltas = zip(replicaOf, seqs).map { replica, seq in
            defer { lastSeq[Int(replica)] = seq }
            return Int64(bitPattern: seq &- lastSeq[Int(replica)])
        }
        var lastStamp: UInt64 = 0
        wire.stampDeltas = stamps.map { stamp in
            defer { lastStamp = stamp }
            return Int64(bitPattern: stamp &- lastStamp)
        }
        wire.operationCounts = operationCounts
        var start = 0
        wire.operationSizes = operationEnds.map { end in
            defer { start = end }
            return UInt32(end - start)
        }
        wire.operations = Data(operations)
        wire.wholeChanges = whole.map { Data($0.bytes) }
        wire.wholePositions = whole.map { UInt32($0.position) }
        return wire
    }

    /// The columns `wire` holds, checked so that every change laid out by column is one that
    /// ``ChangeCodec/decode(_:)`` would accept in its bytes: restoring them cannot fail.
    ///
    /// - Throws: ``WireError`` for columns of different lengths, sizes that do not add up, an unknown
    ///   or repeated replica, a seq of 0 or past ``WireLimits/maximumSeq``, a change too large, or whole
    ///   changes out of order.
    /// - Complexity: O(changes + operations).
    init(document: String, type: DocumentType, decoding wire: WireChangeColumns) throws(WireError) {
        self.init(document: document, type: type, schemaVersion: wire.schemaVersion)
        let count = wire.replicaIndexes.count
        guard wire.seqDeltas.count == count, wire.stampDeltas.count == count, wire.operationCounts.count == count,
            wire.wholePositions.count == wire.wholeChanges.count
        else { throw .invalidField("snapshot.columns") }
        // Any schema: the columns hold operations as bytes, for their type to read or keep.
        if count > 0 {
            guard hasValidNames else { throw .invalidField("snapshot.document") }
        }
        replicas.reserveCapacity(wire.replicas.count)
        for bytes in wire.replicas {
            guard let replica = ReplicaID(bytes: bytes) else { throw .invalidField("snapshot.columns.replicas") }
            replicas.append(replica)
        }
        guard Set(replicas).count == replicas.count else { throw .invalidField("snapshot.columns.replicas") }

        operations = [UInt8](wire.operations)
        operationEnds.reserveCapacity(wire.operationSizes.count)
        var end = 0
        for size in wire.operationSizes {
            end += Int(size)
            operationEnds.append(end)
        }
        guard end == operations.count else { throw .invalidField("snapshot.columns.operations") }

        replicaOf.reserveCapacity(count)
        seqs.reserveCapacity(count)
        stamps.reserveCapacity(count)
        operationCounts.reserveCapacity(count)
        var lastSeq = [UInt64](repeating: 0, count: replicas.count)
        var lastStamp: UInt64 = 0
        var nextOperation = 0
        for index in 0..<count {
            let replica = wire.replicaIndexes[index]
            guard replica < replicas.count else { throw .invalidField("snapshot.columns.replica_indexes") }
            let seq = lastSeq[Int(replica)] &+ UInt64(bitPattern: wire.seqDeltas[index])
            guard seq >= 1, seq <= WireLimits.maximumSeq else { throw .invalidField("snapshot.columns.seq") }
            lastSeq[Int(replica)] = seq
            lastStamp &+= UInt64(bitPattern: wire.stampDeltas[index])
            let operationCount = Int(wire.operationCounts[index])
            guard operationCount <= WireLimits.maximumOperationsPerChange else { throw .tooLarge("operations") }
            guard operationCount <= operationEnds.count - nextOperation else {
                throw .invalidField("snapshot.columns.operation_counts")
            }
            var size =
                ChangeCodec.headerSize(
                    ChangeID(replica: replicas[Int(replica)], seq: seq),
                    stamp: lastStamp,
                    documentBytes: documentBytes,
                    schemaVersion: schemaVersion
                ) + (typeName.isEmpty ? 0 : WireWriter.fieldSize(typeName.utf8.count))
            for operation in nextOperation..<nextOperation + operationCount {
                let bytes = operationEnds[operation] - (operation == 0 ? 0 : operationEnds[operation - 1])
                size += 1 + WireWriter.varintSize(UInt64(bytes)) + bytes
            }
            guard size <= WireLimits.maximumChangeBytes else { throw .tooLarge("change") }
            nextOperation += operationCount
            replicaOf.append(replica)
            seqs.append(seq)
            stamps.append(lastStamp)
            operationCounts.append(UInt32(operationCount))
        }
        guard nextOperation == operationEnds.count else { throw .invalidField("snapshot.columns.operation_counts") }

        let total = count + wire.wholeChanges.count
        var previous = -1
        whole.reserveCapacity(wire.wholeChanges.count)
        for (position, bytes) in zip(wire.wholePositions, wire.wholeChanges) {
            guard Int(position) > previous, Int(position) < total else {
                throw .invalidField("snapshot.columns.whole_positions")
            }
            previous = Int(position)
            whole.append((Int(position), [UInt8](bytes)))
        }
    }
}
