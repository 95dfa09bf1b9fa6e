import InkwellModel
import InkwellSync
import InkwellTesting
import Testing

/// Bytes from anyone: random or mangled operations never trap, are kept exactly, and every replica
/// ignores the same ones whatever order they come in.
@Suite struct ModelHostileInputTests {
    static let cases = 20_000

    @Test func randomAndMangledBytesNeverTrapAndAreKeptExactly() {
        let seed = seed("randomAndMangledBytesNeverTrapAndAreKeptExactly")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.cases {
            let bytes = hostileBytes(using: &random)
            let operation = ModelOperation(decoding: bytes[...])
            #expect(operation.encoded == bytes)
            if case .unknown = operation { continue }
            #expect(operation.isApplicable, "what is read is applicable")
        }
    }

    @Test func hostileChangesAreIgnoredIdenticallyInAnyOrder() throws {
        let seed = seed("hostileChangesAreIgnoredIdenticallyInAnyOrder")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            let changes = (1...8).map { seq in
                Change(
                    id: ChangeID(replica: ModelPool.replicas[Int(seq % 3)], seq: UInt64(seq)),
                    stamp: Stamp(wallMilliseconds: random.next() % 4),
                    payload: EncodedEdit(
                        document: ModelPool.document,
                        type: ModelEdit.documentType,
                        schemaVersion: 1,
                        operations: (0..<Int.random(in: 0...4, using: &random)).map { _ in
                            hostileBytes(using: &random)[...]
                        }
                    )
                ).decoded(as: ModelEdit.self)!
            }
            let forward = ModelDocument.applying([changes])
            let backward = ModelDocument.applying(changes.reversed().map { [$0] })
            #expect(forward == backward)
            try forward.checkInvariants()
            for change in changes {
                let operations = change.payload.operations
                #expect(change.encoded.payload.operations.map(Array.init) == operations.map(\.encoded))
            }
        }
    }

    /// Amounts at the ends of `Int64` add up exactly, in any order, and read clamped.
    @Test func extremeAmountsSaturateTheReadingNotTheSum() {
        func change(_ seq: UInt64, _ by: Int64) -> Change<ModelEdit> {
            Change(
                id: ChangeID(replica: ModelPool.replicas[0], seq: seq),
                stamp: Stamp(wallMilliseconds: seq),
                payload: ModelEdit(document: ModelPool.document, operations: [.increment(field: "f", by: by)])
            )
        }
        let changes = [change(1, .max), change(2, .max), change(3, .min), change(4, .min), change(5, 1)]
        var fingerprints: Set<String> = []
        for order in AllOrders.permutations(of: changes) {
            var document = ModelDocument(document: ModelPool.document)
            for change in order { _ = document.apply(contentsOf: [change]) }
            #expect(document.counter("f") == -1)
            fingerprints.insert(document.fingerprint)
        }
        #expect(fingerprints.count == 1)
        #expect(ModelDocument.applying([Array(changes.prefix(2))]).counter("f") == .max)
        #expect(ModelDocument.applying([Array(changes[2...3])]).counter("f") == .min)
    }

    /// Random bytes, or a valid operation cut, extended or with a byte changed.
    private func hostileBytes(using random: inout SeededGenerator) -> [UInt8] {
        let valid: [ModelOperation] = [
            .increment(field: "rice", by: Int64(bitPattern: random.next())),
            .assign(
                field: "f",
                value: (0..<Int.random(in: 0...5, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                }
            ),
            .remove(field: "é"),
        ]
        var bytes = valid.randomElement(using: &random)!.encoded
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 1:
            bytes.removeLast(Int.random(in: 0...bytes.count, using: &random))
        case 2:
            bytes.append(UInt8.random(in: 0...255, using: &random))
        case 3:
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        default:
            break
        }
        return bytes
    }
}
