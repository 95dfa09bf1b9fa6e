import InkwellModel
import InkwellSync
import Testing

@Suite struct ModelDocumentTests {
    let day = ModelPool.document
    let alice = ModelPool.replicas[0]
    let bob = ModelPool.replicas[1]

    func change(
        _ author: ReplicaID,
        _ seq: UInt64,
        at wall: UInt64,
        _ operations: [ModelOperation]
    ) -> Change<ModelEdit> {
        Change(
            id: ChangeID(replica: author, seq: seq),
            stamp: Stamp(wallMilliseconds: wall),
            payload: ModelEdit(document: day, operations: operations)
        )
    }

    @Test func countsFromEveryReplicaAddUp() {
        let document = ModelDocument.applying([
            [change(alice, 1, at: 10, [.increment(field: "rice", by: 2)])],
            [change(bob, 1, at: 10, [.increment(field: "rice", by: 1), .increment(field: "tea", by: 1)])],
        ])
        #expect(document.counter("rice") == 3)
        #expect(document.counter("tea") == 1)
        #expect(document.counter("bread") == 0)
        #expect(document.changeCount == 2)
    }

    @Test func aChangeAppliedAgainCountsOnce() {
        let twice = change(alice, 1, at: 10, [.increment(field: "rice", by: 2)])
        var document = ModelDocument(document: day)
        #expect(document.apply(contentsOf: [twice, twice]) == ["rice"])
        #expect(document.apply(contentsOf: [twice]).isEmpty)
        #expect(document.counter("rice") == 2)
    }

    @Test func theLatestWriteInTheTotalOrderHolds() {
        // Equal stamps: the greater replica wins; within a change, the later operation.
        let document = ModelDocument.applying([
            [change(bob, 1, at: 10, [.assign(field: "note", value: [2])])],
            [change(alice, 1, at: 10, [.assign(field: "note", value: [1]), .assign(field: "mood", value: [1])])],
            [change(alice, 2, at: 9, [.assign(field: "mood", value: [2]), .assign(field: "mood", value: [3])])],
        ])
        #expect(alice < bob)
        #expect(document.value("note") == [2])
        #expect(document.value("mood") == [1], "a write stamped earlier loses, whenever it arrives")
        let later = ModelDocument.applying([
            [change(alice, 3, at: 11, [.assign(field: "x", value: [1]), .assign(field: "x", value: [2])])]
        ])
        #expect(later.value("x") == [2])
    }

    @Test func aRemovalIsAWriteThatAnOlderWriteCannotUndo() {
        let write = change(alice, 1, at: 10, [.assign(field: "note", value: [1])])
        let removal = change(bob, 1, at: 20, [.remove(field: "note")])
        for order in [[write, removal], [removal, write]] {
            let document = ModelDocument.applying([order])
            #expect(document.value("note") == nil)
            #expect(document.fields.isEmpty)
        }
        let rewrite = change(alice, 2, at: 30, [.assign(field: "note", value: [])])
        #expect(ModelDocument.applying([[write, removal, rewrite]]).value("note") == [])
    }

    @Test func changesOfAnotherDocumentDoNothing() {
        var document = ModelDocument(document: "2026-11-26")
        let delta = document.apply(contentsOf: [change(alice, 1, at: 10, [.increment(field: "rice", by: 2)])])
        #expect(delta.isEmpty)
        #expect(document == ModelDocument(document: "2026-11-26"))
    }

    @Test func theDeltaNamesTheFieldsThatReadDifferently() {
        var document = ModelDocument(document: day)
        let first = document.apply(contentsOf: [
            change(alice, 1, at: 10, [.increment(field: "rice", by: 1), .increment(field: "rice", by: -1)]),
            change(alice, 2, at: 10, [.increment(field: "tea", by: 1), .assign(field: "note", value: [1])]),
            change(alice, 3, at: 10, [.increment(field: "zero", by: 0), .remove(field: "gone")]),
        ])
        #expect(first == ["tea", "note"])
        let losing = document.apply(contentsOf: [change(bob, 1, at: 5, [.assign(field: "note", value: [2])])])
        #expect(losing.isEmpty, "a write that loses changes nothing")
    }

    @Test func fieldsAreListedByTheirBytesWithoutZeroCounters() {
        let document = ModelDocument.applying([
            [
                change(
                    alice,
                    1,
                    at: 10,
                    [
                        .increment(field: "tea", by: 1), .increment(field: "Rice", by: 1),
                        .increment(field: "\u{E9}", by: 1), .increment(field: "e\u{301}", by: 2),
                        .increment(field: "cake", by: 1), .increment(field: "cake", by: -1),
                        .assign(field: "note", value: []),
                    ]
                )
            ]
        ])
        #expect(document.fields == ["Rice", "e\u{301}", "note", "tea", "\u{E9}"])
        #expect(document.counter("e\u{301}") == 2, "two spellings, two fields")
        #expect(document.counter("\u{E9}") == 1)
    }

    @Test func operationsOutOfBoundsAreIgnored() {
        let name = String(repeating: "n", count: ModelOperation.maximumFieldBytes + 1)
        let document = ModelDocument.applying([
            [
                change(
                    alice,
                    1,
                    at: 10,
                    [
                        .increment(field: name, by: 1), .increment(field: "", by: 1),
                        .assign(field: "f", value: [UInt8](repeating: 0, count: ModelOperation.maximumValueBytes + 1)),
                        .unknown([0x22, 0x00]),
                    ]
                )
            ]
        ])
        #expect(document.fields.isEmpty)
        #expect(document.fingerprint == ModelDocument(document: day).fingerprint)
        #expect(document.changeCount == 1)
    }
}
