import Foundation
import InkwellGeometry
import InkwellSync
import SwiftProtobuf
import Testing

@testable import InkwellBoard
@testable import InkwellWire

/// A snapshot holds its changes by column (`ChangeColumns`): these tests hold it to giving back
/// every change exactly as it came, in order, whether laid out by column or kept whole, and to
/// refusing columns that do not add up before anything is restored from them.
@Suite struct ChangeColumnsTests {
    static let carol = ReplicaID(high: 0xCA20_1000_0000_0003, low: 0x0000_0000_0000_00C3)

    /// Random changes by three replicas, some with several operations, in a shuffled order with
    /// stamps that go back and forth, and a share of changes that cannot be laid out by column.
    static func mixedChanges(using generator: inout SplitMix64) -> (changes: [[UInt8]], laidOut: Int) {
        var model = WireBoardModel()
        var made: [[UInt8]] = []
        var laidOut = 0
        var seqs: [ReplicaID: UInt64] = [:]
        for _ in 0..<Int.random(in: 1...120, using: &generator) {
            let replica = [Samples.alice, Samples.bob, carol].randomElement(using: &generator)!
            let seq = seqs[replica, default: 0] + 1
            seqs[replica] = seq
            let stamp = Stamp(rawValue: UInt64.random(in: 0...UInt64.max >> 8, using: &generator))
            var change = model.nextChange(seq: seq, by: replica, stamp: stamp, using: &generator)
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                let more = model.randomOperation(at: OpStamp(stamp: stamp, change: change.id), using: &generator)
                change.payload.operations += more.operations
            }
            let bytes = ChangeCodec.encode(change)
            switch Int.random(in: 0..<12, using: &generator) {
            case 0:
                made.append(Self.withLongSeq(bytes, seq: seq))
            case 1:
                // A field this reader does not know, kept by the generated decoder's unknown fields.
                made.append(bytes + [0x78, 0x01])
            case 2:
                change.payload.board = "another"
                made.append(ChangeCodec.encode(change))
            case 3:
                made.append(Self.withLongFirstOperationLength(bytes, of: change))
            default:
                made.append(bytes)
                laidOut += 1
            }
        }
        made.shuffle(using: &generator)
        return (made, laidOut)
    }

    /// `value` as a varint one byte longer than it needs: the same number, not written canonically.
    static func paddedVarint(_ value: UInt64) -> [UInt8] {
        var writer = WireWriter(capacity: 11)
        writer.varint(value)
        var padded = writer.bytes
        padded[padded.count - 1] |= 0x80
        return padded + [0]
    }

    /// `bytes` with its seq written in one byte more than it needs: the same change, not canonical.
    static func withLongSeq(_ bytes: [UInt8], seq: UInt64) -> [UInt8] {
        let start = 18
        let length = 1 + WireWriter.varintSize(seq)
        return Array(bytes[..<start]) + [0x10] + paddedVarint(seq) + Array(bytes[(start + length)...])
    }

    /// `bytes` (the encoding of `change`) with its first operation's length written in one byte more
    /// than it needs.
    static func withLongFirstOperationLength(_ bytes: [UInt8], of change: BoardChange) -> [UInt8] {
        let start =
            ChangeCodec.headerSize(
                change.id,
                stamp: change.stamp.rawValue,
                documentBytes: change.payload.board.rawValue.utf8.count,
                schemaVersion: WireSchema.current
            ) + 1
        let length = UInt64(OperationCodec.bytes(change.payload.operations[0], in: change.id).count)
        return Array(bytes[..<start]) + paddedVarint(length) + Array(bytes[(start + WireWriter.varintSize(length))...])
    }

    @Test func everyChangeComesBackExactlyAsItCameInOrder() throws {
        let seed = wireTestSeed("everyChangeComesBackExactlyAsItCameInOrder")
        var generator = SplitMix64(seed: seed)
        for round in 0..<60 {
            let (changes, laidOut) = Self.mixedChanges(using: &generator)
            let snapshot = DocumentSnapshot(
                room: "r",
                document: "main",
                type: .unnamed,
                schemaVersion: 1,
                cut: Cut(),
                changes: changes
            )
            #expect(snapshot.changes == changes, "seed \(seed), round \(round)")
            #expect(snapshot.columns.laidOutCount == laidOut, "seed \(seed), round \(round)")
            var expected = BoardState(board: "main")
            for bytes in changes { expected.apply(try ChangeCodec.decode(bytes, as: BoardEdit.self)) }
            for compression in [PackCodec.Compression.none, .deflate] {
                let encoded = snapshot.encoded(compression: compression)
                let decoded = try DocumentSnapshot(decoding: encoded)
                #expect(decoded.changes == changes, "seed \(seed), round \(round)")
                #expect(decoded.encoded(compression: compression) == encoded, "seed \(seed), round \(round)")
                let restored = try decoded.restore(as: BoardState.self)
                #expect(restored.canonicalEncoding() == expected.canonicalEncoding(), "seed \(seed), round \(round)")
                #expect(restored.changeCount == expected.changeCount)
            }
        }
    }

    @Test func extendingASnapshotKeepsItsChangesAndAddsTheNewOnes() throws {
        var generator = SplitMix64(seed: 41)
        let (first, _) = Self.mixedChanges(using: &generator)
        let (later, _) = Self.mixedChanges(using: &generator)
        let decoded = try DocumentSnapshot(
            decoding: DocumentSnapshot(
                room: "r",
                document: "main",
                type: .unnamed,
                schemaVersion: 1,
                cut: Cut(),
                changes: first
            ).encoded()
        )
        let extended = decoded.extended(with: later, to: Cut())
        #expect(extended.changes == first + later)
        #expect(try DocumentSnapshot(decoding: extended.encoded()).changes == first + later)
    }

    @Test func aSnapshotOfSchemaOneIsStillRead() throws {
        let changes = Samples.changes.map(ChangeCodec.encode)
        var wire = WireSnapshot()
        wire.schemaVersion = 1
        wire.room = "r"
        wire.document = "main"
        let body = PackCodec.body(changes.lazy.map { (room: "", change: $0) })
        wire.state = Data(body)
        wire.stateSize = UInt32(body.count)
        let decoded = try DocumentSnapshot(decoding: try wire.serializedBytes())
        #expect(decoded.changes == changes)
        var expected = BoardState(board: "main")
        for change in Samples.changes { expected.apply(change) }
        #expect(try decoded.restore(as: BoardState.self).canonicalEncoding() == expected.canonicalEncoding())
    }

    @Test func aNewerSnapshotSchemaIsRefusedNotReadAsEmpty() throws {
        var wire = try WireSnapshot(
            serializedBytes: DocumentSnapshot(room: "r", document: "main", changes: Samples.changes).encoded()
        )
        wire.schemaVersion = DocumentSnapshot.schemaVersion + 1
        #expect(throws: WireError.futureSchema(DocumentSnapshot.schemaVersion + 1)) {
            try DocumentSnapshot(decoding: try wire.serializedBytes())
        }
    }

    /// Each way the columns can fail to add up, applied to good columns: each is refused.
    @Test(arguments: ColumnDamage.allCases)
    func columnsThatDoNotAddUpAreRefused(_ damage: ColumnDamage) throws {
        let changes =
            Samples.changes.map(ChangeCodec.encode) + [Self.withLongSeq(ChangeCodec.encode(Samples.changes[0]), seq: 1)]
        let snapshot = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: Cut(),
            changes: changes
        )
        var columns = snapshot.columns.wire
        #expect(columns.replicas.count == 2 && columns.wholeChanges.count == 1)
        damage.apply(to: &columns)
        var wire = try WireSnapshot(serializedBytes: snapshot.encoded(compression: .none))
        let state: [UInt8] = try columns.serializedBytes()
        wire.state = Data(state)
        wire.stateSize = UInt32(state.count)
        #expect(throws: WireError.self) { try DocumentSnapshot(decoding: try wire.serializedBytes()) }
    }

    enum ColumnDamage: CaseIterable, Sendable {
        case missingStamp, replicaIndexOutOfRange, repeatedReplica, shortReplica, seqZero, operationSizesTooLarge
        case operationCountsTooMany, operationCountsTooFew, wholeOutOfOrder, wholePastTheEnd, wholeWithoutPosition
        case seqPastTheLimit

        func apply(to columns: inout WireChangeColumns) {
            switch self {
            case .missingStamp: columns.stampDeltas.removeLast()
            case .replicaIndexOutOfRange: columns.replicaIndexes[0] = UInt32(columns.replicas.count)
            case .repeatedReplica: columns.replicas[1] = columns.replicas[0]
            case .shortReplica: columns.replicas[0].removeLast()
            case .seqZero: columns.seqDeltas[0] = 0
            case .operationSizesTooLarge: columns.operationSizes[0] += 1
            case .operationCountsTooMany: columns.operationCounts[0] += 1
            case .operationCountsTooFew: columns.operationCounts[0] -= 1
            case .wholeOutOfOrder:
                columns.wholePositions.append(0)
                columns.wholeChanges.append(columns.wholeChanges[0])
            case .wholePastTheEnd: columns.wholePositions[0] = UInt32(columns.replicaIndexes.count + 1)
            case .wholeWithoutPosition: columns.wholePositions.removeAll()
            case .seqPastTheLimit: columns.seqDeltas[0] = Int64.min
            }
        }
    }

    /// Columns hold operations as bytes: a snapshot of changes from a newer schema decodes, keeps them,
    /// and a board that cannot read them yet leaves them out of its state.
    @Test func columnsOfANewerChangeSchemaAreKeptAndLeftOutOfTheBoard() throws {
        let snapshot = DocumentSnapshot(room: "r", document: "main", changes: Samples.changes)
        var columns = snapshot.columns.wire
        columns.schemaVersion = BoardEdit.schemaVersion + 1
        var wire = try WireSnapshot(serializedBytes: snapshot.encoded(compression: .none))
        let state: [UInt8] = try columns.serializedBytes()
        wire.state = Data(state)
        wire.stateSize = UInt32(state.count)
        let decoded = try DocumentSnapshot(decoding: try wire.serializedBytes())
        #expect(decoded.changeCount == Samples.changes.count)
        #expect(try decoded.restore(as: BoardState.self).changeCount == 0)
        #expect(
            try decoded.changes.allSatisfy {
                try ChangeCodec.decode($0).payload.schemaVersion == BoardEdit.schemaVersion + 1
            }
        )
        #expect(try DocumentSnapshot(decoding: decoded.encoded()).changes == decoded.changes)
    }

    @Test func aChangeWithASeqPastTheLimitIsKeptWholeAndRefusedOnRestore() throws {
        let bytes = ChangeCodec.encode(Samples.change(Samples.alice, seq: WireLimits.maximumSeq + 1))
        let snapshot = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: Cut(),
            changes: [bytes]
        )
        #expect(snapshot.columns.laidOutCount == 0)
        #expect(snapshot.changes == [bytes])
        #expect(throws: WireError.invalidField("change.seq")) { try snapshot.restore(as: BoardState.self) }
    }

    /// One-point changes, as a stroke drawn a point at a time makes: by column, what each costs
    /// beyond its operation is its stamp's difference and a byte per column.
    @Test func onePointChangesCostLittleMoreThanTheirOperations() throws {
        var changes: [[UInt8]] = []
        let stroke = StrokeID(change: ChangeID(replica: Samples.alice, seq: 1))
        var operations = 0
        for seq in 1...1_000 as ClosedRange<UInt64> {
            let point = InkGrid.snap(Point(Double(seq) * 1.5, 200 + 30 * sin(Double(seq) / 9)))
            let operation: BoardOperation =
                seq == 1
                ? .addStroke(StrokeStyle(colour: Colour(rgba: 0xFF), width: 2), points: [point], pressures: nil)
                : .appendPoints(stroke, points: [point], pressures: nil)
            let change = Change(
                id: ChangeID(replica: Samples.alice, seq: seq),
                stamp: Stamp(wallMilliseconds: 1_800_000_000_000 + seq / 3, counter: UInt16(seq % 3)),
                payload: BoardEdit(board: "main", operations: [operation])
            )
            operations += OperationCodec.bytes(operation, in: change.id).count
            changes.append(ChangeCodec.encode(change))
        }
        let plain = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: Cut(),
            changes: changes
        ).encoded(compression: .none)
        let asChanges = changes.reduce(0) { $0 + $1.count }
        // Each change's own bytes are about 40 more than its operation; by column, under 6 more.
        #expect(asChanges > operations + 35 * changes.count)
        #expect(plain.count < operations + 6 * changes.count)
    }
}
