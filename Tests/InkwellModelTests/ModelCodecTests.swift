import InkwellModel
import InkwellSync
import PropertyBased
import Testing

/// The operations' bytes: the messages `Protos/inkwell/v1/model.proto` describes, written once and read
/// back exactly, and everything else kept as it came.
@Suite struct ModelCodecTests {
    /// The bytes `protoc --encode=inkwell.v1.ModelOperation` writes for the same messages.
    @Test(
        arguments: [
            (
                ModelOperation.increment(field: "rice", by: 2),
                [0x0A, 0x08, 0x0A, 0x04, 0x72, 0x69, 0x63, 0x65, 0x10, 0x04]
            ),
            (.increment(field: "a", by: -1), [0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x01]),
            (.increment(field: "a", by: 0), [0x0A, 0x03, 0x0A, 0x01, 0x61]),
            (.assign(field: "a", value: [1, 2]), [0x12, 0x07, 0x0A, 0x01, 0x61, 0x12, 0x02, 0x01, 0x02]),
            (.assign(field: "a", value: []), [0x12, 0x03, 0x0A, 0x01, 0x61]),
            (.remove(field: "a"), [0x1A, 0x03, 0x0A, 0x01, 0x61]),
        ] as [(ModelOperation, [UInt8])]
    )
    func operationsAreTheMessagesOfTheProto(operation: ModelOperation, bytes: [UInt8]) {
        #expect(operation.encoded == bytes)
        #expect(ModelOperation(decoding: bytes[...]) == operation)
    }

    @Test func applicableOperationsRoundTrip() async {
        await propertyCheck(count: 2_000, input: ModelPool.operation) { operation in
            let bytes = operation.encoded
            let decoded = ModelOperation(decoding: bytes[...])
            #expect(decoded.encoded == bytes, "bytes re-encode identically, whatever they are")
            if operation.isApplicable {
                #expect(decoded == operation)
            } else {
                #expect(decoded == .unknown(bytes))
            }
        }
    }

    @Test func extremeAmountsRoundTrip() {
        for by in [Int64.max, .min, .min + 1, -64, 63, 64] {
            let operation = ModelOperation.increment(field: "f", by: by)
            #expect(ModelOperation(decoding: operation.encoded[...]) == operation)
        }
    }

    /// What a newer version may write, and encodings of known operations that are not the canonical
    /// one, are unknown here: kept, written back byte for byte, applied by no replica.
    @Test(
        arguments: [
            [],
            [0x22, 0x00],  // a fourth kind
            [0x0A, 0x08, 0x10, 0x04, 0x0A, 0x04, 0x72, 0x69, 0x63, 0x65],  // fields out of order
            [0x0A, 0x88, 0x00, 0x0A, 0x04, 0x72, 0x69, 0x63, 0x65, 0x10, 0x04],  // an overlong length
            [0x0A, 0x05, 0x0A, 0x01, 0x61, 0x10, 0x00],  // a zero amount written out
            [0x0A, 0x05, 0x0A, 0x01, 0x61, 0x18, 0x01],  // a newer field of an increment
            [0x0A, 0x03, 0x0A, 0x01, 0x61, 0x00],  // a byte after the message
            [0x0A, 0x02, 0x0A, 0x00],  // an empty name written out
            [0x0A, 0x00],  // no name
            [0x1A, 0x03, 0x0A, 0x01, 0xFF],  // a name that is not UTF-8
            [0x0A, 0x09, 0x0A, 0x01, 0x61, 0x10],  // cut short
            [0x12, 0x05, 0x0A, 0x01, 0x61, 0x12, 0x00],  // an empty value written out
        ] as [[UInt8]]
    )
    func nonCanonicalOrNewerBytesAreKeptUnknown(bytes: [UInt8]) {
        let operation = ModelOperation(decoding: bytes[...])
        #expect(operation == .unknown(bytes))
        #expect(operation.encoded == bytes)
    }

    @Test func namesAndValuesAreBounded() {
        let longest = String(repeating: "n", count: ModelOperation.maximumFieldBytes)
        let largest = [UInt8](repeating: 1, count: ModelOperation.maximumValueBytes)
        for operation in [ModelOperation.assign(field: longest, value: largest), .remove(field: longest)] {
            #expect(operation.isApplicable)
            #expect(ModelOperation(decoding: operation.encoded[...]) == operation)
        }
        let tooLong = ModelOperation.increment(field: longest + "n", by: 1)
        let tooLarge = ModelOperation.assign(field: "f", value: largest + [1])
        for operation in [tooLong, tooLarge, .remove(field: "")] {
            #expect(!operation.isApplicable)
            #expect(ModelOperation(decoding: operation.encoded[...]) == .unknown(operation.encoded))
        }
    }

    /// Through the engine: a change's operations become opaque bytes and come back as they were,
    /// unknown ones included, and the store is told which fields a change names.
    @Test func changesRoundTripThroughTheEngine() throws {
        let edit = ModelEdit(
            document: "2026-11-25",
            operations: [
                .increment(field: "rice", by: 2), .unknown([0x22, 0x00]), .assign(field: "note", value: [9]),
                .increment(field: "rice", by: 1), .remove(field: "tea"),
            ]
        )
        let change = Change(
            id: ChangeID(replica: ModelPool.replicas[0], seq: 1),
            stamp: Stamp(wallMilliseconds: 5),
            payload: edit
        )
        let encoded = change.encoded
        #expect(encoded.payload.type == "model")
        #expect(encoded.payload.schemaVersion == 1)
        #expect(encoded.payload.operations.map(Array.init) == edit.operations.map(\.encoded))
        #expect(try #require(encoded.decoded(as: ModelEdit.self)) == change)
        #expect(DocumentTypes([ModelEdit.self]).entities(of: encoded) == ["rice", "note", "tea"])
    }

    /// A change of a newer schema is not read as this one.
    @Test func aNewerSchemaIsNotRead() {
        var encoded = Change(
            id: ChangeID(replica: ModelPool.replicas[0], seq: 1),
            stamp: Stamp(wallMilliseconds: 5),
            payload: ModelEdit(document: "d", operations: [.increment(field: "f", by: 1)])
        ).encoded
        encoded.payload.schemaVersion = ModelEdit.schemaVersion + 1
        #expect(encoded.decoded(as: ModelEdit.self) == nil)
    }
}
