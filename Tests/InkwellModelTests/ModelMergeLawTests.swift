import InkwellModel
import InkwellSync
import InkwellTesting
import PropertyBased
import Testing

/// The state is a function of the set of changes applied: any order, any repeat, any batching, read
/// locally or through the codec, gives the same document and fingerprint.
@Suite struct ModelMergeLawTests {
    @Test func anyOrderDuplicatesAndBatchingGiveTheSameDocument() async {
        await propertyCheck(count: 500, input: ModelPool.changes, Gen.uint64()) { changes, seed in
            let reference = ModelDocument.applying([changes])
            var random = SeededGenerator(seed: seed)
            var deliveries = changes + changes.filter { _ in Bool.random(using: &random) }
            deliveries.shuffle(using: &random)
            // Half arrive as they were made, half as another replica decodes them.
            deliveries = deliveries.map { Bool.random(using: &random) ? $0 : $0.roundTripped }
            var batches: [[Change<ModelEdit>]] = []
            while !deliveries.isEmpty {
                let size = Int.random(in: 1...max(1, deliveries.count), using: &random)
                batches.append(Array(deliveries.prefix(size)))
                deliveries.removeFirst(size)
            }
            let replica = ModelDocument.applying(batches)
            #expect(replica == reference)
            #expect(replica.fingerprint == reference.fingerprint)
            #expect(throws: Never.self) { try replica.checkInvariants() }
        }
    }

    @Test func applyingSetsCommutesAssociatesAndIsIdempotent() async {
        await propertyCheck(count: 500, input: ModelPool.changes, ModelPool.changes, ModelPool.changes) { a, b, c in
            let a = ModelPool.authored(by: 1, a)
            let c = ModelPool.authored(by: 3, c)
            // The sets overlap where replicas received the same change: b also holds every other of a's.
            let b = ModelPool.authored(by: 2, b) + a.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
            let abThenC = ModelDocument.applying([a, b, c])
            #expect(ModelDocument.applying([b, a, c]).fingerprint == abThenC.fingerprint, "not commutative")
            #expect(ModelDocument.applying([a, b + c]).fingerprint == abThenC.fingerprint, "not associative")
            #expect(ModelDocument.applying([c, b, a]).fingerprint == abThenC.fingerprint, "order leaks")
            #expect(ModelDocument.applying([a, b, c, a, b, c]) == abThenC, "not idempotent")
        }
    }

    @Test func readsMatchAPlainReferenceModel() async {
        await propertyCheck(count: 500, input: ModelPool.changes, Gen.uint64()) { changes, seed in
            var random = SeededGenerator(seed: seed)
            let document = ModelDocument.applying([changes.shuffled(using: &random)])
            let reference = ReferenceModel(changes, document: ModelPool.document)
            for field in ModelPool.fields {
                #expect(document.counter(field) == reference.counter(field), "counter \(field)")
                #expect(document.value(field) == reference.value(field), "value \(field)")
            }
            let listed = ModelPool.fields.filter { reference.counter($0) != 0 || reference.value($0) != nil }
            #expect(document.fields == listed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    /// Every order of a few changes, exhaustively, as for every small case.
    @Test func everyOrderOfFourChangesAgrees() async {
        await propertyCheck(count: 200, input: ModelPool.changes) { changes in
            let orders = AllOrders.permutations(of: Array(changes.prefix(4)))
            #expect(Set(orders.map { ModelDocument.applying([$0]).fingerprint }).count == 1)
        }
    }
}
